/*
 * petal_cell.pml - a Promela model of the lock-free cell in Sources/CPetal/include/petal.h
 * (petal_cell_*), driven the way Sources/CPetal/petal_future.c drives it.
 *
 * THE WORD is modelled bit for bit: word = (newest node << 4) | tags, with the header's tag
 * values, so every predicate below is the header's own expression. Nodes are small integers
 * (node c belongs to callback c; 0 is NULL) linked by a next[] array. Every CAS is one atomic
 * compare-and-set; memory is sequentially consistent (the model checks the protocol's logic, not
 * its acquire/release annotations). The loops are those of the header: subscribe, reserve and
 * commit reload the word after a failed CAS; claim, publish and take_more retry with the value
 * their failed fetch-CAS returned.
 *
 * PROCESSES: two racing resolvers (petal_future_resolve: claim; the winner writes the payload,
 * publishes, and if the taken word had waiters runs petal_deliver: the slot if ready, the list
 * in order, then take_more until it makes the cell RESOLVED) and three subscribers calling
 * petal_future_subscribe (reserve the inline slot, fill it, commit; on a refused reserve or
 * commit, run the callback itself if the word seen is RESOLVED, else subscribe with a node,
 * which may in turn report ALREADY_RESOLVED). S1 subscribes callbacks 1 then 2, S2 callback 3,
 * S3 callback 4, through petal_future_subscribe_node (a node, never the slot; with
 * -DALL_SLOT_SUBSCRIBERS through petal_future_subscribe like the others).
 *
 * CHECKED (assertions; pan also reports invalid end states):
 *   (1) exactly one resolver wins the claim                     claim, final check
 *   (2) every callback runs exactly once                        each run, final check
 *   (3) no callback runs before the outcome is published        each run: HAS_OUTCOME, payload
 *   (4) order: a callback whose subscribe call returned before another's call began runs
 *       first; in particular S1's callback 2 never runs before its callback 1    each run
 *   (5) strict order: when the word turns RESOLVED, and when a subscriber that saw RESOLVED
 *       runs its own callback, every callback registered in the word has already run
 *   final: the word is RESOLVED, with the winner's kind and an empty list.
 *
 * VARIANTS (spin -D<NAME> -a petal_cell.pml):
 *   BUGGY_PUBLISH  publish takes the list with one CAS and stores the outcome with a separate
 *                  store: a waiter pushed (or a slot committed) in between is lost.
 *   BUGGY_COMMIT   commit_slot does not refuse a word that carries an outcome: the slot is
 *                  committed after the publisher skipped it, and never runs.
 *   OLD_SLOT_RULE  the slot may be reserved while nodes are already in the list (petal.h before
 *                  this model found the bug): S3's petal_future_subscribe_node pushes a node (as
 *                  petal_future_wait does), and a later subscriber's slot still runs first.
 *   ALL_SLOT_SUBSCRIBERS  S3 uses petal_future_subscribe like the others (not a bug variant).
 *   SKIP_TAKE_MORE the deliverer calls take_more only after a non-empty list batch (the loop
 *                  FutureStorage.swift runWaiters had until commit 56517fc): a slot-only batch
 *                  leaves the cell DELIVERING, and later subscribers never run.
 *
 * GRANULARITY. Each load of the word and each CAS is its own atomic step. Purely local work
 * (testing a loaded value, computing the new word, clearing dead registers) is folded into the
 * step of the access next to it; so are writes nobody can read at that point: node->next with
 * the CAS that makes the node reachable, the slot's contents with the commit's first load, the
 * payload with publish's first load, a subscriber's own callback run with the step that saw
 * RESOLVED, the reversal of a taken list (owned by the deliverer) with the step that took it,
 * and all ghost bookkeeping. Dead registers are cleared so that stale values do not multiply
 * the states. printf lines only narrate counterexamples (spin -t); pan ignores them.
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
#ifdef OLD_SLOT_RULE
#define slot_free(w)    (!has_outcome(w) && (((w) & (SLOT_TAKEN | SLOT_READY)) == 0))
#else
#define slot_free(w)    (!has_outcome(w) && (((w) & ~PHASE_MASK) == 0))   /* and no node yet */
#endif
#define slot_ready(w)   (!has_outcome(w) && (((w) & SLOT_READY) != 0))
#define word_list(w)    ((w) >> PTR_SHIFT)
#define has_waiters(w)  (slot_ready(w) || (word_list(w) != NIL))

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
byte payload = 0;             /* petal_future.payload, written by the claimer before publish */

/* ---- ghost state for the properties ------------------------------------------------------- */
byte winners = 0;             /* resolvers whose claim returned 1 */
byte winner_kind = 0;         /* the kind the winner publishes */
byte ran[NCB + 1];            /* how many times each callback ran */
byte ran_mask = 0;            /* callbacks that ran */
byte registered = 0;          /* callbacks whose push or slot commit succeeded */
byte done_mask = 0;           /* callbacks whose subscribe call has made its last shared step */
byte before[NCB + 1];         /* done_mask when callback c's subscribe call began */

#define NOT_BEGUN 255

/* Ghost: a subscribe call begins with its first load; before[c] records which subscribe calls
   had returned by then (only the first load of the call sets it). */
#define BEGIN_CALL(c) \
    if :: before[c] == NOT_BEGUN -> before[c] = done_mask :: else -> skip fi

/* A callback body. It reads the outcome, so the outcome must be published (3); it runs at most
   once (2); every callback whose subscribe call returned before this one's began has run (4).
   A subscriber that saw RESOLVED and runs its own callback also checks (5). */
#define RUN_CALLBACK(c, own) \
    printf("run callback %d (own run: %d)\n", c, own); \
    assert(has_outcome(word));                         /* (3) published */ \
    assert(payload != 0 && payload == winner_kind);    /* (3) the outcome it reads */ \
    assert(ran[c] == 0);                               /* (2) never twice */ \
    assert((ran_mask & before[c]) == before[c]);       /* (4) order, FIFO */ \
    assert(!(own) || ((registered & ~ran_mask) == 0)); /* (5) strict order */ \
    ran[c]++; \
    ran_mask = ran_mask | cbit(c)

/* petal_future_subscribe after a refused reserve or commit: a RESOLVED word seen means the
   caller runs its callback itself and returns. */
#define OWN_IF_RESOLVED(c, w) \
    if \
    :: is_resolved(w) -> RUN_CALLBACK(c, 1); done_mask = done_mask | cbit(c) \
    :: else -> skip \
    fi

/* Entering RESOLVED: every waiter ever registered has run (5). */
#define RESOLVED_CHECK(w) \
    if :: is_resolved(w) -> assert((registered & ~ran_mask) == 0) :: else -> skip fi

/* ---- petal_cell_subscribe with node c ------------------------------------------------------
   result: SUBSCRIBED, or ALREADY_RESOLVED after the caller (petal_future_subscribe_node) ran
   its callback itself. */
inline cell_subscribe(c, result) {
    do
    :: atomic {
            BEGIN_CALL(c);
            old = word;                                  /* load-acquire (first, or reload) */
            if
            :: is_resolved(old) ->
                printf("S: callback %d sees RESOLVED (word %d), runs it\n", c, old);
                result = ALREADY_RESOLVED; old = 0;
                RUN_CALLBACK(c, 1);
                done_mask = done_mask | cbit(c);         /* the call returns */
                break
            :: else -> skip
            fi
        }
        atomic {
            next[c] = word_list(old);                    /* node->next = list(old) */
            if                                           /* CAS release */
            :: word == old ->
                word = (c << PTR_SHIFT) | (old & TAG_MASK);
                printf("S: push node %d: word %d -> %d\n", c, old, word);
                registered = registered | cbit(c);
                done_mask = done_mask | cbit(c);         /* the call returns */
                result = SUBSCRIBED; old = 0;
                break
            :: else -> old = 0                           /* failed: reload */
            fi
        }
    od
}

/* ---- petal_cell_reserve_slot (first step of petal_future_subscribe for callback c) --------
   result 1: reserved. result 0: refused, observed is the word seen; if it is RESOLVED the
   caller has run its callback itself. */
inline reserve_slot(c, result, observed) {
    do
    :: atomic {
            BEGIN_CALL(c);
            old = word;                                  /* load (first, or reload) */
            if
            :: !slot_free(old) ->
                observed = old; result = 0; old = 0;
                OWN_IF_RESOLVED(c, observed);
                break
            :: else -> skip
            fi
        }
        atomic {
            if                                           /* CAS, no ordering */
            :: word == old ->
                word = old | SLOT_TAKEN;
                printf("S: callback %d reserves the slot: word %d -> %d\n", c, old, word);
                result = 1; old = 0;
                break
            :: else -> old = 0                           /* failed: reload */
            fi
        }
    od
}

/* ---- petal_cell_commit_slot (the slot is filled with callback c first) -------------------- */
inline commit_slot(c, result, observed) {
    do
    :: atomic {
            slot_cb = c;                                 /* fill the slot (before the commit) */
            old = word;                                  /* load (first, or reload) */
            if
            :: commit_refuses(old) ->
                printf("S: callback %d commit refused (word %d)\n", c, old);
                observed = old; result = 0; old = 0;
                OWN_IF_RESOLVED(c, observed);
                break
            :: else -> skip
            fi
        }
        atomic {
            if                                           /* CAS release */
            :: word == old ->
                word = old | SLOT_READY;
                printf("S: callback %d commits the slot: word %d -> %d\n", c, old, word);
                registered = registered | cbit(c);
                done_mask = done_mask | cbit(c);         /* the call returns */
                result = 1; old = 0;
                break
            :: else -> old = 0                           /* failed: reload */
            fi
        }
    od
}

/* ---- petal_cell_claim --------------------------------------------------------------------- */
inline claim(result, kind) {
    old = word;                                          /* AO_load */
    do
    :: atomic {
            if
            :: (old & PHASE_MASK) != PENDING -> result = 0; old = 0; break
            :: else -> skip
            fi;
            if                                           /* fetch-CAS */
            :: word == old ->
                word = old | CLAIMED;
                printf("R%d: claims: word %d -> %d\n", kind, old, word);
                winners++;
                assert(winners == 1);                    /* (1) exactly one winner */
                winner_kind = kind;
                result = 1; old = 0;
                break
            :: else -> old = word                        /* the value the CAS saw */
            fi
        }
    od
}

/* ---- petal_cell_publish (taken: the word it replaced) -------------------------------------- */
#ifndef BUGGY_PUBLISH
inline publish(kind, taken) {
    atomic { payload = kind; old = word }                /* the outcome; AO_load */
    do
    :: atomic {                                          /* fetch-CAS full */
            if
            :: word == old ->
                word = (kind << KIND_SHIFT) | (has_waiters(old) -> DELIVERING : RESOLVED);
                printf("R%d: publishes: word %d -> %d\n", kind, old, word);
                RESOLVED_CHECK(word);
                taken = old; old = 0;
                break
            :: else -> old = word
            fi
        }
    od
}
#else
/* BUGGY: the waiters (list and slot bits) are taken by one CAS, which leaves the word CLAIMED;
   the outcome is set by a later, separate store. */
inline publish(kind, taken) {
    atomic { payload = kind; old = word }
    do
    :: atomic {
            if
            :: word == old ->
                word = CLAIMED;
                printf("R%d: takes the waiters: word %d -> %d\n", kind, old, word);
                taken = old; old = 0;
                break
            :: else -> old = word
            fi
        }
    od;
    atomic {                                             /* the separate store */
        printf("R%d: stores the outcome over word %d\n", kind, word);
        word = (kind << KIND_SHIFT) | (has_waiters(taken) -> DELIVERING : RESOLVED);
        RESOLVED_CHECK(word)
    }
}
#endif

/* ---- petal_list_reverse: the deliverer owns taken nodes (runs inside the taking step) ------ */
#define LIST_REVERSE(node, ordered) \
    ordered = NIL; \
    do \
    :: node != NIL -> nx = next[node]; next[node] = ordered; ordered = node; node = nx \
    :: else -> break \
    od; \
    nx = 0

/* ---- petal_cell_take_more: batch is the late nodes in order, or NIL after RESOLVED --------- */
inline take_more(batch, kind) {
    old = word;                                          /* AO_load */
    do
    :: atomic {                                          /* fetch-CAS full */
            if
            :: word == old ->
                word = (old & (KIND_MASK << KIND_SHIFT)) |
                       (word_list(old) != NIL -> DELIVERING : RESOLVED);
                printf("R%d: take_more: word %d -> %d\n", kind, old, word);
                RESOLVED_CHECK(word);
                lst = word_list(old); old = 0;
                LIST_REVERSE(lst, batch);
                break
            :: else -> old = word
            fi
        }
    od
}

/* ---- petal_run_list: next is read before the callback runs; the node is then freed -------- */
inline run_list(node) {
    do
    :: atomic {
            if
            :: node != NIL ->
                nx = next[node]; next[node] = 0;
                RUN_CALLBACK(node, 0);
                node = nx; nx = 0
            :: else -> break
            fi
        }
    od
}

/* ---- petal_future_resolve + petal_deliver ------------------------------------------------- */
proctype Resolver(byte kind) {
    byte old, taken, lst, batch, nx;
    bit won;

    claim(won, kind);
    if
    :: won ->
        publish(kind, taken);
        if
        :: has_waiters(taken) ->                         /* petal_deliver */
            atomic {
                if
                :: slot_ready(taken) -> assert(slot_cb != 0); RUN_CALLBACK(slot_cb, 0)
                :: else -> skip
                fi;
                lst = word_list(taken); taken = 0;
                LIST_REVERSE(lst, batch)                 /* petal_list_in_order */
            }
#ifndef SKIP_TAKE_MORE
            run_list(batch);
            do
            :: take_more(batch, kind);
               if
               :: batch == NIL -> break
               :: else -> run_list(batch)
               fi
            od
#else
            /* old runWaiters: while let first = batch { run(first); batch = take_more() } */
            do
            :: batch != NIL -> run_list(batch); take_more(batch, kind)
            :: else -> break
            od
#endif
        :: else -> taken = 0
        fi
    :: else -> skip                                      /* a loser touches nothing */
    fi;
    won = 0
}

/* ---- petal_future_subscribe (callback c) --------------------------------------------------- */
inline future_subscribe(c) {
    reserve_slot(c, r, seen);
    if
    :: r -> commit_slot(c, r, seen)                      /* fill and commit */
    :: else -> skip
    fi;
    if
    :: r -> r = 0                                        /* committed: the publisher runs it */
    :: else ->
        if
        :: is_resolved(seen) -> seen = 0                 /* it ran it itself (OWN_IF_RESOLVED) */
        :: else -> seen = 0; cell_subscribe(c, r); r = 0 /* petal_future_subscribe_node */
        fi
    fi
}

/* petal_future_subscribe_node called directly (never the slot), as petal_future_wait does. */
inline future_subscribe_node(c) {
    cell_subscribe(c, r);
    r = 0
}

proctype S1() {           /* two callbacks in sequence: 1 must run before 2 */
    byte old, seen; bit r;
    future_subscribe(1);
    future_subscribe(2)
}

proctype S2() {
    byte old, seen; bit r;
    future_subscribe(3)
}

proctype S3() {
    byte old, seen; bit r;
#ifdef ALL_SLOT_SUBSCRIBERS
    future_subscribe(4)
#else
    future_subscribe_node(4)
#endif
}

init {
    byte c;
    atomic {
        c = 1;
        do
        :: c <= NCB -> before[c] = NOT_BEGUN; c++
        :: else -> c = 0; break
        od;
        run Resolver(1);       /* kinds 1 and 3: published kind bits overlap both slot bits */
        run Resolver(3);
        run S1();
        run S2();
        run S3()
    }
    (_nr_pr == 1);             /* every other process has ended (no timeout) */
    assert(winners == 1);                                           /* (1) */
    c = 1;
    do
    :: c <= NCB -> assert(ran[c] == 1); c++                         /* (2) exactly once */
    :: else -> break
    od;
    assert(word == ((winner_kind << KIND_SHIFT) | RESOLVED))        /* terminal, empty list */
}
