/*
 * petal_combinator.pml - a Promela model of the combinator word (CombinatorWord in
 * Sources/Petal/Combining/CombinatorWord.swift) as CombinatorState applies it
 * (Sources/Petal/Combining/CombinatorState.swift) and the combinators drive it
 * (Future+FulfillingWhen.swift, Future+Racing.swift, Future+AllResolved.swift).
 *
 * THE WORD is CombinatorWord's layout with a count width of 4 (the layout of a 12-bit word;
 * 30 bits stand in a 64-bit one): bits 0-3 REMAINING, bits 4-7 WRITING, bit 8 DECIDED, bit 9
 * RESULT_TAKEN, bit 10 TAIL_RELEASED. Every move is the Swift function's expression on that word:
 *   enter   (CAS loop, no ordering)  refused if DECIDED, else WRITING + 1
 *   leave   (fetch-add, FULL)        adds -(WRITER + 1): REMAINING - 1 and WRITING - 1; the word
 *                                    left has REMAINING 0: complete; else DECIDED and WRITING 0:
 *                                    release the tail
 *   decide  (CAS loop, FULL)         refused if DECIDED, else DECIDED; WRITING 0 in the word it
 *                                    replaced: resolve and release the tail, else only resolve
 *   retire  (fetch-add, RELEASE)     adds the duty's flags: RESULT_TAKEN and/or TAIL_RELEASED
 *   deinit  (load, ACQUIRE)          releases the tail unless TAIL_RELEASED
 *
 * THE STATE besides the word: the tail (one element per input, initialised to nil before any
 * input can see the state; LIVE until deinitialized, moved out or released, then RELEASED),
 * the header's result field (the combined future's storage, until taken), and the references
 * that keep the state alive: the maker's (the combinator function, while it subscribes) and one
 * per subscribed input (its callback). Whoever drops the last one runs deinit, which frees the
 * state: nothing may touch it afterwards.
 *
 * PROCESSES. The maker subscribes INPUTS inputs in order, skipping the rest once it sees
 * DECIDED (the `isDecided` hint, a plain load), then drops its reference. Each subscribed input
 * resolves in one of three ways, chosen nondeterministically: it contributes (a fulfilment for
 * fulfillingWhen, a failure for firstFulfilled, anything for allResolved), it decides (a failure
 * for fulfillingWhen, a fulfilment for firstFulfilled), or it never resolves (its callback is
 * dropped unrun when its future goes). Then it drops its reference. -DFIRST_RESOLVED models
 * firstResolved: REMAINING starts at 0 and every input decides or never resolves.
 *
 * ORDERING. Memory is sequentially consistent, and the word's memory orderings are modelled as
 * what they give: happens-before. Each access to the tail and to the header is an EVENT: a
 * contributor's write of its element (W(i)), the take of the result (TAKE), the tail's release
 * or move (TAIL). A party's events are PUBLISHED by its next release on the word (a FULL leave
 * or decide, a RELEASE retire); a party that acquires the word (a FULL leave or decide, deinit's
 * ACQUIRE load) SEES every event published before. Every operation on the word is a
 * read-modify-write or reads the latest value, so a release heads a release sequence that every
 * later acquire reads from: "published before the acquire" is exactly happens-before. A read
 * or release of the tail must see every write it covers, and deinit, which frees everything,
 * must see every event; a party's own events are ordered by its program order.
 *
 * CHECKED (assertions; pan also reports invalid end states):
 *   (1) the combined future is resolved at most once, and exactly once if an input decided
 *       (with that decider's outcome) or every input contributed (with the completed one);
 *       otherwise never, and its storage is destroyed with the header: disposed exactly once
 *   (2) the result is taken at most once, and RESULT_TAKEN says whether it was
 *   (3) the tail is released exactly once (by the completer, the winning decider, the last
 *       writer after a decision, or deinit), and TAIL_RELEASED says whether deinit must
 *   (4) nothing reads or writes the tail after its release: no contribution written after it,
 *       no completion or release reading it after it
 *   (5) every read or release of the tail happens after the writes it covers, and deinit
 *       happens after every event (no race, no use after free); nobody touches the state after
 *       deinit, which runs exactly once
 *   (6) the completer finds every contribution written; no enter is refused before a decision
 *   final: WRITING is 0, and every reference was dropped.
 *
 * GRANULARITY. Each move of the word is one atomic step. The CAS loops of enter and decide
 * are one read-modify-write each: a failed CAS writes nothing and retries with the value it
 * saw, so each run of such a loop is equivalent to one that reads and succeeds (or refuses) at
 * the moment of its last CAS (-DLITERAL_LOOPS writes them out: a plain load, then CAS retries;
 * same result). A contributor's write of its element is one step. The completer's outcome built
 * from the tail (every element moved out) and its take of the result are one step: it owns both
 * then, as the decider owns the result and the tail it releases. The resolution of the storage
 * is folded into the retire before it, deinit into the drop of the last reference, and all
 * ghost bookkeeping into the step it describes. printf lines only narrate counterexamples
 * (spin -t): P0 is the maker, P1 .. P4 the inputs; pan ignores them.
 *
 * SEEDED BUGS (spin -D<NAME> -a petal_combinator.pml), all expected to FAIL:
 *   RELAXED_LEAVE        the leave is a relaxed fetch-add: it neither publishes the write nor
 *                        acquires the others'
 *   NO_WRITING_CHECK     the decider releases the tail whatever WRITING says
 *   ENTER_AFTER_DECIDED  enter does not refuse a decided word
 *   LEAVE_IGNORES_DECIDED  the leave that takes WRITING to 0 releases the tail without DECIDED
 *   SECOND_DECIDER       decide does not refuse a decided word
 *   RELAXED_RETIRE       retire is relaxed: deinit frees what it cannot see finished
 *   COMPLETE_IGNORES_DECIDED  the leave that takes REMAINING to 0 completes although a decider
 *                        won: the rule that crashed the example service, when a request decided
 *                        while every input still wrote (the result taken twice, the second time
 *                        from an empty field)
 *   DECIDE_AFTER_COMPLETE  decide does not refuse a completed word (REMAINING 0): a request that
 *                        comes after the completer's leave takes the result again
 *
 * THE REQUESTER (P(INPUTS + 1); left out with -DNO_REQUEST): a cancellation request on the
 * combined future decides it through the same one-shot, from the combined future's record, at
 * any moment, while holding its own reference to the state. It is not an input, so it breaks
 * "each input contributes or decides, never both": every input may contribute after it. Hence
 * the two rules above: a leave completes only on a word not DECIDED, and a decision is refused
 * once REMAINING is 0. firstResolved, whose inputs never contribute, expects one contribution
 * that never comes (REMAINING starts at 1), so that REMAINING 0 always means completed.
 *
 * THE VOTES (-DVOTES: the combinator as `CombinatorState.combine` builds it with
 * cancellingUpstream, the shape of the crash under clients that leave). Three more things
 * race the word:
 *   - THE SHARED RECEIVER. The inputs' callbacks do not hold the state: each holds one
 *     reference to the one InputReceiver of the call (`Callback.input(receiver, index:)`), whose
 *     closure holds the state. The maker holds the receiver while it subscribes; the drop of
 *     the receiver's last reference drops the receiver's reference to the state.
 *   - THE COMBINED FUTURE'S RECORD, an action list [ANSWER, VOTES] closed exactly once: by a
 *     request (`answerCancellationRequest`), by a decider giving up (`giveUpUpstream`, which
 *     closes it as a request would), or by the combined future's resolution (`releaseActions`:
 *     released unrun). ANSWER (registered at the first link, before any input is subscribed)
 *     holds a reference to the state and decides the result cancelled; VOTES (registered by
 *     `addUpstreamVotes` after the maker's loop: run at once if a request or a decider closed
 *     the list meanwhile, released if the resolution did) casts one vote on each input the
 *     maker counted. The record's own protocol is petal_cancellation.pml's; here each close
 *     and each registration is one atomic step. The requester asks once, unless the combined
 *     future is resolved already: it closes the list and runs what it took, ANSWER first.
 *   - THE RETAINED POINTER (the header's result field, `Unmanaged.passRetained(result)`):
 *     taken once, by the completer or the winning decider, never read after: a decider's take
 *     comes after its decision is won, and deinit releases it only if nobody took it.
 * An input no longer resolves and goes away unrun (a promise dropped unresolved cancels its
 * future): it resolves on its own, or it WAITS for its vote (its producer is asked to stop and
 * it is cancelled: then it contributes or decides, as its combinator treats a cancellation),
 * or, if no vote ever comes (spin's `timeout`: nothing else can move), it stays pending for
 * ever and its callback holds the receiver, so the state is rightly never freed.
 * CHECKED besides (1)-(6): (7) no input is voted on twice by this combined future; (8) once
 * the combined future gives up (a decider won), every input the maker counted is voted on
 * exactly once, so no input waits for ever; votes are cast only if it gave up or a request
 * closed the list; (9) ANSWER runs at most once and its reference is dropped exactly once,
 * run or released (the state is freed exactly when no input is pending for ever); the receiver
 * is freed exactly once, never used after.
 * SEEDED BUGS of this configuration (spin -DVOTES -D<NAME>), all expected to FAIL:
 *   GIVE_UP_WITHOUT_CLOSE  a decider gives up by running the actions without closing the list:
 *                        a request runs them too (an input voted on twice)
 *   LATE_VOTES_RELEASED  the votes registered after the maker's loop are released unrun when a
 *                        decider closed the list meanwhile (the inputs counted wait for ever)
 *   RECEIVER_UNOWNED     the receiver's closure holds the state unowned: the state is freed
 *                        while inputs' callbacks still reach it through the receiver
 *   TAKE_BEFORE_DECIDE   a decider takes the retained pointer before its decision is won: a
 *                        refused decider reads the emptied field
 *   RESOLVE_KEEPS_ACTIONS  the combined future's resolution leaves the list open: ANSWER's
 *                        reference to the state is never dropped (a leak per request)
 */

#ifndef INPUTS
#define INPUTS 3
#endif

/* ---- the word: CombinatorWord's layout, count width 4 ------------------------------------- */
#define K              4
#define COUNT_MASK     15
#define WRITER         16        /* 1 << K */
#define DECIDED        256       /* 1 << 2K */
#define RESULT_TAKEN   512       /* 1 << (2K + 1) */
#define TAIL_RELEASED  1024      /* 1 << (2K + 2) */
#define LEAVE_SUBTRACTS 17       /* a leave adds 0 &- (WRITER + 1) */

#define remaining(w)   ((w) & COUNT_MASK)
#define writing(w)     (((w) >> K) & COUNT_MASK)
#define is_decided(w)  (((w) & DECIDED) != 0)
#define is_tail_released(w) (((w) & TAIL_RELEASED) != 0)

/* ---- duties (CombinatorWord.Duty) and the flags each retires ------------------------------- */
#define NOTHING                  0
#define COMPLETE                 1
#define RELEASE_TAIL             2
#define RESOLVE                  3
#define RESOLVE_AND_RELEASE_TAIL 4

#define retired_bits(d) \
    ((d) == COMPLETE || (d) == RESOLVE_AND_RELEASE_TAIL -> (RESULT_TAKEN | TAIL_RELEASED) : \
     ((d) == RELEASE_TAIL -> TAIL_RELEASED : ((d) == RESOLVE -> RESULT_TAKEN : 0)))

/* CombinatorWord.leave(): the duty, from the word the leave left. */
#if defined(LEAVE_IGNORES_DECIDED)
#define leave_duty(left) \
    (remaining(left) == 0 -> COMPLETE : (writing(left) == 0 -> RELEASE_TAIL : NOTHING))
#elif defined(COMPLETE_IGNORES_DECIDED)
/* the rule before the request's decider was modelled: REMAINING 0 completes, decided or not */
#define leave_duty(left) \
    (remaining(left) == 0 -> COMPLETE : (is_decided(left) && writing(left) == 0 -> RELEASE_TAIL : NOTHING))
#else
#define leave_duty(left) \
    (is_decided(left) -> (writing(left) == 0 -> RELEASE_TAIL : NOTHING) : \
     (remaining(left) == 0 -> COMPLETE : NOTHING))
#endif

/* CombinatorWord.decide(): refused once DECIDED, or once REMAINING is 0 (a completion). */
#ifndef DECIDE_AFTER_COMPLETE
#define decide_refused(w) (is_decided(w) || remaining(w) == 0)
#else
#define decide_refused(w) (is_decided(w))
#endif

/* CombinatorWord.decide(): the duty, from the word the decision replaced. */
#ifndef NO_WRITING_CHECK
#define decide_duty(old) (writing(old) == 0 -> RESOLVE_AND_RELEASE_TAIL : RESOLVE)
#else
#define decide_duty(old) (RESOLVE_AND_RELEASE_TAIL)
#endif

/* ---- the rest of the state ----------------------------------------------------------------- */
#define LIVE      0
#define RELEASED  1
#define NIL       0
#define VALUE     1
#define COMPLETED 15             /* a resolution by completion (deciders are inputs 1 ..) */

short word;                      /* set by init */
bit tail = LIVE;                 /* the tail, as a whole */
bit slot[INPUTS];                /* each input's element: NIL or VALUE */
bit result_present = 1;          /* the header's result field */
byte refs = 1;                   /* the maker's reference; each subscription adds one */
bit freed = 0;                   /* deinit ran: the state is gone */

/* ---- ghost state ---------------------------------------------------------------------------- */
byte resolutions = 0;            /* resolutions of the combined storage */
byte resolution = 0;             /* COMPLETED, or the deciding input (1-based) */
byte disposed = 0;               /* the storage let go: resolved after its take, or destroyed */
byte takes = 0;
byte tail_releases = 0;
byte winner = 0;                 /* the input whose decide won (1-based) */
byte leaves = 0;                 /* leaves made: completion needs INPUTS of them */
byte deinits = 0;

#ifdef VOTES
/* The shared receiver, the combined future's record and the votes (see THE VOTES). */
#define OPEN                  0
#define CLOSED_BY_REQUEST     1
#define CLOSED_BY_RESOLUTION  2
byte receiver_refs = 1;          /* the maker's `receiver`; each subscription adds one */
bit receiver_freed = 0;
byte actions = OPEN;             /* the record's action list */
bit has_answer = 1;              /* ANSWER is in the list (registered at the first link) */
bit has_votes = 0;               /* VOTES is in the list */
bit requested = 0;
bit combined_resolved = 0;       /* the combined future's cell */
bit counted[INPUTS];             /* the maker counted the input as a dependent (in its loop) */
byte votes[INPUTS];              /* votes cast on each input by the combined future */
byte answers = 0;                /* runs of ANSWER */
byte forever = 0;                /* inputs pending for ever (no vote came) */
#endif

/* Events and their publication (see ORDERING). */
#define W(i)      (1 << (i))
#define ALL_W     ((1 << INPUTS) - 1)
#define TAKE      (1 << 5)
#define TAIL      (1 << 6)
byte done_events = 0;            /* every event that happened */
byte published = 0;              /* events some release on the word has published */

#define ALIVE()         assert(!freed)
#define PUBLISH()       published = published | mine; mine = 0
#define ACQUIRE()       seen = seen | published
/* The writes a read or release of the tail covers, all seen (its own are program-ordered). */
#define SEES_WRITES()   assert(((done_events & ALL_W) & ~(seen | mine)) == 0)

/* Releases (deinitializes or moves out) the tail: exactly once (3), never after (4), after
   every write it covers (5). */
#define RELEASE_THE_TAIL() \
    ALIVE(); \
    assert(tail == LIVE); \
    SEES_WRITES(); \
    printf("the tail is released (written elements %d, seen %d)\n", done_events & ALL_W, seen | mine); \
    tail = RELEASED; \
    tail_releases++; \
    mine = mine | TAIL; \
    done_events = done_events | TAIL

#define TAKE_THE_RESULT() \
    ALIVE(); \
    assert(result_present); \
    printf("the result is taken\n"); \
    result_present = 0; \
    takes++; \
    mine = mine | TAKE; \
    done_events = done_events | TAKE

/* retire: the duty's flags, each clear until now (2, 3); the storage is then resolved. */
#ifndef RELAXED_RETIRE
#define RETIRE_PUBLISHES() PUBLISH()
#else
#define RETIRE_PUBLISHES() skip
#endif
#define RETIRE(d, by, who) \
    atomic { \
        ALIVE(); \
        assert((word & retired_bits(d)) == 0); \
        printf("P%d retires duty %d: word %d -> %d\n", who, d, word, word + retired_bits(d)); \
        word = word + retired_bits(d); \
        RETIRE_PUBLISHES(); \
        if \
        :: (d) != RELEASE_TAIL -> resolutions++; assert(resolutions == 1); resolution = by; disposed++ \
        :: else -> skip \
        fi \
    }

/* Drops a reference; the last one runs deinit: an ACQUIRE load, the tail released unless
   TAIL_RELEASED, then the header and the state destroyed (the storage with it if untaken). */
#define DROP_REFERENCE(who) \
    atomic { \
        ALIVE(); \
        assert(refs > 0); \
        refs--; \
        printf("P%d drops its reference: refs %d\n", who, refs); \
        if \
        :: refs == 0 -> \
            deinits++; \
            w = word; \
            printf("P%d runs deinit: word %d (tail released: %d)\n", who, w, is_tail_released(w)); \
            ACQUIRE(); \
            assert(is_tail_released(w) == (tail == RELEASED)); \
            if \
            :: !is_tail_released(w) -> RELEASE_THE_TAIL() \
            :: else -> skip \
            fi; \
            assert((done_events & ~(seen | mine)) == 0); \
            if \
            :: result_present -> result_present = 0; disposed++ \
            :: else -> skip \
            fi; \
            freed = 1 \
        :: else -> skip \
        fi \
    }

#ifdef VOTES
/* ---- the votes: the receiver, the combined future's record (see THE VOTES) ------------------ */

/* Drops a reference to the receiver; the last one drops the receiver's reference to the state. */
#ifndef RECEIVER_UNOWNED
#define RECEIVER_RELEASES_STATE(who) if :: last -> DROP_REFERENCE(who) :: else -> skip fi
#else
#define RECEIVER_RELEASES_STATE(who) skip
#endif
#define DROP_RECEIVER(who) \
    atomic { \
        assert(!receiver_freed && receiver_refs > 0); \
        receiver_refs--; \
        last = (receiver_refs == 0); \
        printf("P%d drops its reference to the receiver: %d left\n", who, receiver_refs); \
        if \
        :: last -> receiver_freed = 1 \
        :: else -> skip \
        fi \
    } \
    RECEIVER_RELEASES_STATE(who)

/* closeForRequest: the first close takes the list (a, v: ANSWER and VOTES were in it). */
#ifndef GIVE_UP_WITHOUT_CLOSE
#define CLOSE_FOR_REQUEST(a, v, who) \
    atomic { \
        if \
        :: actions == OPEN -> \
            actions = CLOSED_BY_REQUEST; a = has_answer; v = has_votes; has_answer = 0; has_votes = 0; \
            printf("P%d closes the list for a request (answer %d, votes %d)\n", who, a, v) \
        :: else -> a = 0; v = 0 \
        fi \
    }
#define GIVE_UP_CLOSES(a, v, who) CLOSE_FOR_REQUEST(a, v, who)
#else
#define CLOSE_FOR_REQUEST(a, v, who) \
    atomic { \
        if \
        :: actions == OPEN -> \
            actions = CLOSED_BY_REQUEST; a = has_answer; v = has_votes; has_answer = 0; has_votes = 0 \
        :: else -> a = 0; v = 0 \
        fi \
    }
/* the decider runs what the list holds and leaves it open */
#define GIVE_UP_CLOSES(a, v, who) atomic { a = has_answer; v = has_votes }
#endif

/* VOTES runs: one vote on each input the maker counted, one step each (the input may respond
   between two). (7) */
#define CAST_VOTES(who) \
    j = 0; \
    do \
    :: j < INPUTS -> \
        atomic { \
            if \
            :: counted[j] -> votes[j]++; printf("P%d votes on P%d\n", who, j + 1); assert(votes[j] == 1) \
            :: else -> skip \
            fi; \
            j++ \
        } \
    :: else -> j = 0; break \
    od

/* giveUpUpstream, by the winning decider: closes the list as a request would and runs what it
   took: ANSWER (its decision refused: this thread decided) then VOTES; ANSWER, run, is released,
   dropping its reference. (9) */
#define GIVE_UP(who) \
    GIVE_UP_CLOSES(ga, gv, who); \
    if \
    :: ga -> \
        atomic { ALIVE(); answers++; assert(answers == 1); assert(decide_refused(word)) }; \
        DROP_REFERENCE(who) \
    :: else -> skip \
    fi; \
    if \
    :: gv -> CAST_VOTES(who) \
    :: else -> skip \
    fi; \
    ga = 0; gv = 0

/* The combined future resolves: its cell, then releaseActions (the list closed for the
   resolution, its actions released unrun: ANSWER's reference dropped). */
#ifndef RESOLVE_KEEPS_ACTIONS
#define RESOLVE_CLOSES() \
    if \
    :: actions == OPEN -> actions = CLOSED_BY_RESOLUTION; ga = has_answer; has_answer = 0; has_votes = 0 \
    :: else -> ga = 0 \
    fi
#else
#define RESOLVE_CLOSES() ga = 0
#endif
#define RESOLVE_COMBINED(who) \
    atomic { \
        assert(!combined_resolved); \
        combined_resolved = 1; \
        printf("P%d resolves the combined future\n", who); \
        RESOLVE_CLOSES() \
    } \
    if \
    :: ga -> DROP_REFERENCE(who) \
    :: else -> skip \
    fi; \
    ga = 0
#endif

/* ---- an input's callback: contribute ------------------------------------------------------- */
inline contribute(i) {
    /* enter */
#ifndef LITERAL_LOOPS
    atomic {
        ALIVE();
        w = word;
        if
#ifndef ENTER_AFTER_DECIDED
        :: is_decided(w) -> entered = 0; printf("P%d: enter refused (word %d)\n", i + 1, w)
#endif
        :: else -> word = w + WRITER; entered = 1; printf("P%d enters: word %d -> %d\n", i + 1, w, word)
        fi
    }
#else
    atomic { ALIVE(); w = word }                         /* load */
    do
    :: atomic {
            ALIVE();
            if
#ifndef ENTER_AFTER_DECIDED
            :: is_decided(w) -> entered = 0; printf("P%d: enter refused (word %d)\n", i + 1, w); break
#endif
            :: else ->
                if
                :: word == w ->
                    word = w + WRITER; entered = 1;
                    printf("P%d enters: word %d -> %d\n", i + 1, w, word);
                    break
                :: else -> w = word                      /* the value the CAS saw */
                fi
            fi
        }
    od;
#endif
    if
    :: !entered ->
        assert(is_decided(w))                            /* (6) */
    :: else ->
        atomic {                                         /* write this input's element */
            ALIVE();
            assert(tail == LIVE);                        /* (4) */
            slot[i] = VALUE;
            printf("P%d writes its element\n", i + 1);
            mine = mine | W(i);
            done_events = done_events | W(i)
        }
        atomic {                                         /* leave: fetch-add FULL */
            ALIVE();
            w = word - LEAVE_SUBTRACTS;
            printf("P%d leaves: word %d -> %d\n", i + 1, word, w);
            word = w;
            leaves++;
#ifndef RELAXED_LEAVE
            PUBLISH();
            ACQUIRE();
#endif
            duty = leave_duty(w)
        }
        if
        :: duty == COMPLETE ->
            atomic {                                     /* build the outcome, moving the tail out */
                printf("P%d completes\n", i + 1);
                assert(!is_decided(w));
                assert(tail == LIVE);                    /* (4) */
                j = 0;
                do
                :: j < INPUTS -> assert(slot[j] == VALUE); slot[j] = NIL; j++     /* (6) */
                :: else -> j = 0; break
                od;
                RELEASE_THE_TAIL();
                TAKE_THE_RESULT()
            }
            RETIRE(COMPLETE, COMPLETED, i + 1)
#ifdef VOTES
            RESOLVE_COMBINED(i + 1)
#endif
        :: duty == RELEASE_TAIL ->
            atomic {
                RELEASE_THE_TAIL();
                j = 0;
                do
                :: j < INPUTS -> slot[j] = NIL; j++
                :: else -> j = 0; break
                od
            }
            RETIRE(RELEASE_TAIL, 0, i + 1)
        :: else -> skip
        fi
    fi
}

/* ---- an input's callback: decide ----------------------------------------------------------- */
inline decide(i) {
#ifndef LITERAL_LOOPS
    atomic {
        ALIVE();
        w = word;
        if
#ifndef SECOND_DECIDER
        :: decide_refused(w) -> duty = NOTHING; printf("P%d: decision refused (word %d)\n", i + 1, w)
#endif
        :: else ->
            word = w | DECIDED;
            printf("P%d decides: word %d -> %d\n", i + 1, w, word);
            duty = decide_duty(w);
            winner = i + 1;
            PUBLISH();
            ACQUIRE()
        fi
    }
#else
    atomic { ALIVE(); w = word }                         /* load */
    do
    :: atomic {
            ALIVE();
            if
#ifndef SECOND_DECIDER
            :: decide_refused(w) -> duty = NOTHING; printf("P%d: decision refused (word %d)\n", i + 1, w); break
#endif
            :: else ->
                if
                :: word == w ->
                    word = w | DECIDED;
                    printf("P%d decides: word %d -> %d\n", i + 1, w, word);
                    duty = decide_duty(w);
                    winner = i + 1;
                    PUBLISH();
                    ACQUIRE();
                    break
                :: else -> w = word
                fi
            fi
        }
    od;
#endif
    if
    :: duty != NOTHING ->
        atomic {
            TAKE_THE_RESULT();
            if
            :: duty == RESOLVE_AND_RELEASE_TAIL ->
                RELEASE_THE_TAIL();
                j = 0;
                do
                :: j < INPUTS -> slot[j] = NIL; j++
                :: else -> j = 0; break
                od
            :: else -> skip
            fi
        }
        RETIRE(duty, i + 1, i + 1)
#ifdef VOTES
        GIVE_UP(i + 1);
        RESOLVE_COMBINED(i + 1)
#endif
    :: else ->
#ifdef TAKE_BEFORE_DECIDE
        atomic { TAKE_THE_RESULT() };
#endif
        skip
    fi
}

#ifndef VOTES
proctype Input(byte i) {
    short w;
    byte duty = NOTHING, j;
    bit entered;
    byte seen = 0, mine = 0;
    if
#ifndef FIRST_RESOLVED
    :: contribute(i)
#endif
    :: decide(i)
    :: printf("P%d never resolves\n", i + 1)
    fi;
    w = 0; duty = NOTHING; entered = 0;
    DROP_REFERENCE(i + 1)
}
#else
/* An input resolves on its own, or waits for its vote (then it is cancelled, which contributes
   or decides as its combinator treats a cancellation), or, if no vote ever comes, stays pending
   for ever, its callback holding the receiver. */
proctype Input(byte i) {
    short w;
    byte duty = NOTHING, j;
    bit entered, waits, ga, gv, last;
    byte seen = 0, mine = 0;
    if
    :: waits = 0
    :: waits = 1
    fi;
    if
    :: waits ->
        if
        :: votes[i] > 0 -> printf("P%d is asked by its vote: its producer stops, it is cancelled\n", i + 1)
        :: timeout -> forever++; printf("P%d stays pending for ever\n", i + 1); goto pending
        fi
    :: else -> skip
    fi;
    assert(!receiver_freed);                             /* (9) its callback holds the receiver */
    if
#ifndef FIRST_RESOLVED
    :: contribute(i)
#endif
    :: decide(i)
    fi;
    w = 0; duty = NOTHING; entered = 0;
    DROP_RECEIVER(i + 1);
pending:
    skip
}
#endif

/* The request's answer: a cancellation request that reaches the combined future decides it
   (cancelled) through the same one-shot, holding a reference to the state (its closure, in the
   combined future's cancellation record). It is no input: every input may still contribute. */
#ifndef VOTES
proctype Requester() {
    short w;
    byte duty = NOTHING, j;
    byte seen = 0, mine = 0;
    byte i = INPUTS;                                     /* its id: P(INPUTS + 1) */
    if
    :: decide(i)
    :: printf("P%d: no request\n", i + 1)
    fi;
    w = 0; duty = NOTHING;
    DROP_REFERENCE(i + 1)
}
#else
/* requestCancellation on the combined future: nothing once it is resolved; else the request is
   written (once), the list closed for it, and what the close took runs: ANSWER (the decision,
   then ANSWER released: its reference dropped), then VOTES. The state's reference is ANSWER's,
   not the requester's. */
proctype Requester() {
    short w;
    byte duty = NOTHING, j;
    bit asked, ra, rv, ga, gv, last;
    byte seen = 0, mine = 0;
    byte i = INPUTS;                                     /* its id: P(INPUTS + 1) */
    if
    :: atomic {
            if
            :: !combined_resolved && !requested -> requested = 1; asked = 1; printf("P%d requests\n", i + 1)
            :: else -> asked = 0
            fi
        }
        if
        :: asked ->
            CLOSE_FOR_REQUEST(ra, rv, i + 1);
            if
            :: ra ->
                atomic { ALIVE(); answers++; assert(answers == 1) };
                decide(i);
                w = 0; duty = NOTHING;
                DROP_REFERENCE(i + 1)
            :: else -> skip
            fi;
            if
            :: rv -> CAST_VOTES(i + 1)
            :: else -> skip
            fi
        :: else -> skip
        fi
    :: printf("P%d: no request\n", i + 1)
    fi
}
#endif

proctype Maker() {
    short w;
    byte i = 0, j;
    byte seen = 0, mine = 0;
#ifdef VOTES
    bit gv, last;
#endif
    do
    :: i < INPUTS ->
        if
        :: is_decided(word) -> printf("P0 sees DECIDED: stops subscribing\n"); break   /* the hint: a plain load */
#ifndef VOTES
        :: else -> atomic { ALIVE(); refs++; printf("P0 subscribes P%d\n", i + 1); run Input(i) }; i++
#else
        /* counted as a dependent of the input (dependOnUpstream), then subscribed: the
           callback holds the receiver */
        :: else -> atomic { ALIVE(); counted[i] = 1; receiver_refs++; printf("P0 counts and subscribes P%d\n", i + 1); run Input(i) }; i++
#endif
        fi
    :: else -> break
    od;
    i = 0;
#ifdef VOTES
    /* addUpstreamVotes(counted), after the loop: run at once if a request or a decider closed
       the list meanwhile, released if the resolution did */
    atomic {
        if
        :: actions == OPEN -> has_votes = 1; gv = 0
#ifndef LATE_VOTES_RELEASED
        :: actions == CLOSED_BY_REQUEST -> gv = 1
#else
        :: actions == CLOSED_BY_REQUEST -> gv = 0
#endif
        :: actions == CLOSED_BY_RESOLUTION -> gv = 0
        fi
    }
    if
    :: gv -> CAST_VOTES(0)
    :: else -> skip
    fi;
    DROP_RECEIVER(0);
#endif
    DROP_REFERENCE(0)
}

init {
    byte k;
    atomic {
#ifndef FIRST_RESOLVED
        word = INPUTS;                                   /* CombinatorWord(expecting: INPUTS) */
#else
        word = 1;                                        /* CombinatorWord(expecting: 0): one that never comes */
#endif
#ifndef NO_REQUEST
        refs++;                                          /* the request's answer holds the state */
        run Requester();
#endif
#if defined(VOTES) && !defined(RECEIVER_UNOWNED)
        refs++;                                          /* the receiver's closure holds the state */
#endif
        run Maker()
    }
    (_nr_pr == 1);                                       /* every other process has ended */
#ifdef VOTES
    k = 0;
    do
    :: k < INPUTS ->
        assert(votes[k] <= 1);                           /* (7) */
        if
        :: winner != 0 -> assert(votes[k] == counted[k]) /* (8) every counted input asked, once */
        :: else -> skip
        fi;
        if
        :: votes[k] > 0 -> assert(winner != 0 || requested)
        :: else -> skip
        fi;
        k++
    :: else -> break
    od;
    assert(answers <= 1);
    if
    :: forever > 0 ->                                    /* pending inputs hold the state: rightly */
        assert(!freed && !receiver_freed && winner == 0 && resolutions == 0 && actions == OPEN);
        goto checked
    :: else ->
        assert(receiver_freed && actions != OPEN)        /* (9) */
    fi;
#endif
    assert(freed && deinits == 1 && refs == 0);          /* (5) */
    assert(tail == RELEASED && tail_releases == 1);      /* (3) no leak */
    assert(disposed == 1 && takes == resolutions);       /* (1), (2) */
    if
    :: winner != 0 -> assert(resolutions == 1 && resolution == winner)
    :: else ->
        if
        :: leaves == INPUTS -> assert(resolutions == 1 && resolution == COMPLETED)
        :: else -> assert(resolutions == 0)
        fi
    fi;
    assert(writing(word) == 0);
checked:
    skip
}
