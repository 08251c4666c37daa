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
 *
 * Beside it, in the same search, the same word's other use: a chained future whose step returns a future
 * (`then`, `recover`, `flattened()`), which has no gate. The step checks the future's cell
 * (cancelled: its closure never runs), runs the closure, and if the future returned can be
 * asked, links to it (pushes its vote on the record's action list: run at once if a request
 * closed the list already) and then marks PASSING (markPassing). The request sets REQUESTED,
 * closes the action list (taking the vote if pushed), reads the word: it cancels the future
 * unless PASSING, and runs the vote it took. The closure may have begun before the request's
 * cancellation (the check then the run, as in the code).
 * Checked: the returned future is asked (voted on) exactly once when the closure ran and
 * returned one that can be asked, never otherwise; the request is always answered (the future
 * cancelled, or following a future that was asked); the closure never begins after the check
 * saw the future cancelled. Seeded bugs (must fail): DROP_LATE_VOTE (a vote pushed after the
 * request's close is dropped, not run), PASS_WITHOUT_VOTE (the step marks PASSING when its link
 * was not counted, so registered no vote).
 */
/* The functions that move the producer-state word (Scripts/check-model-conformance):
   @driver close_gate
     Swift CancellationRecord.closeStartGate()
   @driver open_gate
     Swift CancellationRecord.openStartGate()
   @driver follow_gate
     Swift CancellationRecord.followStartGate(passing:)
   @driver mark_passing
     Swift CancellationRecord.markPassing()
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

/* A chained future's step racing a request: its own variables, searched beside the gate. */
#define OPEN 0
#define CLOSED_BY_REQUEST 1

byte chain_state = 0;           /* the producer-state word: 0, then PASSING */
bit chain_requested = 0;
bit chain_cancelled = 0;        /* the chained future's cell */
bit ran = 0;                    /* the closure ran */
bit returned_askable = 0;       /* it returned a future that can be asked */
bit counted = 0;                /* its link was counted there */
byte list = OPEN;               /* the record's action list */
bit vote_pushed = 0;            /* the vote is a node in the list */
byte votes = 0;                 /* votes cast on the returned future */
bit chain_done_request = 0;
bit chain_done_step = 0;

proctype ChainRequest() {
    bool took_vote = false;
    chain_requested = 1;
    atomic {  /* closeForRequest: FULL exchange of the list for the sentinel */
        list = CLOSED_BY_REQUEST;
        if :: vote_pushed -> took_vote = true; vote_pushed = 0 :: else -> skip fi
    }
    if
    :: chain_state == PASSING -> skip          /* the vote is the answer: the future follows */
    :: else -> chain_cancelled = 1       /* fail(.cancelled): a request cancels a step's future */
    fi;
    if :: took_vote -> votes++ :: else -> skip fi;
    chain_done_request = 1
}

proctype ChainStep() {
    if
    :: !chain_cancelled ->               /* receive: the step runs unless its future is cancelled */
        ran = 1;
        if :: returned_askable = 1 :: returned_askable = 0 fi;
        if
        :: returned_askable ->
            if :: counted = 1 :: counted = 0 fi;   /* addDependent: false once saturated or asked */
            if
            :: counted ->
                atomic {  /* addCancellationAction: a FULL push, or the closed list runs it */
                    if
                    :: list == CLOSED_BY_REQUEST ->
#ifdef DROP_LATE_VOTE
                        skip
#else
                        votes++
#endif
                    :: else -> vote_pushed = 1
                    fi
                }
                chain_state = PASSING   /* @step mark_passing: producerStateWord */
            :: else ->
#ifdef PASS_WITHOUT_VOTE
                chain_state = PASSING
#else
                skip
#endif
            fi
        :: else -> skip                  /* may_pass cleared: nothing to pass on to */
        fi
    :: else -> skip
    fi;
    chain_done_step = 1
}

init {
    run Request(); run Closure(); run ChainRequest(); run ChainStep();
    (done_request && done_closure && chain_done_request && chain_done_step);
    /* The start gate. */
    assert(!ran_after_cancel);
    assert(cancelled || voted);          /* the request was answered */
    /* The chained step. A vote still in the list at the end was pushed after nobody closed it:
       none here, as the request always closes. */
    assert(!vote_pushed);
    assert(votes <= 1);
    assert(votes == ((ran && returned_askable && counted) -> 1 : 0));
    assert(chain_cancelled || (chain_state == PASSING && votes == 1))   /* the request was answered */
}
