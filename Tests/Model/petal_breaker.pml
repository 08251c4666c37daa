/*
 * petal_breaker.pml - CircuitBreaker (Sources/Petal/Resilience/CircuitBreaker.swift,
 * BreakerWord.swift): one word of (state, epoch, and the state's payload) moved by
 * compare-and-swap, never under a lock.
 *
 * The word: state CLOSED, OPEN or HALF (half-open); epoch, one more at every change of state;
 * while open, the tick at which trial calls may pass; while half-open, the trials admitted
 * and the trials succeeded. Its moves, each a FULL compare-and-swap (sequentially consistent
 * here) from the value a load saw, retried from the value found when it fails:
 *   admit   (BreakerWord.admitting)   OPEN, now >= tick  ->  HALF, epoch + 1, admitted 1
 *                                     HALF, admitted < TRIALS  ->  admitted + 1
 *   trip    (BreakerWord.tripping)    CLOSED in the caller's epoch  ->  OPEN, epoch + 1,
 *                                     tick = now + DURATION
 *   settle  (BreakerWord.settling)    HALF in the trial's epoch:
 *                                       success  ->  succeeded + 1, or CLOSED, epoch + 1 if it
 *                                                    was the last trial
 *                                       failure  ->  OPEN, epoch + 1, tick = now + DURATION
 *                                       ignored  ->  admitted - 1 (a cancelled trial, or one
 *                                                    a limit or a deadline refused: its place
 *                                                    goes back)
 * A call that finds the word CLOSED runs with no write (the closed path: a load); its failure
 * trips the breaker if the window's rates say so, which the model leaves to chance (the window
 * is counters, not part of this protocol). Time is a process that moves the clock forward, a
 * tick at a time; a caller reads the clock before the word, as admit() does.
 *
 * Checked: in every state reached, while half-open, admitted == succeeded + the trials of this
 * epoch still running, admitted <= TRIALS and succeeded < TRIALS (so a half-open breaker is
 * never stuck with every place taken and nobody to decide); a trip or a settle moves the word
 * only in the epoch its call was admitted in (a late outcome decides nothing); the breaker
 * half-opens only once its tick has passed; it closes only after TRIALS successes of the
 * epoch; the epoch counts the changes of state; every caller ends; at the end, nothing is
 * half-open with its places all taken.
 *
 * Seeded bugs (must fail): NO_EPOCH_CHECK (a trial settles whatever half-open epoch it
 * finds), NO_PERMIT_RETURN (an ignored trial keeps its place), UNBOUNDED_TRIALS (half-open
 * admits past TRIALS), BLIND_TRIP (a failure trips whatever state the word is in),
 * EARLY_HALF_OPEN (admit does not wait for the tick).
 */
/* The functions of CircuitBreaker that move its word (Scripts/check-model-conformance):
   @driver exchange
     Swift CircuitBreaker.exchange(_:_:)
   @driver admit
     Swift CircuitBreaker.admit()
   @driver trip
     Swift CircuitBreaker.trip(epoch:at:)
   @driver settle
     Swift CircuitBreaker.settle(trial:_:at:)
   Every compare-and-swap of the word goes through exchange, which is each of these steps.
*/
#define CLOSED 0
#define OPEN 1
#define HALF 2
#define SUCCESS 0
#define FAILURE 1
#define IGNORED 2
#ifndef TRIALS
#define TRIALS 2
#endif
#ifndef CALLERS
#define CALLERS 3
#endif
#ifndef CALLS
#define CALLS 2
#endif
#ifndef MAXTIME
#define MAXTIME 2
#endif
#define DURATION 1

/* The word. */
byte state = CLOSED;
byte epoch = 0;
byte admitted = 0;
byte succeeded = 0;
byte tick = 0;
/* The clock. */
byte clock = 0;
/* Ghosts: the trials of the current half-open epoch still running, the successes settled in
   it, and the changes of state so far. */
byte running = 0;
byte successes = 0;
byte changes = 0;
byte done = 0;

inline invariant() {
    assert(state != HALF || (admitted == succeeded + running && admitted <= TRIALS && succeeded < TRIALS));
    assert(state != HALF || succeeded == successes);
    assert(epoch == changes)
}

/* A change of state: the epoch moved by one, and the trials of the old epoch are stale. */
inline changed() {
    changes++;
    running = 0;
    successes = 0
}

inline load() {
    atomic { s_state = state; s_epoch = epoch; s_adm = admitted; s_succ = succeeded; s_tick = tick }
}

#define SAME (state == s_state && epoch == s_epoch && admitted == s_adm && succeeded == s_succ && tick == s_tick)

proctype caller() {
    byte k = 0;
    byte s_state, s_epoch, s_adm, s_succ, s_tick;
    byte now, mine, outcome;
    bit trial, admittedCall, moved;
    do
    :: k == CALLS -> break
    :: else ->
        k++;
        load();
        if
        :: s_state == CLOSED -> admittedCall = 1; mine = s_epoch
        :: else ->
            now = clock;
            moved = 0;
            do
            :: moved -> break
#ifdef EARLY_HALF_OPEN
            :: !moved && s_state == OPEN ->
#else
            :: !moved && s_state == OPEN && now >= s_tick ->
#endif
                atomic {  /* @step admit: word   @step exchange: word */
                    if
                    :: SAME ->
                        assert(clock >= tick);
                        state = HALF; epoch = s_epoch + 1; admitted = 1; succeeded = 0; tick = 0;
                        changed(); running = 1;
                        mine = epoch; trial = 1; moved = 1;
                        invariant()
                    :: else -> s_state = state; s_epoch = epoch; s_adm = admitted; s_succ = succeeded; s_tick = tick
                    fi
                }
#ifdef UNBOUNDED_TRIALS
            :: !moved && s_state == HALF ->
#else
            :: !moved && s_state == HALF && s_adm < TRIALS ->
#endif
                atomic {  /* the same compare-and-swap as above, from a half-open word */
                    if
                    :: SAME ->
                        admitted = s_adm + 1; running++;
                        mine = epoch; trial = 1; moved = 1;
                        invariant()
                    :: else -> s_state = state; s_epoch = epoch; s_adm = admitted; s_succ = succeeded; s_tick = tick
                    fi
                }
            :: else -> break  /* refused, or closed meanwhile */
            od;
            if
            :: trial -> admittedCall = 1
            :: !trial && s_state == CLOSED -> admittedCall = 1; mine = s_epoch
            :: else -> skip  /* refused: the closure never runs */
            fi
        fi;
        if
        :: !admittedCall -> skip
        :: admittedCall ->
            /* The call runs and resolves. */
            if :: outcome = SUCCESS :: outcome = FAILURE :: outcome = IGNORED fi;
            if
            :: !trial && outcome == FAILURE ->
                /* The window's rates may or may not be past their thresholds. */
                if
                :: skip
                :: 
                    load();
                    moved = 0;
                    do
                    :: moved -> break
#ifdef BLIND_TRIP
                    :: !moved ->
#else
                    :: !moved && s_state == CLOSED && s_epoch == mine ->
#endif
                        atomic {  /* @step trip: word */
                            if
                            :: SAME ->
                                assert(s_state == CLOSED && s_epoch == mine);
                                state = OPEN; epoch = s_epoch + 1; admitted = 0; succeeded = 0; tick = clock + DURATION;
                                changed(); moved = 1;
                                invariant()
                            :: else -> s_state = state; s_epoch = epoch; s_adm = admitted; s_succ = succeeded; s_tick = tick
                            fi
                        }
                    :: else -> break
                    od
                fi
            :: !trial && outcome != FAILURE -> skip  /* counted in the window only */
            :: trial ->
                load();
                moved = 0;
                do
                :: moved -> break
#ifdef NO_EPOCH_CHECK
                :: !moved && s_state == HALF ->
#else
                :: !moved && s_state == HALF && s_epoch == mine ->
#endif
                    atomic {  /* @step settle: word */
                        if
                        :: SAME ->
                            assert(s_epoch == mine);
                            if
                            :: outcome == SUCCESS && s_succ + 1 >= TRIALS ->
                                assert(successes + 1 == TRIALS);
                                state = CLOSED; epoch = s_epoch + 1; admitted = 0; succeeded = 0; tick = 0;
                                changed()
                            :: outcome == SUCCESS && s_succ + 1 < TRIALS ->
                                succeeded = s_succ + 1; successes++; running--
                            :: outcome == FAILURE ->
                                state = OPEN; epoch = s_epoch + 1; admitted = 0; succeeded = 0; tick = clock + DURATION;
                                changed()
#ifdef NO_PERMIT_RETURN
                            :: outcome == IGNORED -> running--
#else
                            :: outcome == IGNORED -> admitted = s_adm - 1; running--
#endif
                            fi;
                            moved = 1;
                            invariant()
                        :: else -> s_state = state; s_epoch = epoch; s_adm = admitted; s_succ = succeeded; s_tick = tick
                        fi
                    }
                :: else -> break  /* a late outcome: another trial decided the epoch */
                od
            fi
        fi;
        /* Nothing of this call is kept: fewer states. */
        atomic {
            s_state = 0; s_epoch = 0; s_adm = 0; s_succ = 0; s_tick = 0;
            now = 0; mine = 0; outcome = 0; trial = 0; admittedCall = 0; moved = 0
        }
    od;
    atomic { done++ }
}

active proctype time() {
    do
    :: clock < MAXTIME -> clock++
    :: break
    od
}

init {
    byte i;
    atomic {
        for (i : 1 .. CALLERS) { run caller() }
    }
    done == CALLERS;
    /* Every caller has finished: nothing runs, and a half-open breaker still has a place. */
    assert(running == 0);
    assert(state != HALF || admitted < TRIALS)
}
