/*
 * petal_batch.pml - a batch of promises (PromiseBatch, Sources/Petal/Combining/PromiseBatchStorage.swift):
 * the slots' claim words and the count of slots still to fulfil, racing each other, a request
 * for the cancellation of `all`, and the registration of the slots' stops.
 *
 * Slot: PENDING -> FULFILLED (a fulfil's compare-and-swap) | FAILED (a rejection's or a
 * cancellation's) | STOPPED (a stop's), through one claim. A fulfil that wins writes the value,
 * then counts down (FULL); the one whose count reaches zero reads every value and fulfils `all`
 * (one claim: it may lose to a failure or the request). A failure that wins cancels `all` (the
 * same claim); if that decided it, it gives up on the rest as the request does. The request
 * claims `all` (the promise's cancelWhenRequested cancels it first, and runs the stop only if
 * that cancellation won); giving up is, under the lock, marking the batch requested and taking
 * the stops registered so far, then stopping each of their slots that is still pending (its
 * claim). A registration, under the same lock, records its stop, or finds the batch requested
 * and stops its slot itself.
 *
 * Processes: two resolvers race for slot 0, each fulfilling or failing it; slot 1's resolver may
 * never come (the late call), or fulfils or fails it; a stop is registered for each slot (slot
 * 0's before the processes start, slot 1's racing); the request may come or not.
 *
 * Checked: each slot is claimed once: fulfilled, failed or stopped, at most one of them, once;
 * `all` is fulfilled only with every value written and no slot failed or stopped; once `all` is
 * cancelled, no slot with a stop is left pending (no stop is lost, whichever of the request, the
 * failure and the registration comes first); `all` is decided once a slot failed or every slot
 * was fulfilled; the count never goes below zero. Seeded bugs (must fail): NO_CLAIM (a fulfil
 * that writes without the compare-and-swap), COUNT_BEFORE_VALUE (the count down before the value
 * is written), STOP_WITHOUT_CLAIM (a stop run without winning its slot), REGISTER_IGNORES_REQUEST
 * (a registration that does not look at the requested flag under the lock), FAIL_WITHOUT_STOPS
 * (a failure that decides `all` and does not give up on the rest).
 */
/* The functions of PromiseBatchStorage that move its words (Scripts/check-model-conformance):
   @driver claim
     Swift PromiseBatchStorage.claim(_:as:)
   @driver fulfil
     Swift PromiseBatchStorage.fulfil(_:with:resolving:)
   @driver fail
     Swift PromiseBatchStorage.fail(_:error:resolving:failureSite:)
   @driver stop_if_pending
     Swift PromiseBatchStorage.stopIfPending(_:_:)
   Every compare-and-swap of a slot's word goes through claim; the count's is fulfil's own.
*/
#define PENDING 0
#define FULFILLED 1
#define FAILED 2
#define STOPPED 3

#define ALL_PENDING 0
#define ALL_FULFILLED 1
#define ALL_CANCELLED 2

byte state[2];          /* the slots' claim words */
bit value[2];           /* written by a slot's fulfil, after its claim */
byte remaining = 2;     /* slots still to fulfil */
byte all = ALL_PENDING; /* the combined future: one claim */
bit lock = 0;           /* the stops' lock */
bit requested = 0;      /* under the lock: `all` was given up on */
bit registered[2];      /* under the lock: a stop waits for slot i */
byte fulfils[2];        /* slot i fulfilled (by its claimer) */
byte failures[2];       /* slot i failed (by its claimer) */
byte stops[2];          /* slot i's stop run */
byte done = 0;          /* processes finished */

inline acquire() { atomic { lock == 0 -> lock = 1 } }
inline release() { lock = 0 }

/* The one compare-and-swap of a slot's word: seen is what it held (PENDING: this call won). */
inline claim(i, desired, seen) {
    atomic {  /* @step claim: slotWords */
        seen = state[i];
        if :: state[i] == PENDING -> state[i] = desired :: else -> skip fi
    }
}

/* A slot's stop: runs only for the thread whose claim stopped the slot. */
inline stop_if_pending(i, seen) {
#ifdef STOP_WITHOUT_CLAIM
    stops[i]++;
    atomic { if :: state[i] == PENDING -> state[i] = STOPPED :: else -> skip fi }
#else
    claim(i, STOPPED, seen);  /* @step stop_if_pending: slotWords */
    if :: seen == PENDING -> stops[i]++ :: else -> skip fi
#endif
}

/* Giving up on `all`: the request's answer, and a deciding failure's. */
inline stop_pending(take0, take1, seen) {
    acquire();
    requested = 1;
    take0 = registered[0]; take1 = registered[1];
    registered[0] = 0; registered[1] = 0;
    release();
    if :: take0 -> stop_if_pending(0, seen) :: else -> skip fi;
    if :: take1 -> stop_if_pending(1, seen) :: else -> skip fi
}

proctype Resolver(byte i) {
    byte seen = PENDING;
    bool last = false, decided = false, take0 = false, take1 = false;
    if
    :: /* fulfil */
#ifdef NO_CLAIM
        atomic { state[i] = FULFILLED; seen = PENDING };
#else
        claim(i, FULFILLED, seen);  /* @step fulfil: slotWords */
#endif
        if
        :: seen == PENDING ->
            fulfils[i]++;
#ifdef COUNT_BEFORE_VALUE
            atomic { assert(remaining > 0); remaining--; last = (remaining == 0) };
            value[i] = 1;
#else
            value[i] = 1;
            atomic { assert(remaining > 0); remaining--; last = (remaining == 0) };  /* @step fulfil: remaining */
#endif
            if
            :: last ->
                assert(value[0] == 1 && value[1] == 1);   /* the last count sees every value */
                atomic { if :: all == ALL_PENDING -> all = ALL_FULFILLED :: else -> skip fi }
            :: else -> skip
            fi
        :: else -> skip
        fi
    :: /* reject or cancel */
        claim(i, FAILED, seen);  /* @step fail: slotWords */
        if
        :: seen == PENDING ->
            failures[i]++;
            atomic { if :: all == ALL_PENDING -> all = ALL_CANCELLED; decided = true :: else -> skip fi };
#ifndef FAIL_WITHOUT_STOPS
            if :: decided -> stop_pending(take0, take1, seen) :: else -> skip fi
#endif
        :: else -> skip
        fi
    fi;
    done++
}

proctype Request() {
    byte seen = PENDING;
    bool won = false, take0 = false, take1 = false;
    atomic { if :: all == ALL_PENDING -> all = ALL_CANCELLED; won = true :: else -> skip fi };
    if :: won -> stop_pending(take0, take1, seen) :: else -> skip fi;
    done++
}

proctype Register(byte i) {
    byte seen = PENDING;
    bool now = false;
    acquire();
#ifdef REGISTER_IGNORES_REQUEST
    registered[i] = 1;
#else
    if :: requested -> now = true :: else -> registered[i] = 1 fi;
#endif
    release();
    if :: now -> stop_if_pending(i, seen) :: else -> skip fi;
    done++
}

init {
    byte expected = 3;
    byte i = 0;
    registered[0] = 1;   /* slot 0's stop, registered before the batch is shared */
    atomic {
        run Resolver(0); run Resolver(0); run Register(1);
        if :: run Resolver(1); expected++ :: skip fi;
        if :: run Request(); expected++ :: skip fi
    }
    done == expected;
    do
    :: i < 2 ->
        assert(fulfils[i] + failures[i] + stops[i] <= 1);
        /* No stop lost: once `all` is cancelled, no slot (each has a stop) is left pending. */
        assert(!(all == ALL_CANCELLED && state[i] == PENDING));
        /* A failure decides `all`. */
        assert(failures[i] == 0 || all == ALL_CANCELLED);
        i++
    :: else -> break
    od;
    assert(all != ALL_FULFILLED || (fulfils[0] == 1 && fulfils[1] == 1 && value[0] == 1 && value[1] == 1));
    /* Every slot fulfilled decides `all`. */
    assert(!(fulfils[0] == 1 && fulfils[1] == 1) || all != ALL_PENDING)
}
