/*
 * petal_cancellation_pool.pml - CancellationPool's list (Sources/Petal/Cancellation/
 * CancellationPool.swift): a stack of entries whose head word adders move by compare-and-swap
 * with no lock, while a drain takes the whole list and a prune unlinks dead entries behind
 * the head, those two under one lock.
 *
 * The moves:
 *   add    (CancellationPool.add)    writes its own entry's `next` (the head it saw), then
 *                                    compares-and-swaps the head from that value to the entry;
 *                                    retried from the head found
 *   drain  (CancellationPool.drain)  under the lock, swaps the head to empty (a compare-and-
 *                                    swap loop), then walks the list it took, alone
 *   prune  (CancellationPool.prune)  under the lock, reads the head and keeps its first entry;
 *                                    behind it, unlinks every entry whose item is gone (its
 *                                    predecessor takes over its `next`): it never writes the
 *                                    head, which only adders and drains move
 * Entries are numbered 1..ENTRIES (0: none); an adder's entry is its own until its
 * compare-and-swap publishes it. Each entry's item may die at any moment (a reaper), and a
 * prune reads that at each step.
 *
 * ADDERS threads each add two entries; one drain and one prune run once, each at any moment.
 * At the end, the list left is walked from the head.
 *
 * Checked: every entry added is, at the end, in exactly one place: taken by the drain, unlinked
 * by the prune, or still in the list (nothing lost, nothing asked twice); the prune unlinks only
 * entries whose item was gone and never the first; a drain's list and the list left are each
 * in the order added within an adder (newest first, as a stack); no walk meets a cycle; every
 * thread ends.
 *
 * Seeded bugs (must fail): STORE_HEAD (an add stores the head without comparing),
 * LINK_AFTER_PUBLISH (an add writes its entry's `next` after publishing it), UNLOCKED_DRAIN
 * (the drain takes the list without the lock, racing the prune's walk), PRUNE_FIRST (the prune
 * unlinks a dead first entry by writing the head).
 */
/* The functions of CancellationPool that move its head (Scripts/check-model-conformance):
   @driver add
     Swift CancellationPool.add(_:)
   @driver drain
     Swift CancellationPool.drain()
*/
#ifndef ADDERS
#define ADDERS 2
#endif
#define PER_ADDER 2
#define ENTRIES 4  /* ADDERS * PER_ADDER */

byte head = 0;
byte next[ENTRIES + 1];
bool alive[ENTRIES + 1];
bool locked = false;
/* Ghosts: where each entry ended up. */
byte added[ENTRIES + 1];
byte drained[ENTRIES + 1];
byte pruned[ENTRIES + 1];
byte finished = 0;

inline lock() { atomic { !locked -> locked = true } }
inline unlock() { locked = false }

proctype adder(byte first) {
    byte e, seen, k = 0;
    do
    :: k < PER_ADDER ->
        e = first + k;
        alive[e] = true;
        seen = head;  /* the load (ACQUIRE) */
        do
        :: true ->
#ifndef LINK_AFTER_PUBLISH
            next[e] = seen;
#endif
            atomic {  /* @step add: head */
                if
#ifdef STORE_HEAD
                :: true -> head = e; added[e] = 1; break
#else
                :: head == seen -> head = e; added[e] = 1; break
#endif
                :: else -> seen = head
                fi
            }
        od;
#ifdef LINK_AFTER_PUBLISH
        next[e] = seen;
#endif
        k++
    :: else -> break
    od;
    finished++
}

/* An entry's item may go away at any moment. */
active proctype reaper() {
    do
    :: finished == ADDERS + 2 -> break
    :: alive[1] -> alive[1] = false
    :: alive[2] -> alive[2] = false
    :: alive[3] -> alive[3] = false
    :: alive[4] -> alive[4] = false
    od
}

proctype drainer() {
    byte taken, e, count = 0, lastOf[ADDERS];
#ifndef UNLOCKED_DRAIN
    lock();
#endif
    atomic {  /* @step drain: head */
        taken = head; head = 0
    }
#ifndef UNLOCKED_DRAIN
    unlock();
#endif
    /* The list is the drain's alone now. */
    e = taken;
    do
    :: e != 0 ->
        assert(count < ENTRIES);  /* no cycle */
        drained[e]++;
        /* Newest first within an adder: an adder's entries are numbered in the order added. */
        if
        :: lastOf[(e - 1) / PER_ADDER] != 0 -> assert(e < lastOf[(e - 1) / PER_ADDER])
        :: else -> skip
        fi;
        lastOf[(e - 1) / PER_ADDER] = e;
        count++;
        e = next[e]
    :: else -> break
    od;
    finished++
}

proctype pruner() {
    byte first, previous, e, count = 0;
    lock();
    first = head;
    if
    :: first != 0 ->
#ifdef PRUNE_FIRST
        if
        :: !alive[first] -> atomic { head = next[first]; pruned[first]++ }; first = 0
        :: else -> skip
        fi;
#endif
        previous = first;
        do
        :: previous != 0 && next[previous] != 0 ->
            assert(count < ENTRIES);
            e = next[previous];
            if
            :: !alive[e] ->
                next[previous] = next[e];
                next[e] = 0;
                pruned[e]++
            :: else -> previous = e
            fi;
            count++
        :: else -> break
        od
    :: else -> skip
    fi;
    unlock();
    finished++
}

init {
    byte i = 0, e, count = 0, lastOf[ADDERS];
    atomic {
        do
        :: i < ADDERS -> run adder(1 + i * PER_ADDER); i++
        :: else -> break
        od;
        run drainer();
        run pruner()
    }
    finished == ADDERS + 2;
    /* The list left, walked from the head. */
    e = head;
    do
    :: e != 0 ->
        assert(count < ENTRIES);
        if
        :: lastOf[(e - 1) / PER_ADDER] != 0 -> assert(e < lastOf[(e - 1) / PER_ADDER])
        :: else -> skip
        fi;
        lastOf[(e - 1) / PER_ADDER] = e;
        assert(drained[e] == 0 && pruned[e] == 0);
        drained[e] = 2;  /* marked: in the list */
        count++;
        e = next[e]
    :: else -> break
    od;
    /* Every entry in exactly one place. */
    i = 1;
    do
    :: i <= ENTRIES ->
        assert(added[i] == 1);
        assert((drained[i] == 1 && pruned[i] == 0) || (drained[i] == 2 && pruned[i] == 0)
               || (drained[i] == 0 && pruned[i] == 1));
        i++
    :: else -> break
    od
}
