/*
 * petal_site_tally.pml - the diagnostics' table of sites (Sources/Petal/Diagnostics/
 * SiteTally.swift): open addressing over slots whose key fields are claimed one by one, each by
 * a compare-and-swap from 0, from any number of threads, never under a lock.
 *
 * A site's key is two words (detail, identity), too wide for one compare-and-swap, so a thread
 * finds its slot field by field: from the slot its key hashes to, for at most PROBES slots,
 * `claim` the detail field, then the identity field. `claim` (SiteTally.claim) loads the field;
 * if it is 0, compares-and-swaps it from 0 to the thread's value (FULL, sequentially consistent
 * here); it answers whether the field now holds the thread's value, written by this thread or
 * by any other. A field holding another value sends the thread to the next slot. Fields are
 * never written again once set. A key that finds no slot is counted in its kind's overflow slot.
 *
 * The threads: two with one key, one with a key of the same detail and another identity, and one
 * with another detail; all hash to slot 0, over SLOTS = 2 slots with PROBES = 2, so that the
 * keys collide and one overflows.
 *
 * Checked: a slot a thread is given holds its key, both fields; two threads with one key are
 * given the same slot (a site is counted in one place), and two keys never share a slot; every
 * thread ends.
 *
 * Seeded bugs (must fail): STORE_FIELD (a claim stores without comparing), ANY_VALUE (a claim
 * answers yes for a field another thread set, whatever it holds), SKIP_IDENTITY (a slot is taken
 * once its detail matches).
 */
/* The function of SiteTally that moves its fields (Scripts/check-model-conformance):
   @driver claim
     Swift SiteTally.claim(_:_:isText:)
*/
#define SLOTS 2
#define PROBES 2
#define THREADS 4
#define NONE 255

byte field[SLOTS * 2];  /* slot s: detail at 2s, identity at 2s + 1 */
byte given[THREADS];
byte keyDetail[THREADS];
byte keyIdentity[THREADS];
byte done = 0;

/* SiteTally.claim: whether field f now holds v. */
inline claim(f, v, ok) {
    seen = field[f];  /* the load (ACQUIRE) */
    if
    :: seen == 0 ->
        atomic {  /* @step claim: word */
            if
#ifdef STORE_FIELD
            :: true -> field[f] = v; seen = v
#else
            :: field[f] == 0 -> field[f] = v; seen = v
            :: else -> seen = field[f]
#endif
            fi
        }
    :: else -> skip
    fi;
#ifdef ANY_VALUE
    ok = (seen != 0)
#else
    ok = (seen == v)
#endif
}

proctype finder(byte me) {
    byte step = 0, slot, seen;
    bool ok;
    given[me] = NONE;
    do
    :: step < PROBES ->
        slot = step % SLOTS;
        claim(slot * 2, keyDetail[me], ok);
        if
        :: ok ->
#ifndef SKIP_IDENTITY
            claim(slot * 2 + 1, keyIdentity[me], ok);
#endif
            if :: ok -> given[me] = slot; break :: else -> skip fi
        :: else -> skip
        fi;
        step++
    :: else -> break
    od;
    if
    :: given[me] != NONE ->
        /* The slot holds this thread's key, both fields (final once written). */
        assert(field[given[me] * 2] == keyDetail[me]);
#ifndef SKIP_IDENTITY
        assert(field[given[me] * 2 + 1] == keyIdentity[me])
#endif
    :: else -> skip
    fi;
    done++
}

init {
    byte a, b;
    atomic {
        keyDetail[0] = 1; keyIdentity[0] = 1;
        keyDetail[1] = 1; keyIdentity[1] = 1;  /* the same key as thread 0 */
        keyDetail[2] = 1; keyIdentity[2] = 2;  /* the same detail, another identity */
        keyDetail[3] = 2; keyIdentity[3] = 1;  /* another detail */
        run finder(0); run finder(1); run finder(2); run finder(3)
    }
    done == THREADS;
    /* One key, one place; two keys, never one slot. */
    a = 0;
    do
    :: a < THREADS ->
        b = a + 1;
        do
        :: b < THREADS ->
            if
            :: keyDetail[a] == keyDetail[b] && keyIdentity[a] == keyIdentity[b] -> assert(given[a] == given[b])
            :: else -> assert(given[a] == NONE || given[a] != given[b])
            fi;
            b++
        :: else -> break
        od;
        a++
    :: else -> break
    od
}
