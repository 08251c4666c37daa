/*
 * petal_limit.pml - ConcurrencyLimit (Sources/Petal/Limits/ConcurrencyLimit.swift, LimitWord.swift):
 * one word of (in flight, waiting) moved by compare-and-swap, and a FIFO queue under a lock.
 *
 * The word's moves, each a FULL compare-and-swap (sequentially consistent here) from the value
 * a load saw, retried from the value found when it fails:
 *   admit      (lock-free)  waiting == 0 && in flight < max  ->  in flight + 1
 *   queue      (locked)     in flight >= max && waiting < QBOUND -> waiting + 1, and enqueue
 *   release    (lock-free)  waiting == 0 && in flight > 0  ->  in flight - 1
 *   hand over  (locked)     waiting > 0 && in flight <= max ->  waiting - 1, dequeue the head, which runs
 *   leave      (locked)     a queued operation asked to cancel: dequeued, waiting - 1
 *   shed       (locked)     waiting > 0 && in flight > max  ->  in flight - 1 (a release while
 *                           the maximum is below in flight: the slot is not handed over)
 *   grant      (locked)     waiting > 0 && in flight < max  ->  in flight + 1, waiting - 1,
 *                           dequeue the head, which runs (a raised maximum's slots)
 * The maximum moves (RESIZE: ConcurrencyLimit.setMaximum, which an adaptive limit calls): a
 * Resizer sets it to MAX_LOW or MAX_HIGH under the lock, RESIZES times, then grants while it
 * can. The lock-free admit reads the maximum before the word, so it may admit under a maximum
 * that has since come down (in flight above the maximum, never above MAX_HIGH). The queue's
 * bound moves with the maximum (QUEUE at MAX_HIGH, in proportion below), as an adaptive limit's
 * does: lowered, it stops new waiters, and those already waiting stay.
 * An operation enters by the lock-free admit; failing it, under the lock: admit, else queue,
 * else it is refused. An operation that finishes releases: lock-free while nothing waits, else
 * under the lock: hand over if something waits, else release (the last waiter left meanwhile).
 * A queued operation may be asked to cancel: it leaves the queue if still there; if its slot
 * was handed over first, it gives the slot back at once without running (the start gate).
 *
 * Checked: never more than MAX operations running (MAX_HIGH when it moves), nor the word's
 * in-flight count above it; under the lock, the count of waiters equals the queue's length and
 * something waits only while in flight is at the maximum or above; a hand-over or grant never
 * leaves in flight above the maximum; every operation ends (none
 * waits for a slot nobody will hand over: an invalid end state otherwise); at the end nothing
 * is in flight or waiting. Seeded bugs (must fail): QUEUE_WITH_FREE_SLOT (the queueing
 * compare-and-swap does not require the limit to be full), RELEASE_WHILE_WAITING (the lock-free
 * release ignores the waiters), COUNT_OUTSIDE_LOCK (a waiter is counted before the lock is
 * taken and queued after); with the maximum moving, NO_GRANT_ON_RAISE (a raised maximum leaves
 * its slots to the next release) and HANDOVER_ABOVE_MAX (a release hands its slot over while
 * in flight is above a lowered maximum).
 */
/* The functions of ConcurrencyLimit that move its words (Scripts/check-model-conformance):
   @driver exchange
     Swift ConcurrencyLimit.exchange(_:_:)
   @driver admit
     Swift ConcurrencyLimit.admit()
   @driver enter
     Swift ConcurrencyLimit.enter(_:)
   @driver release
     Swift ConcurrencyLimit.release()
   @driver leave
     Swift ConcurrencyLimit.leave(_:)
   @driver set_maximum
     Swift ConcurrencyLimit.setBoundedMaximum(_:)
   Every compare-and-swap of the word goes through exchange, which is each of these steps.
*/
#if defined(NO_GRANT_ON_RAISE) || defined(HANDOVER_ABOVE_MAX)
#define RESIZE
#endif
#ifndef MAX_LOW
#define MAX_LOW 1
#endif
#ifndef MAX_HIGH
#define MAX_HIGH 2
#endif
#ifndef RESIZES
#define RESIZES 2
#endif
#ifdef RESIZE
#define MAX MAX_HIGH
/* An adaptive limit's queue moves with its maximum: QUEUE at MAX_HIGH (its initial maximum). */
#define QBOUND ((QUEUE * max) / MAX_HIGH)
#else
#define QBOUND QUEUE
#endif
#ifndef MAX
#define MAX 1
#endif
#ifndef QUEUE
#define QUEUE 2
#endif
#ifndef OPS
#define OPS 3
#endif

/* The maximum: changed only under the lock. */
byte max = MAX;
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
inline unlock() { assert(waiting == len(fifo) && (waiting == 0 || inflight >= max)); locked = 0 }

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
            atomic {  /* @step release: word */
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
#ifndef HANDOVER_ABOVE_MAX
            :: seen_wait > 0 && seen_in > max ->
                atomic {  /* @step release: word */
                    if
                    :: inflight == seen_in && waiting == seen_wait -> inflight = seen_in - 1; done = true
                    :: else -> seen_in = inflight; seen_wait = waiting
                    fi
                }
            :: seen_wait > 0 && seen_in <= max ->
#else
            :: seen_wait > 0 ->
#endif
                atomic {  /* @step release: word */
                    if
                    :: inflight == seen_in && waiting == seen_wait ->
                        waiting = seen_wait - 1; fifo ? head; queued[head] = 0; granted[head] = 1; done = true;
                        assert(inflight <= max)
                    :: else -> seen_in = inflight; seen_wait = waiting
                    fi
                }
            :: seen_wait == 0 && seen_in > 0 ->
                atomic {  /* @step release: word */
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
    byte seen_max;
    bool asked, done;
    /* The lock-free admit: the maximum read first, then the word. */
    seen_max = max;
    atomic { seen_in = inflight; seen_wait = waiting };
    do
    :: entry != 0 -> break
    :: else ->
        if
        :: seen_wait == 0 && seen_in < seen_max ->
            atomic {  /* @step admit: word   @step exchange: word */
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
            :: inflight >= max && waiting < QBOUND -> waiting++; entry = 2
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
            :: seen_wait == 0 && seen_in < max ->
                atomic {  /* @step enter: word */
                    if
                    :: inflight == seen_in && waiting == seen_wait -> inflight = seen_in + 1; entry = 1
                    :: else -> seen_in = inflight; seen_wait = waiting
                    fi
                }
#ifdef QUEUE_WITH_FREE_SLOT
            :: seen_wait < QBOUND ->
#else
            :: seen_in >= max && seen_wait < QBOUND ->
#endif
                atomic {  /* @step enter: word */
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
                waiting--;  /* @step leave: word */
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

/* Sets the maximum, under the lock, then gives the waiters the slots it frees (run only with
   RESIZE; defined always, so that its steps are the model's in every configuration). */
proctype Resizer() {
    byte seen_in, seen_wait, head, resizes = 0;
    bool done;
    do
    :: resizes < RESIZES ->
        lock();
        if :: max = MAX_LOW :: max = MAX_HIGH fi;  /* @step set_maximum: maximumWord */
#ifndef NO_GRANT_ON_RAISE
        atomic { seen_in = inflight; seen_wait = waiting };
        do
        :: seen_wait > 0 && seen_in < max ->
            atomic {  /* @step set_maximum: word */
                if
                :: inflight == seen_in && waiting == seen_wait ->
                    inflight = seen_in + 1; waiting = seen_wait - 1;
                    fifo ? head; queued[head] = 0; granted[head] = 1;
                    assert(inflight <= max);
                    seen_in = inflight; seen_wait = waiting
                :: else -> seen_in = inflight; seen_wait = waiting
                fi
            }
        :: else -> break
        od;
#endif
        unlock();
        resizes++
    :: else -> break
    od
}

init {
    atomic {
        byte i = 0;
        do
        :: i < OPS -> run Operation(i); i++
        :: else -> break
        od;
#ifdef RESIZE
        run Resizer()
#endif
    }
}
