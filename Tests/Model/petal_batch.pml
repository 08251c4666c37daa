/*
 * petal_batch.pml - a batch of promises (PromiseBatch, Sources/Petal/Combining/PromiseBatchStorage.swift):
 * the slots' claim words, the count of slots still to fulfil and the flag that `all` was given
 * up on, racing each other, a request for the cancellation of `all`, and the registration of
 * the slots' stops, with no lock.
 *
 * Slot: PENDING -> ARMING (a registration: the slot's stop cell is its to write) -> ARMED (the
 * cell published); from PENDING, ARMING or ARMED (the open states) -> FULFILLED (a fulfil's
 * compare-and-swap) | FAILED (a rejection's or a cancellation's); ARMED -> STOPPED (a stop's).
 * A claim loads the word and moves it from what it saw while that is open. Whoever moves a slot
 * out of ARMED owns its cell: a stop runs it, a fulfil or a failure drops it; a fulfil or a
 * failure that claims an ARMING slot leaves the cell to the registration, whose move to ARMED
 * then fails, and which drops the cell itself. A registration that finds the slot ARMING or
 * ARMED is a second stop: refused, nothing written.
 *
 * A fulfil that wins writes the value, then counts down (FULL); the one whose count reaches zero
 * reads every value and fulfils `all` (one claim: it may lose to a failure or the request). A
 * failure that wins cancels `all` (the same claim); if that decided it, it gives up on the rest
 * as the request does. The request claims `all` (the promise's cancelWhenRequested cancels it
 * first, and runs the stop only if that cancellation won); giving up is raising the flag (once),
 * then stopping each slot seen ARMED. A registration that armed its slot then looks at the flag,
 * and stops its slot itself if it is raised: the flag's raising and the move to ARMED are both
 * FULL, so the sweep sees the slot armed or the registration sees the flag.
 *
 * Processes: two resolvers race for slot 0, each fulfilling or failing it; slot 1's resolver may
 * never come (the late call), or fulfils or fails it; slot 0's stop is registered before the
 * processes start, slot 1's races them, and a second registration for slot 1 may race it; the
 * request may come or not.
 *
 * The batch's own stop (PromiseBatch.cancelWhenRequested(stopping:)) is the stop of a slot past
 * the last, `count`, which has no value, is not counted, and which no fulfil or failure claims:
 * slot 1 without its resolver, its registration racing a second one and the request. Its word
 * moves by the same functions; the one interleaving slot 1 cannot show, `all` fulfilled while
 * it is pending, ends as a request that loses does: no sweep, the stop held by the ARMED slot
 * until the batch is freed, as the last assertion of the loop below allows.
 *
 * Arrivals (PromiseBatch.fulfilNext(with:) and its kin) are resolvers whose slot index comes from
 * a cursor moved by a locked add alone (nextArrival), which gives each arrival an index no other
 * arrival gets: each then claims its slot as slot 0's resolvers do, and one that loses to an
 * indexed resolver takes the next index. No word of theirs is moved by compare-and-swap.
 *
 * Checked: each slot is claimed once: fulfilled, failed or stopped, at most one of them, once;
 * `all` is fulfilled only with every value written and no slot failed or stopped; once `all` is
 * cancelled, no slot holds a stop (none is lost, whichever of the request, the failure and the
 * registration comes first); `all` is decided once a slot failed or every slot was fulfilled; the
 * count never goes below zero; a cell is written only empty and taken only full, by one owner
 * at a time; every stop registered is run, dropped or still held by an ARMED slot, exactly one
 * of them. Seeded bugs (must fail): NO_CLAIM (a fulfil that writes without the compare-and-swap),
 * COUNT_BEFORE_VALUE (the count down before the value is written), STOP_WITHOUT_CLAIM (a stop run
 * without winning its slot), REGISTER_IGNORES_REQUEST (a registration that does not look at the
 * flag after arming), FAIL_WITHOUT_STOPS (a failure that decides `all` and does not give up on
 * the rest), CELL_BEFORE_ARMING (a registration that writes the cell before it claims the slot),
 * CLAIM_KEEPS_STOP (a fulfil or failure that claims an ARMED slot and does not drop its stop).
 */
/* The functions of PromiseBatchStorage that move its words (Scripts/check-model-conformance):
   @driver claim
     Swift PromiseBatchStorage.claim(_:as:)
   @driver fulfil
     Swift PromiseBatchStorage.fulfil(_:with:resolving:)
   @driver fail
     Swift PromiseBatchStorage.fail(_:error:resolving:failureSite:)
   @driver add_stop
     Swift PromiseBatchStorage.addStop(_:_:)
   @driver stop_pending
     Swift PromiseBatchStorage.stopPending()
   @driver stop_if_armed
     Swift PromiseBatchStorage.stopIfArmed(_:)
   @driver move_slot
     Swift PromiseBatchStorage.moveSlot(_:from:to:)
   Every compare-and-swap of a slot's word goes through moveSlot (claim's loop, the
   registration's two moves, a stop's), and a call of claim or stopIfArmed stands for one; the
   count's is fulfil's own, the flag's stopPending's.
*/
#define PENDING 0
#define FULFILLED 1
#define FAILED 2
#define STOPPED 3
#define ARMING 4
#define ARMED 5

#define OPEN(s) ((s) == PENDING || (s) > STOPPED)

#define ALL_PENDING 0
#define ALL_FULFILLED 1
#define ALL_CANCELLED 2

byte state[2];          /* the slots' claim words */
bit value[2];           /* written by a slot's fulfil, after its claim */
byte remaining = 2;     /* slots still to fulfil */
byte all = ALL_PENDING; /* the combined future: one claim */
bit requested = 0;      /* the flag: `all` was given up on */
bit cell[2];            /* slot i's stop cell holds a stop */
byte registered[2];     /* stops written into slot i's cell */
byte refused[2];        /* second stops refused for slot i */
byte fulfils[2];        /* slot i fulfilled (by its claimer) */
byte failures[2];       /* slot i failed (by its claimer) */
byte stops[2];          /* slot i's stop run */
byte drops[2];          /* slot i's stop dropped unrun */
byte done = 0;          /* processes finished */

/* A claim for a fulfil or a failure: the load, then compare-and-swaps from what was seen while
   it is open; won says whether this call claimed it, seen what it held then. */
inline claim(i, desired, seen, won) {
    seen = state[i];
    won = false;
    do
    :: OPEN(seen) ->
        atomic {  /* @step claim: slotWords   @step move_slot: slotWords (each compare-and-swap of a slot) */
            if :: state[i] == seen -> state[i] = desired; won = true :: else -> seen = state[i] fi
        }
        if :: won -> break :: else -> skip fi
    :: else -> break
    od;
#ifndef CLAIM_KEEPS_STOP
    if
    :: won && seen == ARMED -> atomic { assert(cell[i] == 1); cell[i] = 0; drops[i]++ }
    :: else -> skip
    fi
#endif
}

/* A slot's stop: runs only for the thread whose compare-and-swap moved the slot out of ARMED. */
inline stop_if_armed(i, moved) {
#ifdef STOP_WITHOUT_CLAIM
    if :: cell[i] == 1 -> stops[i]++ :: else -> skip fi;
    atomic { if :: state[i] == ARMED -> state[i] = STOPPED :: else -> skip fi }
#else
    atomic {  /* @step stop_if_armed: slotWords */
        moved = (state[i] == ARMED);
        if :: moved -> state[i] = STOPPED :: else -> skip fi
    }
    if :: moved -> atomic { assert(cell[i] == 1); cell[i] = 0; stops[i]++ } :: else -> skip fi
#endif
}

/* Giving up on `all`: the request's answer, and a deciding failure's. */
inline stop_pending(raised, moved) {
    atomic {  /* @step stop_pending: requested */
        raised = (requested == 0);
        requested = 1
    }
    if
    :: raised ->
        /* @step stop_pending: slotWords (the sweep: one call in the code's loop) */
        if :: state[0] == ARMED -> stop_if_armed(0, moved) :: else -> skip fi;
        if :: state[1] == ARMED -> stop_if_armed(1, moved) :: else -> skip fi
    :: else -> skip
    fi
}

proctype Resolver(byte i) {
    byte seen = PENDING;
    bool won = false, last = false, decided = false, raised = false, moved = false;
    if
    :: /* fulfil */
#ifdef NO_CLAIM
        atomic { seen = state[i]; state[i] = FULFILLED; won = true };
        if :: seen == ARMED -> atomic { cell[i] = 0; drops[i]++ } :: else -> skip fi;
#else
        claim(i, FULFILLED, seen, won);  /* @step fulfil: slotWords */
#endif
        if
        :: won ->
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
        claim(i, FAILED, seen, won);  /* @step fail: slotWords */
        if
        :: won ->
            failures[i]++;
            atomic { if :: all == ALL_PENDING -> all = ALL_CANCELLED; decided = true :: else -> skip fi };
#ifndef FAIL_WITHOUT_STOPS
            if :: decided -> stop_pending(raised, moved) :: else -> skip fi
#endif
        :: else -> skip
        fi
    fi;
    done++
}

proctype Request() {
    bool won = false, raised = false, moved = false;
    atomic { if :: all == ALL_PENDING -> all = ALL_CANCELLED; won = true :: else -> skip fi };
    if :: won -> stop_pending(raised, moved) :: else -> skip fi;
    done++
}

proctype Register(byte i) {
    byte seen = PENDING;
    bool armed = false, moved = false;
#ifdef CELL_BEFORE_ARMING
    atomic { assert(cell[i] == 0); cell[i] = 1; registered[i]++ };
#endif
    atomic {  /* @step add_stop: slotWords */
        seen = state[i];
        if :: state[i] == PENDING -> state[i] = ARMING; armed = true :: else -> skip fi
    }
    if
    :: !armed ->
        if :: OPEN(seen) -> refused[i]++ :: else -> skip fi
#ifdef CELL_BEFORE_ARMING
        ; atomic { cell[i] = 0; drops[i]++ }
#endif
    :: else ->
#ifndef CELL_BEFORE_ARMING
        atomic { assert(cell[i] == 0); cell[i] = 1; registered[i]++ };
#endif
        atomic {  /* @step add_stop: slotWords */
            armed = (state[i] == ARMING);
            if :: armed -> state[i] = ARMED :: else -> skip fi
        }
        if
        :: !armed -> atomic { assert(cell[i] == 1); cell[i] = 0; drops[i]++ }  /* claimed meanwhile */
        :: else ->
#ifndef REGISTER_IGNORES_REQUEST
            if :: requested -> stop_if_armed(i, moved) :: else -> skip fi  /* @step add_stop: slotWords */
#else
            skip
#endif
        fi
    fi;
    done++
}

init {
    byte expected = 3;
    byte i = 0;
    /* slot 0's stop, registered before the batch is shared */
    state[0] = ARMED; cell[0] = 1; registered[0] = 1;
    atomic {
        run Resolver(0); run Resolver(0); run Register(1);
        if :: run Register(1); expected++ :: skip fi;
        if :: run Resolver(1); expected++ :: skip fi;
        if :: run Request(); expected++ :: skip fi
    }
    done == expected;
    do
    :: i < 2 ->
        assert(fulfils[i] + failures[i] + stops[i] <= 1);
        /* No stop lost: once `all` is cancelled, no slot holds its stop. */
        assert(!(all == ALL_CANCELLED && (state[i] == ARMED || state[i] == ARMING)));
        /* Every stop registered is run, dropped or held, exactly one of them. */
        assert(registered[i] == stops[i] + drops[i] + cell[i]);
        assert(cell[i] == (state[i] == ARMED));
        assert(stops[i] == 0 || state[i] == STOPPED);
        /* A failure decides `all`. */
        assert(failures[i] == 0 || all == ALL_CANCELLED);
        i++
    :: else -> break
    od;
    assert(all != ALL_FULFILLED || (fulfils[0] == 1 && fulfils[1] == 1 && value[0] == 1 && value[1] == 1));
    /* Every slot fulfilled decides `all`. */
    assert(!(fulfils[0] == 1 && fulfils[1] == 1) || all != ALL_PENDING)
}
