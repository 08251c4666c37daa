/*
 * petal_deadline.pml - a timeout's deadline entry (Sources/Petal/Time/DeadlineScheduler.swift,
 * Future+Timeout.swift `scheduledTimeout`): who decides the timeout's future.
 *
 * Three parties race to decide one timeout's future, and the rule is "whoever takes the entry
 * out of the heap decides", under the scheduler's lock:
 *   Timer      the timer thread: under the lock, if the entry is in the heap (and due: any
 *              moment here), removes it and takes its action; outside the lock, runs it: a vote
 *              on the receiver (giveUpUpstream), then the timeout's future is rejected.
 *   Receiver   the receiver resolves in time: its callback (subscribed after the entry was
 *              scheduled) cancels the entry under the lock; if that removed it, the timeout's
 *              future follows the receiver's outcome.
 *   Requester  a request on the timeout's future: its action cancels the entry the same way;
 *              if that removed it, the future is cancelled.
 * The future is resolved through its cell's claim: a second decision would be a lost claim
 * (a repeat resolution reported), which must never happen.
 *
 * Checked: exactly one party decides and the future is resolved exactly once (no claim ever
 * lost); the action runs only if the timer took the entry, at most once; the entry leaves the
 * heap (nothing kept until a deadline that no longer matters); a receiver's callback finds the
 * entry in the heap unless another party took it out (a receiver in time is never left waiting
 * for the deadline).
 *
 * Seeded bugs (must fail): CANCEL_UNCHECKED (cancel reports a removal without checking the
 * entry is still in the heap), FIRE_KEEPS_ENTRY (the timer takes the action but leaves the entry
 * in the heap), SUBSCRIBE_FIRST (the receiver's callback is subscribed before the entry is
 * scheduled, so a receiver resolving in between finds nothing to cancel).
 */
bit locked = 0;
bit in_heap = 0;
bit scheduled = 0;
bit action_taken = 0;
byte action_runs = 0;
byte claims = 0;       /* claims made on the timeout's future's cell */
byte decided_by = 0;   /* 1 timer, 2 receiver, 3 requester */
bit taken_out = 0;     /* the entry left the heap, by whoever */
bit subscribed = 0;
byte finished = 0;

inline lock() { atomic { locked == 0 -> locked = 1 } }
inline unlock() { locked = 0 }

/* scheduler.cancel(entry): true if this call removed it. A receiver in time finds it, unless
   another party took it out first. */
inline cancel(removed, receiving) {
    lock();
#ifdef CANCEL_UNCHECKED
    removed = 1; in_heap = 0; taken_out = 1;
#else
    if
    :: in_heap -> in_heap = 0; taken_out = 1; removed = 1
    :: else -> assert(!receiving || taken_out); removed = 0
    fi;
#endif
    unlock()
}

inline decide(by) {
    atomic {
        claims++;
        assert(claims == 1);
        decided_by = by
    }
}

proctype Timer() {
    bit mine = 0;
    scheduled == 1;
    lock();
    if
    :: in_heap ->
#ifndef FIRE_KEEPS_ENTRY
        in_heap = 0;
#endif
        taken_out = 1;
        assert(!action_taken);
        action_taken = 1;
        mine = 1
    :: else -> skip
    fi;
    unlock();
    if
    :: mine -> atomic { action_runs++; assert(action_runs == 1) }; decide(1)
    :: else -> skip
    fi;
    atomic { finished++ }
}

proctype Receiver() {
    bit removed;
    subscribed == 1;  /* its callback runs once subscribed, at any moment from then */
    cancel(removed, 1);
    if :: removed -> decide(2) :: else -> skip fi;
    atomic { finished++ }
}

proctype Requester() {
    bit removed;
    scheduled == 1;  /* the future is returned (and can be asked) after scheduling */
    cancel(removed, 0);
    if :: removed -> decide(3) :: else -> skip fi;
    atomic { finished++ }
}

init {
    run Timer();
    run Receiver();
    run Requester();
    /* scheduledTimeout: schedule, then subscribe (SUBSCRIBE_FIRST: the other way round) */
#ifdef SUBSCRIBE_FIRST
    subscribed = 1;
#endif
    lock();
    in_heap = 1;
    unlock();
    scheduled = 1;
#ifndef SUBSCRIBE_FIRST
    subscribed = 1;
#endif
    finished == 3;
    assert(claims == 1 && !in_heap);
    assert(action_runs == (decided_by == 1 -> 1 : 0))
}
