/*
 * petal_start_gate.pml - the start gate of Future.startFollowing (CancellationRecord's
 * producer-state word: closeStartGate, openStartGate, followStartGate) racing a request.
 *
 * Gate: PENDING -> RUNNING (the closure's open) -> PASSING | FOLLOWING (it returned a future that
 * can or cannot be asked); PENDING -> CLOSED (a request's close). Each move is one FULL
 * compare-and-swap (sequentially consistent here). The request first sets REQUESTED in the
 * request word (FULL), then closes the gate; it cancels the future unless it found RUNNING or
 * PASSING. The closure side, after leaving RUNNING for FOLLOWING, loads the request word and
 * cancels if REQUESTED. With PASSING, the request reaches the returned future by its vote.
 *
 * Checked: the closure never begins once the future is cancelled; a request always ends with
 * the future cancelled or its vote passed on (never lost); the closure runs at most once.
 * Seeded bugs (must fail): NO_REQUEST_CHECK (the closure side skips its load of the request
 * word), CANCEL_RUNNING (the request cancels even when it finds RUNNING).
 */
/* The functions that move the producer-state word (Scripts/check-model-conformance):
   @driver close_gate
     Swift CancellationRecord.closeStartGate()
   @driver open_gate
     Swift CancellationRecord.openStartGate()
   @driver follow_gate
     Swift CancellationRecord.followStartGate(passing:)
*/
#define PENDING 0
#define RUNNING 1
#define PASSING 2
#define FOLLOWING 3
#define CLOSED 4

byte gate = PENDING;
bit requested = 0;
bit cancelled = 0;
bit began = 0;
bit voted = 0;
bit ran_after_cancel = 0;
bit done_request = 0;
bit done_closure = 0;

proctype Request() {
    bool cancel;
    requested = 1;
    atomic {  /* @step close_gate: producerStateWord */
        if
        :: gate == PENDING -> gate = CLOSED; cancel = true
        :: gate == RUNNING ->
#ifdef CANCEL_RUNNING
            cancel = true
#else
            cancel = false
#endif
        :: gate == PASSING -> cancel = false; voted = 1   /* the vote reaches the returned future */
        :: else -> cancel = true                          /* FOLLOWING or CLOSED */
        fi
    }
    if :: cancel -> cancelled = 1 :: else -> skip fi;
    done_request = 1
}

proctype Closure() {
    bool opened, passing;
    atomic { if :: gate == PENDING -> gate = RUNNING; opened = true :: else -> opened = false fi }  /* @step open_gate: producerStateWord */
    if
    :: opened ->
        atomic { if :: cancelled -> ran_after_cancel = 1 :: else -> skip fi; began = 1 }
        if :: passing = true :: passing = false fi;
        gate = (passing -> PASSING : FOLLOWING);  /* @step follow_gate: producerStateWord */
        if
        :: passing -> if :: requested -> voted = 1 :: else -> skip fi   /* the link casts a vote at once */
        :: else ->
#ifndef NO_REQUEST_CHECK
            if :: requested -> cancelled = 1 :: else -> skip fi
#else
            skip
#endif
        fi
    :: else -> skip
    fi;
    done_closure = 1
}

init {
    run Request(); run Closure();
    (done_request && done_closure);
    assert(!ran_after_cancel);
    assert(cancelled || voted)          /* the request was answered */
}
