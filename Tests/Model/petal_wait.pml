/*
 * petal_wait.pml - a Promela model of sleeping until a cell is RESOLVED (petal_cell_park, the
 * PARKED bit and the parking table), as implemented in Sources/CPetal/include/petal_cell.h and used
 * by petal_future_wait (Sources/CPetal/petal_future.c) and by Swift's Future.wait and
 * `await value` (Sources/Petal/Observing/ParkingLot.swift).
 *
 * THE CELL is abstracted to what the handshake reads: the phase (PENDING, DELIVERING,
 * RESOLVED) and PARKED. Every transition of the word is one atomic step, as it is one CAS in
 * the implementation: park (PARKED set unless RESOLVED), publish (to DELIVERING, keeping
 * PARKED, or straight to RESOLVED, handing PARKED to the publisher), and take_more's last CAS
 * (to RESOLVED, handing PARKED over). The list, COUNT and slots are petal_cell.pml's business;
 * the transitions modelled there keep PARKED, bit for bit.
 *
 * THE BUCKET is a mutex and a condition variable: lock and unlock; cond_wait releases the mutex
 * and joins the sleepers in one step, wakes when a broadcast takes it out (or, for a timed
 * sleeper, when it gives up), and takes the mutex again before returning.
 *
 * PROCESSES: a resolver (publish, with or without waiters to deliver, then take_more; whoever
 * gets PARKED back broadcasts under the bucket lock); W0, a sleeper that waits for ever; W1,
 * one that may give up at any time (a timed wait, a cancelled task); and a neighbour: the
 * resolver of another future in the same bucket, whose broadcasts are spurious wake-ups.
 *
 * CHECKED: a sleeper that returns without giving up sees what it waited for (assertions); no
 * sleeper is left asleep once everything else has ended (pan's invalid end states: a lost
 * wake-up).
 *
 * VARIANTS (spin -D<NAME> -a petal_wait.pml), all expected to FAIL:
 *   DROP_PARKED      publish to DELIVERING drops PARKED: take_more cannot hand it over
 *   UNLOCKED_WAKE    the resolver broadcasts without the bucket lock
 *   CHECK_UNLOCKED   the sleeper lets go of the lock between its check and its sleep
 *   SINGLE_SLEEP     the sleeper sleeps once instead of rechecking after a wake-up
 */

#define PENDING     0
#define DELIVERING  1
#define RESOLVED    2
#define SLEEPERS    2

byte phase = PENDING;
bit parked = 0;
bit mutex = 0;
bit asleep[SLEEPERS];
byte ended = 0;

inline lock() { atomic { mutex == 0 -> mutex = 1 } }
inline unlock() { mutex = 0 }
inline broadcast() { asleep[0] = 0; asleep[1] = 0 }

inline wake(handed) {
    if
    :: handed ->
#ifdef UNLOCKED_WAKE
       broadcast()
#else
       lock(); broadcast(); unlock()
#endif
    :: else -> skip
    fi
}

/* Sleeps on the bucket's condition: the mutex is released and the sleeper enrolled at once. */
inline cond_wait(i, may_give_up) {
    atomic { asleep[i] = 1; mutex = 0 };
    if
    :: asleep[i] == 0 -> skip
    :: may_give_up -> asleep[i] = 0   /* a timed wait's deadline passed */
    fi;
    lock()
}

/* petal_cell_park: one CAS, refused once RESOLVED. */
inline park(result) {
    atomic { if :: phase != RESOLVED -> parked = 1; result = 1 :: else -> result = 0 fi }
}

proctype Resolver() {
    bit handed = 0;
    if
    :: atomic {                                                  /* publish, waiters taken */
#ifdef DROP_PARKED
           parked = 0;
#endif
           phase = DELIVERING
       };
       /* ... the waiters run ... then take_more's last CAS. */
       atomic { handed = parked; parked = 0; phase = RESOLVED };
       wake(handed)
    :: atomic { handed = parked; parked = 0; phase = RESOLVED };    /* publish, nobody waiting */
       wake(handed)
    fi;
    ended++
}

/* Sleeps until RESOLVED, parking (which is also the recheck) before every sleep. */
proctype Sleeper(byte i; bit may_give_up) {
    bit gave_up = 0;
    bit sleep = 0;
    lock();
    park(sleep);
    do
    :: !sleep -> break
    :: else ->
#ifdef CHECK_UNLOCKED
       unlock(); lock();
#endif
       cond_wait(i, may_give_up);
#ifdef SINGLE_SLEEP
       gave_up = may_give_up && phase != RESOLVED;
       break
#else
       if
       :: may_give_up && phase != RESOLVED -> gave_up = 1; break
       :: else -> skip
       fi;
       park(sleep)
#endif
    od;
    unlock();
    assert(gave_up || phase == RESOLVED);
    ended++
}

/* Another future's resolver in the same bucket: its broadcasts wake our sleepers for nothing. */
proctype Neighbour() {
    lock(); broadcast(); unlock();
    lock(); broadcast(); unlock();
    ended++
}

init {
    atomic {
        run Resolver();
        run Sleeper(0, 0);
        run Sleeper(1, 1);
        run Neighbour()
    }
    ended == 4;
    assert(phase == RESOLVED && asleep[0] == 0)
}
