/*
 * petal_cell.pml - a Promela model of the cell protocol in Sources/CPetal/include/petal.h
 * (petal_cell_*), driven the way Sources/CPetal/petal_future.c drives it.
 *
 * The word is modelled bit for bit: word = (newest node << 4) | tags, with the header's tag
 * values, so every predicate below is the header's own expression. Nodes are small integers
 * (node c belongs to callback c; 0 is NULL) with a next[] array. Every CAS is one atomic
 * compare-and-set block; memory is sequentially consistent (the model checks the protocol's
 * logic, not its acquire/release annotations). The loops (load, test, CAS, retry) are those of
 * the header, step by step: subscribe/reserve/commit reload the word after a failed CAS,
 * claim/publish/take_more retry with the value the failed fetch-CAS returned.
 *
 * Processes: two racing resolvers (petal_future_resolve + petal_deliver) and three subscribers
 * (petal_future_subscribe: reserve the inline slot, fill it, commit, and on a failed reserve or
 * commit fall back to a node, or run the callback itself when the word seen is RESOLVED).
 * Subscriber S1 subscribes two callbacks in sequence (1 then 2), S2 one (3), S3 one (4).
 *
 * Checked (spin -a; pan, full search with assertions and invalid end states):
 *   (1) exactly one resolver wins the claim                      [win, final check]
 *   (2) every callback runs exactly once                         [run: never twice; final: once]
 *   (3) no callback runs before the outcome is published         [run: HAS_OUTCOME, payload]
 *   (4) per-subscriber FIFO (callback 2 never before 1), and more generally real-time order:
 *       a callback whose subscription returned before another's began runs first  [run]
 *   (5) strict order: when the word turns RESOLVED, and when a subscriber that saw RESOLVED
 *       runs its own callback, every callback registered in the word has already run.
 *   final state: the word is RESOLVED with the winner's kind and an empty list.
 *
 * Variants (spin -D...):
 *   BUGGY_PUBLISH  publish takes the list with one CAS, then stores the outcome separately:
 *                  a waiter pushed in between is lost (must report an error).
 *   BUGGY_COMMIT   commit_slot does not refuse a word with an outcome: the slot is committed
 *                  after the publisher skipped it (must report an error).
 *   MIXED_NODE     S3 uses petal_future_subscribe_node (node only, never the slot), as
 *                  petal_future_wait does. Shows a slot committed after a node still runs first.
 *   SWIFT_DELIVER  the deliverer loop of Sources/Petal/FutureStorage.swift runWaiters: take_more
 *                  is only called after a non-empty batch.
 */

/* ---- the word's tags: petal.h's values --------------------------------------------------- */
#define PHASE_MASK   3
#define PENDING      0
#define CLAIMED      1
#define RESOLVED     2
#define DELIVERING   3
#define HAS_OUTCOME  2
#define SLOT_TAKEN   4
#define SLOT_READY   8
#define KIND_SHIFT   2
#define KIND_MASK    3
#define TAG_MASK     15
#define PTR_SHIFT    4        /* a node pointer sits above the four tag bits */
#define NIL          0

#define SUBSCRIBED        1
#define ALREADY_RESOLVED  0

/* ---- the header's predicates, same expressions ------------------------------------------- */
#define has_outcome(w)  (((w) & HAS_OUTCOME) != 0)
#define is_resolved(w)  (((w) & PHASE_MASK) == RESOLVED)
#define slot_free(w)    (!has_outcome(w) && (((w) & (SLOT_TAKEN | SLOT_READY)) == 0))
#define slot_ready(w)   (!has_outcome(w) && (((w) & SLOT_READY) != 0))
#define word_list(w)    ((w) >> PTR_SHIFT)
#define has_waiters(w)  (slot_ready(w) || (word_list(w) != NIL))
#define word_kind(w)    (((w) >> KIND_SHIFT) & KIND_MASK)

#ifdef BUGGY_COMMIT
#define commit_refuses(w) false
#else
#define commit_refuses(w) has_outcome(w)
#endif

/* ---- shared state ------------------------------------------------------------------------ */
#define NCB 4                 /* callbacks 1..4; callback c uses node c when it needs a node */
#define cbit(c) (1 << (c))

byte word = 0;                /* petal_cell.word: PENDING, no waiters */
byte next[NCB + 1];           /* petal_node.next of nodes 1..NCB */
byte slot_cb = 0;             /* petal_future.slot_callback (0: never filled) */
byte payload = 0;             /* petal_future.payload: written by the claimer before publish */

/* ---- ghost state for the properties ------------------------------------------------------- */
byte winners = 0;             /* resolvers whose claim returned 1 */
byte winner_kind = 0;         /* the kind the winner publishes */
byte ran[NCB + 1];            /* how many times each callback ran */
byte ran_mask = 0;            /* callbacks that ran */
byte registered = 0;          /* callbacks whose push or slot commit succeeded */
byte done_mask = 0;           /* callbacks whose subscribe call has returned */
byte before[NCB + 1];         /* done_mask when callback c's subscribe call began */

/* A callback body: it reads the outcome, so it must see it published (3); it runs at most
   once (2); every callback subscribed (call returned) before its subscription began has run
   (4). A subscriber running its own callback after seeing RESOLVED also checks (5). */
inline run_callback(c, own) {
    atomic {
        assert(has_outcome(word));                       /* (3) */
        assert(payload != 0 && payload == winner_kind);  /* (3) the outcome it reads */
        assert(ran[c] == 0);                             /* (2) never twice */
        assert((ran_mask & before[c]) == before[c]);     /* (4) real-time / FIFO order */
        assert(!own || ((registered & ~ran_mask) == 0)); /* (5) */
        ran[c]++;
        ran_mask = ran_mask | cbit(c)
    }
}

/* Entering RESOLVED: every waiter that was ever registered has run (5). */
#define resolved_check(nw) \
    if :: is_resolved(nw) -> assert((registered & ~ran_mask) == 0) :: else -> skip fi

/* ---- petal_cell_subscribe ----------------------------------------------------------------- */
inline cell_subscribe(node, result, observed) {
    old = word;                                          /* load-acquire */
    do
    :: is_resolved(old) ->
        observed = old; result = ALREADY_RESOLVED; break
    :: else ->
        next[node] = word_list(old);
        atomic {                                         /* CAS release */
            if
            :: word == old ->
                word = (node << PTR_SHIFT) | (old & TAG_MASK);
                registered = registered | cbit(node);
                ok = 1
            :: else -> ok = 0
            fi
        }
        if
        :: ok -> observed = old; result = SUBSCRIBED; break
        :: else -> old = word                            /* reload with acquire */
        fi
    od
}

/* ---- petal_cell_reserve_slot -------------------------------------------------------------- */
inline reserve_slot(result, observed) {
    old = word;
    do
    :: !slot_free(old) ->
        observed = old; result = 0; break
    :: else ->
        atomic {                                         /* CAS, no ordering */
            if
            :: word == old -> word = old | SLOT_TAKEN; ok = 1
            :: else -> ok = 0
            fi
        }
        if
        :: ok -> observed = old | SLOT_TAKEN; result = 1; break
        :: else -> old = word
        fi
    od
}

/* ---- petal_cell_commit_slot --------------------------------------------------------------- */
inline commit_slot(c, result, observed) {
    old = word;
    do
    :: commit_refuses(old) ->
        observed = old; result = 0; break
    :: else ->
        atomic {                                         /* CAS release */
            if
            :: word == old ->
                word = old | SLOT_READY;
                registered = registered | cbit(c);
                ok = 1
            :: else -> ok = 0
            fi
        }
        if
        :: ok -> observed = old | SLOT_READY; result = 1; break
        :: else -> old = word
        fi
    od
}

/* ---- petal_cell_claim --------------------------------------------------------------------- */
inline claim(result) {
    old = word;                                          /* AO_load */
    do
    :: (old & PHASE_MASK) != PENDING -> result = 0; break
    :: else ->
        atomic {                                         /* fetch-CAS */
            seen = word;
            if
            :: seen == old -> word = old | CLAIMED
            :: else -> skip
            fi
        }
        if
        :: seen == old -> result = 1; break
        :: else -> old = seen
        fi
    od
}

/* ---- petal_cell_publish ------------------------------------------------------------------- */
#ifndef BUGGY_PUBLISH
inline publish(kind, taken) {
    old = word;                                          /* AO_load */
    do
    :: atomic {                                          /* fetch-CAS full */
            nw = (kind << KIND_SHIFT) | (has_waiters(old) -> DELIVERING : RESOLVED);
            seen = word;
            if
            :: seen == old -> word = nw; resolved_check(nw)
            :: else -> skip
            fi
        }
        if
        :: seen == old -> taken = old; break
        :: else -> old = seen
        fi
    od
}
#else
/* BUGGY: the list (and slot bits) are taken by one CAS, the outcome is a later plain store. */
inline publish(kind, taken) {
    old = word;
    do
    :: atomic {
            seen = word;
            if
            :: seen == old -> word = CLAIMED             /* take list and slot, stay CLAIMED */
            :: else -> skip
            fi
        }
        if
        :: seen == old -> taken = old; break
        :: else -> old = seen
        fi
    od;
    nw = (kind << KIND_SHIFT) | (has_waiters(taken) -> DELIVERING : RESOLVED);
    atomic { word = nw; resolved_check(nw) }             /* separate store */
}
#endif

/* ---- petal_list_reverse (the deliverer owns the taken nodes: thread-local) ---------------- */
inline list_reverse(node, ordered) {
    atomic {
        ordered = NIL;
        do
        :: node != NIL -> nx = next[node]; next[node] = ordered; ordered = node; node = nx
        :: else -> break
        od
    }
}

/* ---- petal_cell_take_more ----------------------------------------------------------------- */
inline take_more(batch) {
    old = word;                                          /* AO_load */
    do
    :: atomic {                                          /* fetch-CAS full */
            lst = word_list(old);
            nw = (old & (KIND_MASK << KIND_SHIFT)) | (lst != NIL -> DELIVERING : RESOLVED);
            seen = word;
            if
            :: seen == old -> word = nw; resolved_check(nw)
            :: else -> skip
            fi
        }
        if
        :: seen == old -> break
        :: else -> old = seen
        fi
    od;
    list_reverse(lst, batch)
}

/* ---- petal_run_list: read next before running ------------------------------------------- */
inline run_list(node) {
    do
    :: node != NIL -> nx = next[node]; run_callback(node, 0); node = nx
    :: else -> break
    od
}

/* ---- petal_future_resolve + petal_deliver ------------------------------------------------- */
proctype Resolver(byte kind) {
    byte old, seen, nw, taken, lst, batch, nx, cb;
    bit won;

    claim(won);
    if
    :: won ->
        atomic { winners++; assert(winners == 1); winner_kind = kind }   /* (1) */
        payload = kind;                                  /* ours alone until publish */
        publish(kind, taken);
        if
        :: has_waiters(taken) ->
            /* petal_deliver */
            if
            :: slot_ready(taken) -> cb = slot_cb; assert(cb != 0); run_callback(cb, 0)
            :: else -> skip
            fi;
            lst = word_list(taken);
            list_reverse(lst, batch);                    /* petal_list_in_order */
#ifndef SWIFT_DELIVER
            run_list(batch);
            do
            :: take_more(batch);
               if
               :: batch == NIL -> break
               :: else -> run_list(batch)
               fi
            od
#else
            /* FutureStorage.runWaiters: while let first = batch { run; batch = take_more } */
            do
            :: batch != NIL -> run_list(batch); take_more(batch)
            :: else -> break
            od
#endif
        :: else -> skip
        fi
    :: else -> skip                                      /* a loser touches nothing */
    fi
}

/* ---- petal_future_subscribe_node ---------------------------------------------------------- */
inline subscribe_node(c) {
    cell_subscribe(c, r, seen);
    if
    :: r == ALREADY_RESOLVED -> run_callback(c, 1)
    :: else -> skip
    fi
}

/* ---- petal_future_subscribe --------------------------------------------------------------- */
inline future_subscribe(c) {
    before[c] = done_mask;                               /* the call begins */
    reserve_slot(r, seen);
    if
    :: r ->
        slot_cb = c;                                     /* fill the slot */
        commit_slot(c, r, seen)
    :: else -> skip
    fi;
    if
    :: r -> skip                                         /* committed: the publisher runs it */
    :: else ->
        if
        :: is_resolved(seen) -> run_callback(c, 1)
        :: else -> subscribe_node(c)
        fi
    fi;
    done_mask = done_mask | cbit(c)                       /* the call returns */
}

/* petal_future_subscribe_node called directly (never tries the slot), as petal_future_wait. */
inline future_subscribe_node(c) {
    before[c] = done_mask;
    subscribe_node(c);
    done_mask = done_mask | cbit(c)
}

proctype S1() {           /* two callbacks in sequence: 1 must run before 2 */
    byte old, seen; bit ok, r;
    future_subscribe(1);
    future_subscribe(2)
}

proctype S2() {
    byte old, seen; bit ok, r;
    future_subscribe(3)
}

proctype S3() {
    byte old, seen; bit ok, r;
#ifdef MIXED_NODE
    future_subscribe_node(4)
#else
    future_subscribe(4)
#endif
}

init {
    byte c;
    atomic {
        run Resolver(1);
        run Resolver(2);
        run S1();
        run S2();
        run S3()
    }
    (_nr_pr == 1);                                       /* every other process has ended */
    assert(winners == 1);                                /* (1) */
    c = 1;
    do
    :: c <= NCB -> assert(ran[c] == 1); c++              /* (2) every callback exactly once */
    :: else -> break
    od;
    assert(word == ((winner_kind << KIND_SHIFT) | RESOLVED))  /* terminal, empty list */
}
