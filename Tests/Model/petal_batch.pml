/*
 * petal_batch.pml - a batch of promises (PromiseBatch, Sources/PetalPrototypes/PromiseBatch.swift):
 * the slots' claim words and the count of slots still to fulfil, racing a request for the
 * cancellation of `all` and the registration of the slots' stops.
 *
 * A prototype's protocol, checked before it ships: Scripts/check-model-conformance ties models to
 * Sources/Petal and Sources/CPetal only, so this model names no drivers yet; it gets them, and
 * the words' moves through petal_atomic_word_exchange, when the batch moves into Petal.
 *
 * Slot: PENDING -> FULFILLED (a fulfiller's compare-and-swap) | STOPPED (the stopper's). A
 * fulfiller that wins writes the value, then counts down (acquire-release; sequentially
 * consistent here); the one whose count reaches zero reads every value and fulfils `all`
 * (one claim: it may lose to the request). The request claims `all` (the promise's
 * cancelWhenRequested cancels it first, and runs the stop only if that cancellation won), then,
 * under the lock, marks the batch requested and takes the stops registered so far; it stops each
 * of their slots that is still pending (its compare-and-swap). A registration, under the same
 * lock, records its stop, or finds the batch requested and stops its slot itself.
 *
 * Processes: two fulfillers race for slot 0; slot 1's fulfiller may never come (the late call);
 * a stop is registered for each slot (slot 0's before the processes start, slot 1's racing);
 * the request may come or not.
 *
 * Checked: each slot is fulfilled at most once and stopped at most once, never both; `all` is
 * fulfilled only with every value written and no slot stopped; once the request has cancelled
 * `all`, no slot with a stop is left pending (no stop is lost, whichever of the request and the
 * registration comes first); the count never goes below zero. Seeded bugs (must fail): NO_CLAIM (a fulfiller that writes without the compare-and-swap),
 * COUNT_BEFORE_VALUE (the count down before the value is written), STOP_WITHOUT_CLAIM (a stop run
 * without winning its slot), REGISTER_IGNORES_REQUEST (a registration that does not look at the
 * requested flag under the lock).
 */
#define PENDING 0
#define FULFILLED 1
#define STOPPED 2

#define ALL_PENDING 0
#define ALL_FULFILLED 1
#define ALL_CANCELLED 2

byte state[2];          /* the slots' claim words */
bit value[2];           /* written by a slot's winner, after its claim */
byte remaining = 2;     /* slots still to fulfil */
byte all = ALL_PENDING; /* the combined future: one claim */
bit lock = 0;           /* the stops' lock */
bit requested = 0;      /* under the lock */
bit registered[2];      /* under the lock: a stop waits for slot i */
byte fulfils[2];        /* slot i fulfilled (by a winner) */
byte stops[2];          /* slot i's stop run */
byte done = 0;          /* processes finished */

inline acquire() { atomic { lock == 0 -> lock = 1 } }
inline release() { lock = 0 }

/* A slot's stop: runs only for the thread whose compare-and-swap stopped the slot. */
inline stop_if_pending(i) {
#ifdef STOP_WITHOUT_CLAIM
    stops[i]++;
    atomic { if :: state[i] == PENDING -> state[i] = STOPPED :: else -> skip fi }
#else
    atomic {
        if
        :: state[i] == PENDING -> state[i] = STOPPED; stops[i]++
        :: else -> skip
        fi
    }
#endif
}

proctype Fulfiller(byte i) {
    bool won = false, last = false;
#ifdef NO_CLAIM
    atomic { state[i] = FULFILLED; won = true }
#else
    atomic { if :: state[i] == PENDING -> state[i] = FULFILLED; won = true :: else -> skip fi }
#endif
    if
    :: won ->
        fulfils[i]++;
#ifdef COUNT_BEFORE_VALUE
        atomic { assert(remaining > 0); remaining--; last = (remaining == 0) };
        value[i] = 1;
#else
        value[i] = 1;
        atomic { assert(remaining > 0); remaining--; last = (remaining == 0) };
#endif
        if
        :: last ->
            assert(value[0] == 1 && value[1] == 1);   /* the last count sees every value */
            atomic { if :: all == ALL_PENDING -> all = ALL_FULFILLED :: else -> skip fi }
        :: else -> skip
        fi
    :: else -> skip
    fi;
    done++
}

proctype Request() {
    bool won = false, take0 = false, take1 = false;
    atomic { if :: all == ALL_PENDING -> all = ALL_CANCELLED; won = true :: else -> skip fi };
    if
    :: won ->
        acquire();
        requested = 1;
        take0 = registered[0]; take1 = registered[1];
        registered[0] = 0; registered[1] = 0;
        release();
        if :: take0 -> stop_if_pending(0) :: else -> skip fi;
        if :: take1 -> stop_if_pending(1) :: else -> skip fi
    :: else -> skip
    fi;
    done++
}

proctype Register(byte i) {
    bool now = false;
    acquire();
#ifdef REGISTER_IGNORES_REQUEST
    registered[i] = 1;
#else
    if :: requested -> now = true :: else -> registered[i] = 1 fi;
#endif
    release();
    if :: now -> stop_if_pending(i) :: else -> skip fi;
    done++
}

init {
    byte expected = 3;
    byte i = 0;
    registered[0] = 1;   /* slot 0's stop, registered before the batch is shared */
    atomic {
        run Fulfiller(0); run Fulfiller(0); run Register(1);
        if :: run Fulfiller(1); expected++ :: skip fi;
        if :: run Request(); expected++ :: skip fi
    }
    done == expected;
    do
    :: i < 2 ->
        assert(fulfils[i] <= 1 && stops[i] <= 1 && fulfils[i] + stops[i] <= 1);
        /* No stop lost: once the request cancelled `all`, no slot is left pending. */
        assert(!(all == ALL_CANCELLED && state[i] == PENDING));
        i++
    :: else -> break
    od;
    assert(all != ALL_FULFILLED || (stops[0] == 0 && stops[1] == 0 && fulfils[0] == 1 && fulfils[1] == 1))
}
