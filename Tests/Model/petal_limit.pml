/*
 * petal_limit.pml - ConcurrencyLimit (Sources/Petal/Jobs/ConcurrencyLimit.swift, LimitWord.swift):
 * one word of (in flight, waiting) moved by compare-and-swap, and a FIFO queue under a lock.
 *
 * The word's moves, each a FULL compare-and-swap (sequentially consistent here) from the value
 * a load saw, retried from the value found when it fails:
 *   admit      (lock-free)  waiting == 0 && in flight < MAX  ->  in flight + 1
 *   queue      (locked)     in flight >= MAX && waiting < QUEUE -> waiting + 1, and enqueue
 *   release    (lock-free)  waiting == 0 && in flight > 0  ->  in flight - 1
 *   hand over  (locked)     waiting > 0  ->  waiting - 1, dequeue the head, which runs
 *   leave      (locked)     a queued operation asked to cancel: dequeued, waiting - 1
 * An operation enters by the lock-free admit; failing it, under the lock: admit, else queue,
 * else it is refused. An operation that finishes releases: lock-free while nothing waits, else
 * under the lock: hand over if something waits, else release (the last waiter left meanwhile).
 * A queued operation may be asked to cancel: it leaves the queue if still there; if its slot
 * was handed over first, it gives the slot back at once without running (the start gate).
 *
 * Checked: never more than MAX operations running, nor the word's in-flight count above MAX;
 * under the lock, the count of waiters equals the queue's length; every operation ends (none
 * waits for a slot nobody will hand over: an invalid end state otherwise); at the end nothing
 * is in flight or waiting. Seeded bugs (must fail): QUEUE_WITH_FREE_SLOT (the queueing
 * compare-and-swap does not require the limit to be full), RELEASE_WHILE_WAITING (the lock-free
 * release ignores the waiters), COUNT_OUTSIDE_LOCK (a waiter is counted before the lock is
 * taken and queued after).
 */
#ifndef MAX
#define MAX 1
#endif
#ifndef QUEUE
#define QUEUE 2
#endif
#ifndef OPS
#define OPS 3
#endif

/* The word. */
byte inflight = 0;
byte waiting = 0;
/* The lock and the FIFO queue of operation ids it guards. */
bit locked = 0;
chan fifo = [OPS] of { byte };
/* Per operation: its slot handed over (set by the hander, read by the waiter). */
bit granted[OPS];
bit queued[OPS];
byte running = 0;
byte finished = 0;

inline lock() { atomic { locked == 0 -> locked = 1 } }
inline unlock() { assert(waiting == len(fifo)); locked = 0 }

/* Gives a slot back, or hands it to the head of the queue. */
inline release_slot(self) {
    done = false;
    atomic { seen_in = inflight; seen_wait = waiting };
    do
    :: done -> break
    :: else ->
#ifdef RELEASE_WHILE_WAITING
        if
        :: seen_in > 0 ->
#else
        if
        :: seen_wait == 0 && seen_in > 0 ->
#endif
            atomic {
                if
                :: inflight == seen_in && waiting == seen_wait -> inflight = seen_in - 1; done = true
                :: else -> seen_in = inflight; seen_wait = waiting
                fi
            }
        :: else -> break
        fi
    od;
    if
    :: !done ->
        lock();
        atomic { seen_in = inflight; seen_wait = waiting };
        do
        :: done -> break
        :: else ->
            if
            :: seen_wait > 0 ->
                atomic {
                    if
                    :: inflight == seen_in && waiting == seen_wait ->
                        waiting = seen_wait - 1; fifo ? head; queued[head] = 0; granted[head] = 1; done = true
                    :: else -> seen_in = inflight; seen_wait = waiting
                    fi
                }
            :: seen_wait == 0 && seen_in > 0 ->
                atomic {
                    if
                    :: inflight == seen_in && waiting == seen_wait -> inflight = seen_in - 1; done = true
                    :: else -> seen_in = inflight; seen_wait = waiting
                    fi
                }
            :: else -> assert(false)   /* released more than admitted */
            fi
        od;
        unlock()
    :: else -> skip
    fi
}

/* Runs the operation in its slot, then gives the slot back. */
inline run_and_release(self) {
    atomic { running++; assert(running <= MAX && inflight <= MAX) };
    running--;
    release_slot(self)
}

proctype Operation(byte self) {
    byte seen_in, seen_wait, head, n, id;
    byte entry = 0;  /* 1 admitted, 2 queued, 3 refused */
    bool asked, done;
    /* The lock-free admit. */
    atomic { seen_in = inflight; seen_wait = waiting };
    do
    :: entry != 0 -> break
    :: else ->
        if
        :: seen_wait == 0 && seen_in < MAX ->
            atomic {
                if
                :: inflight == seen_in && waiting == seen_wait -> inflight = seen_in + 1; entry = 1
                :: else -> seen_in = inflight; seen_wait = waiting
                fi
            }
        :: else -> break
        fi
    od;
    if
    :: entry == 0 ->
#ifdef COUNT_OUTSIDE_LOCK
        /* The bug: counted first, queued under the lock later. */
        atomic {
            if
            :: inflight >= MAX && waiting < QUEUE -> waiting++; entry = 2
            :: else -> skip
            fi
        };
#endif
        lock();
        atomic { seen_in = inflight; seen_wait = waiting };
        do
        :: entry == 2 -> fifo ! self; queued[self] = 1; break
        :: entry == 1 || entry == 3 -> break
        :: entry == 0 ->
            if
            :: seen_wait == 0 && seen_in < MAX ->
                atomic {
                    if
                    :: inflight == seen_in && waiting == seen_wait -> inflight = seen_in + 1; entry = 1
                    :: else -> seen_in = inflight; seen_wait = waiting
                    fi
                }
#ifdef QUEUE_WITH_FREE_SLOT
            :: seen_wait < QUEUE ->
#else
            :: seen_in >= MAX && seen_wait < QUEUE ->
#endif
                atomic {
                    if
                    :: inflight == seen_in && waiting == seen_wait -> waiting = seen_wait + 1; entry = 2
                    :: else -> seen_in = inflight; seen_wait = waiting
                    fi
                }
            :: else -> entry = 3
            fi
        od;
        unlock()
    :: else -> skip
    fi;
    if
    :: entry == 1 -> run_and_release(self)
    :: entry == 2 ->
        /* Waits for its slot, or is asked to cancel (or not) at any moment while it waits. */
        if :: asked = true :: asked = false fi;
        if
        :: asked ->
            lock();
            if
            :: queued[self] ->
                /* leave: dequeue it (rotate the FIFO past it) and uncount it */
                n = len(fifo);
                do
                :: n > 0 -> fifo ? id; if :: id != self -> fifo ! id :: else -> skip fi; n--
                :: else -> break
                od;
                queued[self] = 0;
                assert(waiting > 0);
                waiting--;
                unlock()
            :: else ->
                unlock();
                /* its slot was handed over first: the gate is closed, it never runs */
                granted[self] == 1;
                release_slot(self)
            fi
        :: else ->
            granted[self] == 1;
            run_and_release(self)
        fi
    :: else -> skip
    fi;
    atomic {
        finished++;
        if
        :: finished == OPS -> assert(inflight == 0 && waiting == 0 && running == 0 && len(fifo) == 0)
        :: else -> skip
        fi
    }
}

init {
    atomic {
        byte i = 0;
        do
        :: i < OPS -> run Operation(i); i++
        :: else -> break
        od
    }
}
