/*
 * petal_job_state.pml - a Job's state (Sources/Petal/Jobs/Job.swift): one word, the job's
 * `JobState`, moved by compare-and-swap from whichever threads start, finish or cancel it,
 * never under a lock.
 *
 * Every move is `Job.transition(from:to:)`: load the word; while the state seen is one of the
 * move's sources, compare-and-swap it to the target (FULL, sequentially consistent here),
 * retried from the value found; a state outside the sources loses. The moves:
 *   enqueue   PENDING                     -> ENQUEUED    (a start function hands it to a context)
 *   begin     PENDING or ENQUEUED         -> EXECUTING   (the work's guard; false for a repeat)
 *   complete  any state not finished      -> COMPLETED   then the future is fulfilled
 *   fail      any state not finished      -> FAILED      then the future is rejected
 *   cancel    any state not finished      -> CANCELLED   then the future is cancelled
 * Only the thread whose move won resolves the future.
 *
 * The threads: a start function (enqueue, then begin on its context), a second start of the
 * same job (a repeat: begin), whichever of them began finishing the work (complete or fail, left
 * to chance), a canceller at any moment, and a stray finish (a subclass completing or failing
 * from a callback, whatever the state). Ghost counters: the begins won, the finishes won, the
 * future's resolutions and the state each resolved to.
 *
 * Checked: the state never moves back (pending, enqueued, executing, finished, in that order)
 * and never leaves a finished state; at most one begin wins; exactly one finish wins, and the
 * future is resolved once, by it, as the final state says; every thread ends.
 *
 * Seeded bugs (must fail): BLIND_FINISH (a finish that does not look for a finished state),
 * BEGIN_AGAIN (begin also from EXECUTING), STORE_STATE (a move stores without comparing),
 * ENQUEUE_ANY (enqueue from any state not finished).
 */
/* The function of Job that moves its word (Scripts/check-model-conformance):
   @driver transition
     Swift Job.transition(from:to:)
   Every move above is a call of it.
*/
#define PENDING 0
#define ENQUEUED 1
#define EXECUTING 2
#define COMPLETED 3
#define FAILED 4
#define CANCELLED 5
/* The moves' source sets. */
#define FROM_PENDING 0
#define FROM_NOT_STARTED 1
#define FROM_NOT_FINISHED 2

byte state = PENDING;
byte begun = 0;
byte finishes = 0;
byte resolutions = 0;
byte resolvedAs = 255;
byte done = 0;

/* The order the state moves in: the finished states share a rank. */
#define rank(s) (s >= COMPLETED -> 3 : s)

/* Whether state `s` is one of the move's sources. */
inline allowed(sources, s, ok) {
    ok = ((sources == FROM_PENDING && s == PENDING)
          || (sources == FROM_NOT_STARTED && (s == PENDING || s == ENQUEUED))
          || (sources == FROM_NOT_FINISHED && s < COMPLETED));
#ifdef BEGIN_AGAIN
    ok = (ok || (sources == FROM_NOT_STARTED && s == EXECUTING));
#endif
#ifdef BLIND_FINISH
    ok = (ok || sources == FROM_NOT_FINISHED);
#endif
#ifdef ENQUEUE_ANY
    ok = (ok || (sources == FROM_PENDING && s < COMPLETED));
#endif
    skip
}

/* Job.transition(from:to:): won is whether this thread's compare-and-swap moved the word. */
inline transition(sources, target, won) {
    seen = state;  /* the load (ACQUIRE) */
    won = false;
    allowed(sources, seen, ok);
    do
    :: ok ->
        atomic {  /* @step transition: stateWord */
            if
#ifdef STORE_STATE
            :: true ->
#else
            :: state == seen ->
#endif
                assert(state < COMPLETED);  /* never out of a finished state */
                assert(rank(target) > rank(state) || (target >= COMPLETED && state < COMPLETED));
                state = target; won = true; break
            :: else -> seen = state; allowed(sources, seen, ok)
            fi
        }
    :: else -> break
    od
}

/* A finish that won resolves the future, as its state says. */
inline finish(target) {
    transition(FROM_NOT_FINISHED, target, won);
    if
    :: won -> atomic { finishes++; resolutions++; resolvedAs = target }
    :: else -> skip
    fi
}

proctype starter(bool enqueues) {
    byte seen; bool won, ok;
    if
    :: enqueues -> transition(FROM_PENDING, ENQUEUED, won)
    :: else -> skip
    fi;
    transition(FROM_NOT_STARTED, EXECUTING, won);
    if
    :: won ->
        begun++;
        assert(begun == 1);
        if :: finish(COMPLETED) :: finish(FAILED) fi
    :: else -> skip
    fi;
    done++
}

proctype canceller() {
    byte seen; bool won, ok;
    finish(CANCELLED);
    done++
}

proctype stray() {
    byte seen; bool won, ok;
    if :: finish(COMPLETED) :: finish(FAILED) fi;
    done++
}

init {
    atomic {
        run starter(true);
        run starter(false);
        run canceller();
        run stray()
    }
    done == 4;
    assert(state >= COMPLETED);  /* the canceller alone would have finished it */
    assert(finishes == 1 && resolutions == 1 && resolvedAs == state)
}
