/*
 * petal_block_cache.pml - the C core's cache of waiter blocks (Sources/CPetal/
 * petal_block_cache.c): a thread's home, whose `remote` stack other threads push the blocks
 * they free onto with a compare-and-swap, which its owner empties whole with an exchange, and
 * which the owner marks ABANDONED when its thread exits; and the home's `refs`, the blocks of
 * the home that exist plus one while its thread lives, whoever drops it to zero freeing the home.
 *
 * The moves:
 *   allocate   (petal_block_allocate)   a block from malloc counts one more reference
 *   take       (petal_block_home_take)  the owner swaps `remote` to 0 (or to ABANDONED), a
 *                                       compare-and-swap loop, and owns the list it took
 *   reuse      (petal_block_reuse)      the owner takes `remote` when nothing else is cached
 *   give_back  (petal_block_return)     another thread links the last block of its chain to
 *                                       the head it saw, then compares-and-swaps the head from
 *                                       that value to its first block; retried from the head
 *                                       found; on ABANDONED, frees the chain instead
 *   release    (petal_block_release)    free() of a block, then one reference less; the one
 *                                       that takes the count to zero frees the home
 *   keep       (petal_block_keep)       the owner keeps a block it freed, or releases it when
 *                                       it keeps enough
 *   exit       (petal_block_home_exit)  the thread exits: its local and taken blocks released,
 *                                       `remote` taken with ABANDONED left in it and what it
 *                                       held released, then the thread's own reference dropped
 * Blocks are numbered 1..BLOCKS (0: none). The owner allocates three and hands them to two
 * returners as a drain would: a chain of two to one, one block to the other. It then reuses
 * what comes back (taking `remote` when its taken list is empty): a reused block goes to a
 * returner again (a second life, at most REUSES of them, so that a head a returner saw may be
 * pushed again meanwhile: the ABA a pop would suffer, which a push does not) or is freed by
 * the owner itself (kept, or released past LOCAL_LIMIT). It stops at any moment and exits,
 * while the returners may still be returning.
 *
 * Checked: no access to the home after it is freed, and no reference count below zero; a
 * block is never pushed, taken or freed from the wrong place (ghost `where`); at the end, every
 * block went to free() exactly once, the home was freed, and `remote` holds ABANDONED (nothing
 * lost, nothing freed twice, the home freed once the last block is back); every thread ends.
 *
 * Seeded bugs (must fail): STORE_PUSH (a return stores the head without comparing),
 * LINK_AFTER_PUBLISH (a return links its chain after publishing it), NO_ABANDON (the exit
 * leaves `remote` empty, not ABANDONED), IGNORE_ABANDONED (a return pushes onto an abandoned
 * home), EXIT_FREES_HOME (the exit frees the home instead of dropping its own reference).
 */
/* The functions of petal_block_cache.c that move a home's words (Scripts/check-model-conformance):
   @driver allocate
     C petal_block_allocate
   @driver take
     C petal_block_home_take
   @driver reuse
     C petal_block_reuse
   @driver give_back
     C petal_block_return
   @driver release
     C petal_block_release
   @driver release_list
     C petal_block_release_list
   @driver keep
     C petal_block_keep
   @driver exit
     C petal_block_home_exit
*/
#define BLOCKS 3
#define RETURNERS 2
#define REUSES 2
#define LOCAL_LIMIT 1
#define ABANDONED 255

/* A return that does not look for ABANDONED (a seeded bug). */
#ifdef IGNORE_ABANDONED
#define IGNORE true
#else
#define IGNORE false
#endif

/* Where a block is (ghost). */
#define OUT 1      /* with a returner, or handed out by the owner */
#define STACKED 2  /* in `remote` */
#define OWNED 3    /* in the owner's taken or local (`kept`) list */
#define FREED 4

byte remote = 0;
byte refs = 1;  /* + 1 while the owner's thread lives */
bool home_freed = false;
byte next[BLOCKS + 1];
byte where[BLOCKS + 1];
byte freed[BLOCKS + 1];
byte finished = 0;
chan chains = [4] of { byte, byte };  /* first, last; 0, 0: no more */

/* free() of block b, then its home's reference dropped. */
inline release(b) {
    assert(where[b] != FREED);
    where[b] = FREED;
    freed[b]++;
    atomic {  /* @step release: refs */
        assert(!home_freed && refs > 0);
        refs--;
        if
        :: refs == 0 -> home_freed = true
        :: else -> skip
        fi
    }
}

/* Every block of the list from `first`, linked by `next`. */
inline release_list(first) {
    b = first;
    do
    :: b != 0 -> nb = next[b]; release(b); b = nb  /* @step release_list: refs */
    :: else -> break
    od
}

/* The owner swaps `remote` for `keep` and owns what it held (the ghost walks it). */
inline take(keep, list) {
    atomic {  /* @step take: remote */
        assert(!home_freed);
        list = remote;
        remote = keep
    }
    if
    :: list != ABANDONED ->
        b = list;
        do
        :: b != 0 -> assert(where[b] == STACKED); where[b] = OWNED; b = next[b]
        :: else -> break
        od
    :: else -> skip
    fi
}

proctype returner() {
    byte first, last, seen, b, nb;
    do
    :: chains ? first, last ->
        if
        :: first == 0 -> break
        :: else -> skip
        fi;
        assert(!home_freed);
        seen = remote;  /* the load */
        do
        :: seen == ABANDONED && !IGNORE ->
            next[last] = 0;
            release_list(first);  /* @step give_back: refs */
            break
        :: else ->
#ifndef LINK_AFTER_PUBLISH
            next[last] = seen;
#endif
            atomic {  /* @step give_back: remote */
                assert(!home_freed);
                if
#ifdef STORE_PUSH
                :: true ->
#else
                :: remote == seen ->
#endif
                    remote = first;
                    b = first;
                    do
                    :: b != 0 && b != ABANDONED && where[b] == OUT -> where[b] = STACKED; b = (b == last -> 0 : next[b])
                    :: else -> break
                    od;
                    break
                :: else -> seen = remote
                fi
            }
        od;
#ifdef LINK_AFTER_PUBLISH
        next[last] = seen;
#endif
    od;
    finished++
}

active proctype owner() {
    byte taken = 0, kept = 0, kept_count = 0, lives = 0, list, b, nb, k = 1;
    do
    :: k <= BLOCKS ->
        where[k] = OUT;
        atomic { assert(!home_freed); refs++ }  /* @step allocate: refs */
        k++
    :: else -> break
    od;
    run returner();
    run returner();
    next[1] = 2;
    chains ! 1, 2;
    chains ! 3, 3;
    do
    :: lives < REUSES ->
        if
        :: taken == 0 && remote != 0 -> take(0, taken)  /* @step reuse: remote */
        :: else -> skip
        fi;
        if
        :: taken != 0 ->
            b = taken;
            taken = next[b];
            lives++;
            if
            :: where[b] = OUT; chains ! b, b  /* another life, on another thread */
            :: kept_count < LOCAL_LIMIT -> next[b] = kept; kept = b; kept_count++
            :: else -> release(b)  /* @step keep: refs */
            fi
        :: else -> skip
        fi
    :: break
    od;
    chains ! 0, 0;
    chains ! 0, 0;
    /* The thread exits. */
    release_list(kept);  /* @step exit: refs */
    release_list(taken);  /* @step exit: refs */
#ifdef NO_ABANDON
    take(0, list);  /* @step exit: remote */
#else
    take(ABANDONED, list);  /* @step exit: remote */
#endif
    if
    :: list != ABANDONED -> release_list(list)  /* @step exit: refs */
    :: else -> skip
    fi;
#ifdef EXIT_FREES_HOME
    atomic { home_freed = true }
#else
    atomic {  /* @step exit: refs */
        assert(!home_freed && refs > 0);
        refs--;
        if
        :: refs == 0 -> home_freed = true
        :: else -> skip
        fi
    }
#endif
    finished++;
    (finished == RETURNERS + 1);
    k = 1;
    do
    :: k <= BLOCKS -> assert(freed[k] == 1); k++
    :: else -> break
    od;
    assert(home_freed && remote == ABANDONED)
}
