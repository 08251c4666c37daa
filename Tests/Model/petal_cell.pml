/*
 * petal_cell.pml - a Promela model of the petal cell protocol v2 (waiter blocks), as specified
 * in notes/blocks-protocol.md (with its AMENDED `below`) and implemented in
 * Sources/CPetal/include/petal_cell.h: several callbacks per block, slots reserved by a COUNT
 * in the word, per-slot commit flags, stragglers, and blocks freed by whoever brings refs to
 * zero. Its subscribers and resolvers follow the drivers that call those primitives: Swift's
 * FutureStorage (Sources/Petal/Core), which every Swift user runs, and petal_future.c.
 *
 * DRIVERS. An `@driver` comment names, per language, the functions a group of the model's
 * steps stands for (`A + B`: A's calls, then B's); an `@step` comment marks the model's step
 * for one call of a primitive, in the function's order; an `@part` comment, a further atomic
 * step of the same call. Scripts/check-model-conformance checks that each function calls the
 * petal_cell.h primitives of its driver's steps, in that order (see the README).
 *
 * THE WORD is modelled bit for bit with the specification's layout: bits 0-1 the phase
 * (PENDING 0, CLAIMED 1, RESOLVED 2, DELIVERING 3; HAS_OUTCOME = bit 1), bits 2-4 COUNT, bit 5
 * PARKED (modelled in petal_wait.pml; nobody parks here, so it stays 0 and every transition's
 * keeping of it is the identity), bits 6.. LIST (the newest block). Blocks are small integers
 * (0 is NULL): "block address" is "block id << 6". Every predicate below is the
 * specification's expression on that word.
 * The cell also has `kind` and `payload` (plain stores before publish), and the inline slot's
 * commit flag `slot_flag` (EMPTY 0, READY 1, SKIPPED 2; CAS only) and payload `slot_cb`.
 *
 * BLOCKS. Block b has next, capacity, below, reserved, refs (signed), flag[capacity] and
 * payload[capacity] (payload[i] is a callback number). A core block has capacity FULL (2,
 * standing for 7: the logic only ever asks COUNT < FULL; -DFULL=3 for three). Each subscribe
 * call allocates at most one block, kept across its retries: without -DREUSE_BLOCKS callback
 * c's call gets block c, so an address is never reused and every use after free is caught;
 * with it, malloc returns the lowest block not live, so freed addresses come back (ABA).
 * Every push (petal_cell_push, petal_cell_push_waiter) records in its block below = COUNT of
 * the word it replaces: the slots reserved in the block below. The deliverer, putting a taken
 * list in order (petal_blocks_in_order), sets each block's reserved: the newest
 * min(taken COUNT, capacity), each older one min(below of the block pushed over it, capacity).
 * The waiter (a C caller's node, petal_future_subscribe_node) owns block 4: capacity 1,
 * flag[0] READY, payload 4. It pushes it with COUNT = FULL over whatever head there is, full or
 * partly filled (petal_cell_push_waiter), or runs its callback itself if it sees RESOLVED. The
 * block is the caller's memory, gone as soon as its callback has run (a waiter that timed out
 * frees it in the callback).
 * MEMORY: bstate[b] is UNUSED, LIVE or FREED. Every access to a block (next, capacity, a flag,
 * a payload, refs) asserts that it is LIVE, and every slot index is checked against the
 * capacity; a free asserts LIVE (no double free) and core ownership, and zeroes the block; at
 * the end no block may still be LIVE (no leak: every core block was freed exactly once).
 *
 * PROCESSES: two racing resolvers (petal_cell_claim_taking: the claim, which takes the waiters
 * if there are any and makes the cell DELIVERING at once; the winner writes the outcome, then
 * marks it written (petal_cell_mark_written) if it took waiters, else publishes; then delivers:
 * the inline slot, the taken blocks oldest first, then every batch take_more returns, until
 * take_more makes the cell RESOLVED). A peeker reads the outcome as Swift's peek does
 * (petal_cell_outcome_visible; -DNO_PEEKER leaves it out of the larger configurations). Three subscribers: S1 subscribes callbacks
 * 1 then 2, S2 callback 3 (petal_future_subscribe: reserve, commit, push), and S3 is the waiter
 * with callback 4 and its own block (-DALL_CORE_SUBSCRIBERS: S3 subscribes like S1 and S2).
 *
 * CHECKED (assertions; pan also reports invalid end states):
 *   (1) exactly one resolver wins the claim                                claim, final check
 *   (2) every callback runs exactly once                                   each run, final check
 *   (3) none runs before the outcome is published, and it reads the winner's payload and kind
 *   (4) order: a callback whose subscribe call returned before another's call began runs
 *       first (S1's callback 2 never before its callback 1)                each run
 *   (5) strict order: when the word turns RESOLVED, and when a subscriber that saw RESOLVED
 *       runs its own callback, every registered callback has already run
 *   (6) memory: no access to a freed block or past a block's capacity, no double free, no
 *       free of a caller's block, and no block still allocated at the end
 *   (7) a reader that is not the deliverer and finds the outcome visible reads the winner's
 *   final: the word is exactly RESOLVED (COUNT 0, LIST NULL).
 *
 * FIXES for the specification's two findings (see the README), as implemented:
 *   - a waiter pushed over a partly filled head: `below` above (-DOLDER_BLOCKS_FULL: the
 *     deliverer counts every older block as full, the specification as first written: a leak);
 *   - a block allocated for a failed push is freed however the call ends, not only when a
 *     retry finds RESOLVED (-DKEEP_SPARE_BLOCK: the specification as first written: a leak).
 *
 * VARIANTS (spin -D<NAME> -a petal_cell.pml), all expected to FAIL:
 *   OLDER_BLOCKS_FULL, KEEP_SPARE_BLOCK   the specification as first written (above)
 *   BUGGY_PUBLISH    publish takes the waiters with one CAS (word -> CLAIMED, empty) and
 *                    stores the outcome with a separate plain store.
 *   BUGGY_COMMIT     a commit is a plain store of READY: it does not refuse SKIPPED.
 *   EAGER_FREE       the deliverer frees a block at once even when it has stragglers.
 *   SKIP_TAKE_MORE   the deliverer calls take_more only after a non-empty block batch.
 *   OLD_SLOT_RULE    the inline slot stays reservable while blocks are in the list (the
 *                    reservation then goes through the slot's own flag, EMPTY -> TAKEN).
 *   NO_COUNT_CAP     the deliverer settles COUNT slots of the head, not min(COUNT, capacity).
 *   NO_BELOW_CAP     it settles `below` slots of an older block, not min(below, capacity).
 *   LATE_NEXT        the deliverer reads a block's next and owner after running its slots.
 *   LATE_TAKE_BACK   a straggler takes its callback back after its leave, not before.
 *   TAKING_RESOLVES  claim_taking makes the cell RESOLVED when it takes the waiters.
 *   TAKING_LEAVES_CLAIMED  claim_taking takes the waiters and leaves the word CLAIMED, empty.
 *   MARK_BEFORE_OUTCOME  the resolver marks the kind written before it writes the outcome.
 *   PEEK_WITHOUT_MARK    a reader trusts the word's outcome bit alone (DELIVERING, unmarked).
 *
 * GRANULARITY. Each load or CAS of the word, of a flag and of refs is its own atomic step,
 * with two exact exceptions. (a) The resolver's fetch-CAS loops (claim, publish, take_more)
 * are each one read-modify-write step: a failed fetch-CAS writes nothing and retries with the
 * value it saw, so every run of such a loop is equivalent to one that loads and succeeds at the
 * moment of its successful CAS (-DLITERAL_LOOPS keeps the separate load and the retries: same
 * result, 5 times the states). (b) The deliverer settles a slot in one step: its load-acquire
 * of the flag changes nothing, and a failed CAS(EMPTY, SKIPPED) means READY, which the load
 * at the CAS's moment would have seen. The subscribers' loops are literal (a load, then each
 * CAS, and a failed CAS reloads): their failures have effects (a block kept for later).
 * Purely local work is folded into the step next to it, and so are writes nobody else can read
 * yet: a new block's fields (next and below included) with its push CAS, a slot's payload
 * with its commit CAS (the deliverer reads a payload only after seeing READY), kind and payload
 * with publish, the reversal and annotation of a taken list (the deliverer owns those next,
 * below and reserved fields) with the taking CAS, a block's next, reserved and owner with the
 * deliverer's first settle in it, a free nobody else
 * can observe with the step before it, a subscriber's own callback run with the load that saw
 * RESOLVED, and all ghost bookkeeping. Dead registers and fields are cleared (a below once
 * read, a reserved once read, a failed push's next and below) and a freed block's fields
 * zeroed, so stale values do not multiply the states. printf lines only narrate
 * counterexamples (spin -t); pan ignores them.
 */

/* ---- the word: the specification's layout ----------------------------------------------- */
#define PHASE_MASK   3
#define PENDING      0
#define CLAIMED      1
#define RESOLVED     2
#define DELIVERING   3
#define HAS_OUTCOME  2
#define COUNT_SHIFT  2
#define COUNT_MASK   7
#define COUNT_ONE    4        /* 1 << COUNT_SHIFT */
#define LIST_SHIFT   6        /* blocks are 64-byte aligned: the pointer sits above PARKED (bit 5) */
#define NIL          0
#ifndef FULL
#define FULL         2        /* stands for 7: the logic only asks COUNT < FULL */
#endif

#define phase(w)        ((w) & PHASE_MASK)
#define has_outcome(w)  (((w) & HAS_OUTCOME) != 0)
#define is_resolved(w)  (phase(w) == RESOLVED)
#define word_count(w)   (((w) >> COUNT_SHIFT) & COUNT_MASK)
#define word_list(w)    ((w) >> LIST_SHIFT)
#define make_word(list, count, ph)  (((list) << LIST_SHIFT) | ((count) << COUNT_SHIFT) | (ph))
/* Subscribe's three cases. */
#define inline_free(w)  (!has_outcome(w) && word_list(w) == NIL && word_count(w) == 0)
#define reservable(w)   (word_list(w) != NIL && word_count(w) < FULL)
/* Whether a taken word has waiters (petal_word_has_waiters): then publish makes the cell
   DELIVERING, and its batch starts with the inline slot (petal_word_includes_inline is the same
   test). If a waiter was pushed first, nobody reserved the inline slot, and settling it only
   marks it SKIPPED: nobody can reserve it once the outcome is published. */
#define has_waiters(w)  (word_count(w) > 0)

/* ---- slot flags --------------------------------------------------------------------------- */
#define EMPTY    0
#define READY    1
#define SKIPPED  2
#define TAKEN    3            /* OLD_SLOT_RULE only */

/* ---- shared state ------------------------------------------------------------------------- */
#define NCB 4                 /* callbacks 1..4 */
#define NB  4                 /* blocks 1..4 (block c is callback c's without REUSE_BLOCKS) */
#define cbit(c) (1 << (c))
#define SLOT(b, i) ((b) * FULL + (i))

short word = 0;               /* PENDING, COUNT 0, LIST NULL (above a byte: LIST is at bit 6) */
byte kind = 0;                /* written by the claimer: with publish, or by mark_written */
bit written = 0;              /* the kind's WRITTEN mark (PETAL_KIND_WRITTEN) */
byte payload = 0;             /* the outcome, likewise */
byte slot_flag = EMPTY;       /* the inline slot's commit flag */
byte slot_cb = 0;             /* the inline slot's payload (0: empty) */

byte bnext[NB + 1];           /* block.next (older block) */
byte bcap[NB + 1];            /* block.capacity */
byte bbelow[NB + 1];          /* block.below: COUNT of the word its push replaced (the slots
                                 reserved in next), written by the pusher before its CAS */
byte bres[NB + 1];            /* block.reserved: its reserved slots, written by the deliverer
                                 when it puts a taken list in order (petal_blocks_in_order) */
short brefs[NB + 1];          /* block.refs (signed) */
byte bflag[(NB + 1) * FULL];  /* block.flag[i] */
byte bpay[(NB + 1) * FULL];   /* block.payload[i]: a callback number */

/* ---- ghost state ---------------------------------------------------------------------------- */
#define UNUSED 0
#define LIVE   1
#define FREED  2
byte bstate[NB + 1];          /* per block: UNUSED, LIVE or FREED */
bit bcore[NB + 1];            /* the block is the core's (malloc'ed), not a caller's */
#ifdef ALL_CORE_SUBSCRIBERS
#define WAITER_BLOCK 0
#else
#define WAITER_BLOCK 4        /* S3's caller-owned block, and its callback */
#endif
#define IS_CORE(b) (bcore[b])

byte winners = 0;             /* resolvers whose claim succeeded */
byte winner_kind = 0;         /* the kind the winner publishes */
byte ran[NCB + 1];            /* how many times each callback ran */
byte ran_mask = 0;
byte registered = 0;          /* callbacks whose commit or push succeeded */
byte done_mask = 0;           /* callbacks whose subscribe call has made its last shared step */
byte before[NCB + 1];         /* done_mask when callback c's call began */
#define NOT_BEGUN 255

#define BEGIN_CALL(c) \
    if :: before[c] == NOT_BEGUN -> before[c] = done_mask :: else -> skip fi

/* (6) every access to a block, and to one of its slots */
#define ACCESS(b)          assert((b) != NIL && bstate[b] == LIVE)
#define ACCESS_SLOT(b, i)  ACCESS(b); assert((i) < bcap[b])

#define CLEAR_BLOCK(b) \
    bnext[b] = 0; bcap[b] = 0; bbelow[b] = 0; bres[b] = 0; brefs[b] = 0; bcore[b] = 0; \
    z = 0; \
    do \
    :: z < FULL -> bflag[SLOT(b, z)] = EMPTY; bpay[SLOT(b, z)] = 0; z++ \
    :: else -> z = 0; break \
    od

/* free(block) by the core: it must be live (no double free) and the core's. */
#define FREE(b) \
    printf("free block %d\n", b); \
    assert(bstate[b] == LIVE); \
    assert(IS_CORE(b)); \
    bstate[b] = FREED; \
    CLEAR_BLOCK(b)

/* The waiter's block is the caller's: it may be gone once its callback has run. */
#define GONE(b) \
    printf("block %d is gone with its waiter\n", b); \
    bstate[b] = FREED; \
    CLEAR_BLOCK(b)

/* malloc for callback c's call. Without REUSE_BLOCKS, block c: an address is never reused.
   With it, the lowest block not live, whoever had it before (ABA). */
#ifndef REUSE_BLOCKS
#define ALLOC(b, c) \
    b = c; \
    assert(bstate[b] == UNUSED)
#else
#define ALLOC(b, c) \
    b = 1; \
    do \
    :: b < NB && bstate[b] == LIVE -> b++ \
    :: else -> break \
    od; \
    assert(bstate[b] != LIVE)
#endif
#define NEW_BLOCK(b, c) \
    ALLOC(b, c); \
    bstate[b] = LIVE; bcore[b] = 1; bcap[b] = FULL; \
    bpay[SLOT(b, 0)] = c; bflag[SLOT(b, 0)] = READY; \
    printf("S: callback %d allocates block %d\n", c, b)

/* A callback body: (3) published, with the winner's outcome; (2) never twice; (4) order; and
   for a subscriber running its own callback, (5) strict order. The waiter's callback wakes it,
   and its block may be gone at once (a waiter that timed out frees it in the callback). */
#define RUN_CALLBACK(c, own) \
    printf("run callback %d (own run: %d)\n", c, own); \
    assert(c != 0); \
    assert(has_outcome(word)); \
    assert(winner_kind != 0 && kind == winner_kind && payload == winner_kind); \
    assert(ran[c] == 0); \
    assert((ran_mask & before[c]) == before[c]); \
    assert(!(own) || ((registered & ~ran_mask) == 0)); \
    ran[c]++; \
    ran_mask = ran_mask | cbit(c); \
    if :: (c) == WAITER_BLOCK -> GONE(WAITER_BLOCK) :: else -> skip fi

/* Entering RESOLVED: every registered callback has run (5). */
#define RESOLVED_CHECK(w) \
    if :: is_resolved(w) -> assert((registered & ~ran_mask) == 0) :: else -> skip fi

/* ---- petal_blocks_in_order: the reversal of a taken list, newest first, into oldest first,
   annotating each block's reserved slots: the newest gets min(COUNT of the taken word,
   capacity), each older one min(below of the block pushed over it, capacity). The deliverer
   owns the taken blocks' next, below and reserved fields. A below, once read, is dead and
   cleared (a block is pushed once). ---------------------------------------------------------- */
#define MIN_CAP(cnt, b)  (cnt < bcap[b] -> cnt : bcap[b])
#ifndef NO_COUNT_CAP
#define HEAD_RESERVED(cnt, b)   MIN_CAP(cnt, b)
#else
#define HEAD_RESERVED(cnt, b)   (cnt)            /* the head's COUNT not capped */
#endif
#ifndef NO_BELOW_CAP
#define OLDER_RESERVED(cnt, b)  MIN_CAP(cnt, b)
#else
#define OLDER_RESERVED(cnt, b)  (cnt)            /* an older block's below not capped */
#endif
#ifndef OLDER_BLOCKS_FULL
#define BELOW(b)        (bbelow[b])
#else
#define BELOW(b)        (FULL)                   /* every older block counted as full */
#endif
#define LIST_REVERSE(node, cnt, ordered) \
    ordered = NIL; \
    do \
    :: node != NIL -> \
        ACCESS(node); nx = bnext[node]; \
        bres[node] = (ordered == NIL -> HEAD_RESERVED(cnt, node) : OLDER_RESERVED(cnt, node)); \
        cnt = BELOW(node); bbelow[node] = 0; \
        bnext[node] = ordered; ordered = node; node = nx \
    :: else -> break \
    od; \
    nx = 0; cnt = 0

/* ---- publish: taken is the replaced word; batch the taken blocks oldest first -------------- */
#ifndef BUGGY_PUBLISH
inline publish(k) {
#ifdef LITERAL_LOOPS
    atomic { kind = k; written = 1; payload = k; old = word } /* the outcome; load */
#endif
    do
    :: atomic {                                          /* fetch-CAS full */
#ifndef LITERAL_LOOPS
            kind = k; written = 1; payload = k; old = word; /* one read-modify-write */
#endif
            if
            :: word == old ->
                word = make_word(NIL, 0, (has_waiters(old) -> DELIVERING : RESOLVED));
                printf("R%d: publishes: word %d -> %d\n", k, old, word);
                RESOLVED_CHECK(word);
                taken = old; old = 0;
                lst = word_list(taken); cnt = word_count(taken);
                LIST_REVERSE(lst, cnt, batch);
                break
            :: else -> old = word
            fi
        }
    od
}
#else
/* BUGGY: one CAS takes the waiters and leaves the word CLAIMED and empty; a separate plain
   store then publishes the outcome. */
inline publish(k) {
#ifdef LITERAL_LOOPS
    atomic { kind = k; written = 1; payload = k; old = word }
#endif
    do
    :: atomic {
#ifndef LITERAL_LOOPS
            kind = k; written = 1; payload = k; old = word;
#endif
            if
            :: word == old ->
                word = make_word(NIL, 0, CLAIMED);
                printf("R%d: takes the waiters: word %d -> %d\n", k, old, word);
                taken = old; old = 0;
                lst = word_list(taken); cnt = word_count(taken);
                LIST_REVERSE(lst, cnt, batch);
                break
            :: else -> old = word
            fi
        }
    od;
    atomic {
        printf("R%d: stores the outcome over word %d\n", k, word);
        word = make_word(NIL, 0, (has_waiters(taken) -> DELIVERING : RESOLVED));
        RESOLVED_CHECK(word)
    }
}
#endif

/* ---- take_more: batch NIL once it has made the cell RESOLVED -------------------------------- */
inline take_more(k) {
#ifdef LITERAL_LOOPS
    old = word;                                          /* load */
#endif
    do
    :: atomic {
#ifndef LITERAL_LOOPS
            old = word;                                  /* one read-modify-write */
#endif                                          /* fetch-CAS full */
            if
            :: word == old ->
                word = make_word(NIL, 0, (word_list(old) != NIL -> DELIVERING : RESOLVED));
                printf("R%d: take_more: word %d -> %d\n", k, old, word);
                RESOLVED_CHECK(word);
                lst = word_list(old); cnt = word_count(old); old = 0;
                LIST_REVERSE(lst, cnt, batch);
                break
            :: else -> old = word
            fi
        }
    od
}

/* ---- settling the inline slot (publish's batch only) ---------------------------------------- */
inline settle_inline() {
#ifndef OLD_SLOT_RULE
    atomic {                                             /* load-acquire; CAS(EMPTY, SKIPPED) */
        if
        :: slot_flag == READY -> RUN_CALLBACK(slot_cb, 0)
        :: else ->
            assert(slot_flag == EMPTY);
            slot_flag = SKIPPED; printf("D: inline slot skipped\n")
        fi
    }
#else
    /* The flag may also be TAKEN: CAS(seen, SKIPPED), reloading on failure. */
    do
    :: atomic {
            if
            :: slot_flag == READY -> RUN_CALLBACK(slot_cb, 0); break
            :: else -> f = slot_flag
            fi
        }
        atomic {
            if
            :: slot_flag == f -> slot_flag = SKIPPED; printf("D: inline slot skipped\n"); f = 0; break
            :: else -> f = 0
            fi
        }
    od
#endif
}

#define RUN_SLOT(b, i)  RUN_CALLBACK(bpay[SLOT(b, i)], 0)

/* ---- deliver the blocks of a batch, oldest first ---------------------------------------------
   A slot is settled in one step: the load-acquire of flag[i] and, if it was not READY, the
   CAS(EMPTY, SKIPPED), whose failure means READY and a run. The load changes nothing, so the
   two-step settle is equivalent to this one at the time of its CAS.
   @driver deliver_blocks
     Swift FutureStorage.run(_:kind:)
     C     petal_deliver_blocks
   @step deliver_blocks: petal_blocks_in_order (folded into the CAS that took the list:
     LIST_REVERSE in publish and take_more) */
inline deliver_blocks() {
    do
    :: batch == NIL -> break
    :: else ->
        b = batch; i = 0;
        do
        :: atomic {
                if
                :: i == 0 ->                             /* the block's header, read first */
                    ACCESS(b);
#ifndef LATE_NEXT
                    batch = bnext[b]; owned = IS_CORE(b);
#endif
                    /* @step deliver_blocks: petal_block_reserved */
                    n = bres[b]; bres[b] = 0;            /* then dead */
                    assert(n > 0);                       /* every taken block has a reservation */
                    assert(n <= bcap[b]);                /* (6) no slot past the capacity */
                :: else -> skip
                fi;
                /* @step deliver_blocks: petal_slot_settle */
                ACCESS_SLOT(b, i);                       /* settle flag[i] */
                if
                :: bflag[SLOT(b, i)] == READY -> RUN_SLOT(b, i)
                :: else ->
                    assert(bflag[SLOT(b, i)] == EMPTY);
                    bflag[SLOT(b, i)] = SKIPPED; strag++;
                    printf("D: block %d slot %d skipped (a straggler)\n", b, i)
                fi;
                i++;
                if
                :: i >= n ->                             /* the block's last slot */
#ifdef LATE_NEXT
                    ACCESS(b); batch = bnext[b]; owned = IS_CORE(b);
#endif
                    if
                    /* @step deliver_blocks: petal_block_finish */
                    :: strag == 0 && owned -> FREE(b)    /* no stragglers: free it now */
                    :: else -> skip
                    fi;
                    break
                :: else -> skip
                fi
            }
        od;
        i = 0; n = 0;
        if
        :: strag == 0 -> skip
        :: else ->
#ifndef EAGER_FREE
            /* @part deliver_blocks: petal_block_finish */
            atomic {                                     /* fetch_add(refs, stragglers) */
                ACCESS(b);
                r = brefs[b]; brefs[b] = r + strag;
                printf("D: block %d refs %d -> %d\n", b, r, brefs[b]);
                if :: r + strag == 0 -> FREE(b) :: else -> skip fi;
                r = 0
            }
#else
            atomic { FREE(b) }
#endif
        fi;
        strag = 0; owned = 0; b = 0
    od
}

/* ---- claim_taking: the claim, and with waiters publish's taking, in one CAS (FULL) ----------
   With waiters the word is DELIVERING before the outcome is written: the resolver writes it,
   then mark_written publishes it to readers that are not delivering it (the Peeker). Exactly
   one caller wins; losers touch nothing. */
inline claim_taking(result, k) {
#ifdef LITERAL_LOOPS
    old = word;                                          /* load */
#endif
    do
    :: atomic {
#ifndef LITERAL_LOOPS
            old = word;                                  /* one read-modify-write */
#endif
            if
            :: phase(old) != PENDING -> result = 0; old = 0; break
            :: else -> skip
            fi;
            if                                           /* fetch-CAS full */
            :: word == old ->
                if
                :: has_waiters(old) ->
                    word = make_word(NIL, 0, DELIVERING);
#ifdef TAKING_RESOLVES
                    word = make_word(NIL, 0, RESOLVED);  /* BUG: published before it is written */
#endif
#ifdef TAKING_LEAVES_CLAIMED
                    word = make_word(NIL, 0, CLAIMED);   /* BUG: an empty unpublished word */
#endif
                    skip
                :: else -> word = old | CLAIMED
                fi;
                printf("R%d: claims: word %d -> %d\n", k, old, word);
                winners++;
                assert(winners == 1);                    /* (1) */
                winner_kind = k;
                taken = old; old = 0;
                if
                :: has_waiters(taken) ->
                    lst = word_list(taken); cnt = word_count(taken);
                    LIST_REVERSE(lst, cnt, batch)
                :: else -> skip
                fi;
                result = 1;
                break
            :: else -> old = word                        /* the value the CAS saw */
            fi
        }
    od
}

/* ---- a resolver: the claim (taking the waiters if any), the outcome, its publication, and
   the delivery. The outcome (payload) is a plain store of its own step; mark_written is the
   RELEASE store of the kind with its WRITTEN mark.
   @driver resolve
     Swift FutureStorage.fulfil(with:) + FutureStorage.publish(_:claimed:)
     Swift FutureStorage.fail(_:error:) + FutureStorage.publish(_:claimed:)
     Swift FutureStorage.fail(_:error:failureSite:) + FutureStorage.publish(_:claimed:)
     C     petal_future_resolve
   @driver deliver
     Swift FutureStorage.runWaiters(_:kind:)
     C     petal_deliver */
proctype Resolver(byte k) {
    short old, taken;
    byte lst, cnt, batch, nx, b, i, n, strag, f, z;
    short r;
    bit won, owned;

    claim_taking(won, k);                                /* @step resolve: petal_cell_claim_taking */
    if
    :: won ->
#ifdef MARK_BEFORE_OUTCOME
        if
        :: has_waiters(taken) -> atomic { kind = k; written = 1 }
        :: else -> skip
        fi;
#endif
        atomic {                                         /* the outcome, after the claim */
            printf("R%d: writes the outcome over word %d\n", k, word);
            payload = k
        };
        if
        :: has_waiters(taken) ->
#ifndef MARK_BEFORE_OUTCOME
            atomic {                                     /* @step resolve: petal_cell_mark_written */
                kind = k; written = 1;
                printf("R%d: marks the outcome written\n", k)
            }
#else
            skip
#endif
        :: else -> publish(k)                            /* @step resolve: petal_cell_publish */
        fi
    :: else -> skip                                      /* a loser touches nothing */
    fi;
    if
    :: won && has_waiters(taken) ->                      /* DELIVERING: deliver */
        taken = 0;
        /* @step deliver: petal_slot_settle */
        settle_inline();                                 /* the inline slot: petal_word_includes_inline */
#ifndef SKIP_TAKE_MORE
        do                                               /* the taken blocks, then each batch */
        :: deliver_blocks();
           take_more(k);                                 /* @step deliver: petal_cell_take_more */
           if
           :: batch == NIL -> break                      /* it made the cell RESOLVED */
           :: else -> skip
           fi
        od
#else
        do                                               /* take_more after a block batch only */
        :: batch != NIL -> deliver_blocks(); take_more(k)
        :: else -> break
        od
#endif
    :: else -> taken = 0
    fi;
    won = 0
}

/* ---- a reader of the outcome that is not its deliverer (Swift's peek, isResolved, snapshot:
   petal_cell_outcome_visible): an acquire load of the word, and of the kind's mark if the
   word is DELIVERING. (7) what it reads then is the winner's outcome. */
proctype Peeker() {
    short w;
    w = word;                                            /* load-acquire */
    if
    :: is_resolved(w) -> skip
    :: has_outcome(w) ->
#ifndef PEEK_WITHOUT_MARK
        if                                               /* load-acquire of the kind */
        :: written == 1 -> skip
        :: else -> goto done                             /* not written yet: pending */
        fi
#else
        skip                                             /* BUG: the outcome bit trusted alone */
#endif
    :: else -> goto done                                 /* pending */
    fi;
    assert(winner_kind != 0 && payload == winner_kind && kind == winner_kind);   /* (7) */
done:
    w = 0
}

/* ---- Subscribe (callback c; block c if it needs one) ---------------------------------------- */
#define P_INLINE     1
#define P_RESERVE    2
#define P_PUSH       3
#define P_OWN_INLINE 4
#define P_OWN_SLOT   5
#define P_STRAGGLER  6
#define P_DONE       7
#define P_TRY_FLAG   8        /* OLD_SLOT_RULE only */

/* A block allocated for a push that never succeeded is freed when the call ends. */
#define FREE_SPARE(c) \
    if :: sb != NIL -> FREE(sb) :: else -> skip fi; \
    sb = 0
#ifndef KEEP_SPARE_BLOCK
#define FREE_SPARE_ON_SUCCESS(c) FREE_SPARE(c)
#else
#define FREE_SPARE_ON_SUCCESS(c) skip    /* the specification as first written: leaked */
#endif

#ifndef BUGGY_COMMIT
#define COMMIT_OK(flagvar, mine)  (flagvar == mine)
#else
#define COMMIT_OK(flagvar, mine)  true   /* a plain store */
#endif

/* Taking a payload back only reads it. A SKIPPED slot is never read again, so its payload is
   cleared (dead data); in a seeded-bug variant the flag may be READY, and the payload stays. */
#define DEAD_IF_SKIPPED(flagvar, payvar) \
    if :: flagvar == SKIPPED -> payvar = 0 :: else -> skip fi

/* @driver subscribe
     Swift FutureStorage.subscribe(stored:)
     C     petal_future_subscribe
   A straggler reads nothing back from its slot in either language (Swift keeps its callback's
   words, C its own copy); the model takes the payload back before the leave all the same, the
   stricter case. -DLATE_TAKE_BACK does it after. */
inline subscribe(c) {
    do
    /* @step subscribe: petal_cell_reserve */
    :: atomic {                                          /* its load-acquire */
            BEGIN_CALL(c);
            w = word;
            if
            :: is_resolved(w) ->
                printf("S: callback %d sees RESOLVED (word %d), runs it\n", c, w);
                FREE_SPARE(c);
                RUN_CALLBACK(c, 1);
                done_mask = done_mask | cbit(c);
                w = 0;
                break
            :: inline_free(w) -> path = P_INLINE
#ifdef OLD_SLOT_RULE
            :: !has_outcome(w) && word_list(w) != NIL -> path = P_TRY_FLAG
#endif
            :: else ->
                if
                :: reservable(w) -> path = P_RESERVE
                :: else -> path = P_PUSH
                fi
            fi
        }
#ifdef OLD_SLOT_RULE
        if
        :: path == P_TRY_FLAG ->                         /* CAS(slot_flag, EMPTY, TAKEN) */
            atomic {
                if
                :: slot_flag == EMPTY ->
                    slot_flag = TAKEN; mine = TAKEN; path = P_OWN_INLINE;
                    printf("S: callback %d takes the inline slot behind blocks (word %d)\n", c, w);
                    w = 0
                :: else -> path = (reservable(w) -> P_RESERVE : P_PUSH)
                fi
            }
        :: else -> skip
        fi;
#endif
        if
        /* @part subscribe: petal_cell_reserve */
        :: path == P_INLINE ->                           /* CAS(word, w, COUNT 1) */
            atomic {
                if
                :: word == w ->
                    word = w + COUNT_ONE; path = P_OWN_INLINE;
                    printf("S: callback %d reserves the inline slot: word %d -> %d\n", c, w, word)
                :: else ->
                    printf("S: callback %d: inline reservation fails (word %d, not %d)\n", c, word, w);
                    path = 0
                fi;
                w = 0
            }
        :: else -> skip
        fi;
        if
        /* @step subscribe: petal_slot_commit */
        :: path == P_OWN_INLINE ->                       /* fill; CAS(slot_flag, EMPTY, READY) */
            atomic {
                slot_cb = c;
                if
                :: COMMIT_OK(slot_flag, mine) ->
                    slot_flag = READY;
                    printf("S: callback %d commits the inline slot\n", c);
                    registered = registered | cbit(c);
                    done_mask = done_mask | cbit(c);
                    FREE_SPARE_ON_SUCCESS(c);
                    path = P_DONE
                :: else ->                               /* SKIPPED: take the payload back */
                    printf("S: callback %d: inline commit refused (flag %d)\n", c, slot_flag);
                    DEAD_IF_SKIPPED(slot_flag, slot_cb); path = 0
                fi;
                mine = EMPTY
            }
        /* @part subscribe: petal_cell_reserve */
        :: path == P_RESERVE ->                          /* CAS(word, w, COUNT + 1) */
            atomic {
                if
                :: word == w ->
                    word = w + COUNT_ONE;
                    b = word_list(w); i = word_count(w); path = P_OWN_SLOT;
                    printf("S: callback %d reserves block %d slot %d: word %d -> %d\n", c, b, i, w, word)
                :: else ->                               /* retry from a fresh load: the code
                                                            retries, after a back-off, with the
                                                            word its failed CAS saw, one of the
                                                            interleavings this covers */
                    printf("S: callback %d: reservation fails (word %d, not %d)\n", c, word, w);
                    path = 0
                fi;
                w = 0
            }
            if
            /* @step subscribe: petal_slot_commit */
            :: path == P_OWN_SLOT ->                     /* fill; CAS(flag[i], EMPTY, READY) */
                atomic {
                    ACCESS_SLOT(b, i);
                    bpay[SLOT(b, i)] = c;
                    if
                    :: COMMIT_OK(bflag[SLOT(b, i)], EMPTY) ->
                        bflag[SLOT(b, i)] = READY;
                        printf("S: callback %d commits block %d slot %d\n", c, b, i);
                        registered = registered | cbit(c);
                        done_mask = done_mask | cbit(c);
                        FREE_SPARE_ON_SUCCESS(c);
                        b = 0; i = 0; path = P_DONE
                    :: else ->                           /* SKIPPED: take payload[i] back */
                        printf("S: callback %d: commit of block %d slot %d refused (flag %d)\n", c, b, i, bflag[SLOT(b, i)]);
#ifndef LATE_TAKE_BACK
                        DEAD_IF_SKIPPED(bflag[SLOT(b, i)], bpay[SLOT(b, i)]);
#endif
                        path = P_STRAGGLER
                    fi
                }
            :: else -> skip
            fi;
            if
            /* @step subscribe: petal_block_leave */
            :: path == P_STRAGGLER ->                    /* fetch_add(refs, -1) */
                atomic {
                    ACCESS(b);
                    r = brefs[b]; brefs[b] = r - 1;
                    printf("S: callback %d releases block %d: refs %d -> %d\n", c, b, r, brefs[b]);
                    if :: r - 1 == 0 -> FREE(b) :: else -> skip fi;
#ifndef LATE_TAKE_BACK
                    b = 0; i = 0;
#endif
                    r = 0; path = 0
                }
#ifdef LATE_TAKE_BACK
                atomic {                                 /* the callback moved out after the leave */
                    printf("S: callback %d takes block %d slot %d back\n", c, b, i);
                    ACCESS_SLOT(b, i);
                    DEAD_IF_SKIPPED(bflag[SLOT(b, i)], bpay[SLOT(b, i)]);
                    b = 0; i = 0
                }
#endif
            :: else -> skip
            fi
        /* @step subscribe: petal_cell_push */
        :: path == P_PUSH ->                             /* CAS(word, w, B | 1 | phase) */
            atomic {
                if
                :: sb == NIL -> NEW_BLOCK(sb, c)
                :: else -> skip                          /* kept from a failed push */
                fi;
                ACCESS(sb);
                assert(bcap[sb] == FULL);                /* petal_cell_push's blocks are full-size */
                bnext[sb] = word_list(w); bbelow[sb] = word_count(w);
                if
                :: word == w ->
                    word = make_word(sb, 1, phase(w));
                    printf("S: callback %d pushes block %d: word %d -> %d\n", c, sb, w, word);
                    registered = registered | cbit(c);
                    done_mask = done_mask | cbit(c);
                    sb = 0; path = P_DONE
                :: else ->                               /* B kept for the retries */
                    printf("S: callback %d: push of block %d fails (word %d, not %d)\n", c, sb, word, w);
                    bnext[sb] = 0; bbelow[sb] = 0; path = 0
                fi;
                w = 0
            }
        :: else -> skip
        fi;
        if
        :: path == P_DONE -> path = 0; break
        :: else -> skip
        fi
    od;
    sb = 0                                               /* (a leak, if still allocated) */
}

/* ---- petal_cell_push_waiter: the waiter pushes its own block (capacity 1, flag[0] READY) with
   COUNT = FULL over whatever head there is, recording in it below = COUNT of the word it
   replaces (the head may be partly filled), unless it sees RESOLVED (then it runs its callback
   itself). Its next and below are written before the CAS into a block nobody else can see.
   @driver subscribe_node
     C     petal_future_subscribe_node
   (C only: Swift pushes no caller-owned block; its waits park, as petal_wait.pml models.) */
inline wait_subscribe(c) {
    do
    /* @step subscribe_node: petal_cell_push_waiter */
    :: atomic {                                          /* its load-acquire */
            BEGIN_CALL(c);
            w = word;
            if
            :: is_resolved(w) ->
                printf("S: waiter %d sees RESOLVED (word %d), runs it\n", c, w);
                RUN_CALLBACK(c, 1);
                done_mask = done_mask | cbit(c);
                w = 0;
                break
            :: else -> skip
            fi
        }
        /* @part subscribe_node: petal_cell_push_waiter */
        atomic {                                         /* CAS(word, w, W | FULL | phase) */
            ACCESS(c);
            bnext[c] = word_list(w); bbelow[c] = word_count(w);
            if
            :: word == w ->
                word = make_word(c, FULL, phase(w));
                printf("S: waiter %d pushes its block: word %d -> %d\n", c, w, word);
                registered = registered | cbit(c);
                done_mask = done_mask | cbit(c);
                w = 0;
                break
            :: else ->
                printf("S: waiter %d: push fails (word %d, not %d)\n", c, word, w);
                bnext[c] = 0; bbelow[c] = 0; w = 0
            fi
        }
    od
}

/* A subscriber: callbacks first..last in sequence (each call returns before the next begins);
   own: the waiter, with its own block. One proctype for all three keeps pan.c small. */
proctype Subscriber(byte first; byte last; bit own) {
    short w;
    byte c, b, i, z, path, mine, sb;
    short r;
    c = first;
    do
    :: c <= last ->
        if
        :: own -> wait_subscribe(c)
        :: else -> subscribe(c)
        fi;
        c++
    :: else -> break
    od
}

init {
    byte c;
    atomic {
        c = 1;
        do
        :: c <= NCB -> before[c] = NOT_BEGUN; c++
        :: else -> c = 0; break
        od;
#ifndef ALL_CORE_SUBSCRIBERS
        bstate[WAITER_BLOCK] = LIVE;                     /* the waiter's own memory */
        bcore[WAITER_BLOCK] = 0;
        bcap[WAITER_BLOCK] = 1;
        bflag[SLOT(WAITER_BLOCK, 0)] = READY;
        bpay[SLOT(WAITER_BLOCK, 0)] = 4;
#endif
        run Resolver(1);
        run Resolver(2);
#ifndef NO_PEEKER
        run Peeker();
#endif
        run Subscriber(1, 2, 0);   /* S1: callbacks 1 then 2 */
        run Subscriber(3, 3, 0);   /* S2 */
#ifdef ALL_CORE_SUBSCRIBERS
        run Subscriber(4, 4, 0)    /* S3, a plain subscriber */
#else
        run Subscriber(4, 4, 1)    /* S3, the waiter with its own block */
#endif
    }
    (_nr_pr == 1);             /* every other process has ended (no timeout) */
    assert(winners == 1);                                           /* (1) */
    c = 1;
    do
    :: c <= NCB -> assert(ran[c] == 1); c++                         /* (2) exactly once */
    :: else -> break
    od;
    c = 1;
    do
    :: c <= NB ->                                                   /* (6) no leak */
        if :: bstate[c] == LIVE -> printf("leak: block %d is still allocated\n", c) :: else -> skip fi;
        assert(bstate[c] != LIVE); c++
    :: else -> break
    od;
    assert(word == make_word(NIL, 0, RESOLVED))                     /* terminal */
}
