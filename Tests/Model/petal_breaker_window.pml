/*
 * petal_breaker_window.pml - a bucket of CircuitBreaker's sliding window, and the window's start
 * (Sources/Petal/Resilience/BreakerWindow.swift): words moved by compare-and-swap from any
 * number of threads, never under a lock.
 *
 * Each period has a bucket in each of the window's stripes (a thread counts in its own); the
 * stripes share no word and each bucket moves as the one here, so that one is the model of each
 * (the totals sum them, and a restart empties each in turn before it raises `start`).
 *
 * A bucket is one word: the period it counts (a slice of time, or a run of calls) and its
 * count of calls (the failures and slow calls beside it move with it and are left out here:
 * they are bits of the same word, set by the same moves). Its moves, each a FULL
 * compare-and-swap (sequentially consistent here) from the value a load saw, retried from the
 * value found when it fails:
 *   record  (BreakerWindow.record)    a call of period p, of weight w (1, or the calls a
 *                                     sampled success stands for):
 *                                       bucket holds p, count + w <= FIELD  ->  count + w
 *                                       bucket holds p, count + w > FIELD   ->  nothing (saturated)
 *                                       bucket holds an older period        ->  p, count w
 *                                       bucket holds a newer period    ->  nothing (the call
 *                                         is out of the window)
 *   restart (BreakerWindow.restart)   the breaker closing at period p: a bucket holding p or
 *                                     an older period -> p, count 0; a newer one is left. Then
 *                                     `start` is raised to p, never lowered.
 * Periods here are small integers, compared as such: the code's 16-bit tags compare by their
 * wrapped difference, which the unit tests cover (CircuitBreakerWindowTests).
 *
 * RECORDERS threads each record one call, of a period left to chance (a thread that read the
 * clock long ago records an old one), the first of weight 2 and the others of 1; RESTARTERS threads each restart at a period left to
 * chance. Ghost counters say what each caller was told: made[p], the calls (weights) of period p
 * that a record counted; cleared[p], those of them a fresh start or a restart then emptied.
 *
 * Checked after every move (the only steps that change the words or the ghosts, so in every
 * state): the bucket's count is exactly the calls of its period counted and
 * not emptied (none of another period in it, none of its own lost), and every other period's
 * counted calls were all emptied; the count never passes FIELD; a record empties only an
 * older period, a restart only its own or an older one; `start` never moves down (each write
 * at least the value it replaces); every thread ends.
 *
 * Seeded bugs (must fail): LOST_UPDATE (a record stores its new value without comparing),
 * NO_FRESH_START (a record keeps an older period's count under its own), OLD_INTO_NEW (a call
 * of an older period counted in the newer one's bucket), ERASE_NEWER (a restart empties a
 * bucket a newer period took), NO_SATURATION (the count passes its field), SATURATION_BY_ONE
 * (saturation checked as if every call weighed one, so that a weighted call carries past the
 * field), LOWER_START (start stored, not raised, so that a late restart moves it back).
 */
/* The functions of BreakerWindow that move its words (Scripts/check-model-conformance):
   @driver record
     Swift BreakerWindow.record(period:failed:slow:weight:)
   @driver restart
     Swift BreakerWindow.restart(elapsed:)
*/
#ifndef RECORDERS
#define RECORDERS 3
#endif
#ifndef RESTARTERS
#define RESTARTERS 2
#endif
#define PERIODS 3
/* The count's field: smaller than RECORDERS, so that a bucket saturates. */
#define FIELD 2

byte tag = 0;
byte count = 0;
byte start = 0;
byte made[PERIODS];
byte cleared[PERIODS];
byte q;  /* the invariant's loop index (a global: it is only used inside atomic steps) */

/* What every state must satisfy: checked after every move, inside the move's atomic step, which
   is the only place the words and the ghost counters change. */
inline consistent() {
    assert(count <= FIELD);
    assert(made[tag] - cleared[tag] == count);
    q = 0;
    do
    :: q < PERIODS -> assert(q == tag || made[q] == cleared[q]); q++
    :: else -> break
    od
}

proctype recorder(byte w) {
    byte p, seenTag, seenCount, nextCount;
    if :: p = 0 :: p = 1 :: p = 2 fi;
    atomic { seenTag = tag; seenCount = count }  /* the load (ACQUIRE) */
    do
    :: true ->
        if
        :: seenTag == p ->
#ifdef NO_SATURATION
            skip;
#else
#ifdef SATURATION_BY_ONE
            if :: seenCount >= FIELD -> break :: else -> skip fi;
#else
            if :: seenCount + w > FIELD -> break :: else -> skip fi;
#endif
#endif
            nextCount = seenCount + w
        :: seenTag < p ->
#ifdef NO_FRESH_START
            nextCount = seenCount + w
#else
            nextCount = w
#endif
        :: seenTag > p ->
#ifdef OLD_INTO_NEW
            atomic {
                if
                :: tag == seenTag && count == seenCount -> count = count + w; made[p] = made[p] + w; consistent(); break
                :: else -> seenTag = tag; seenCount = count
                fi
            }
#else
            break  /* a newer period took the bucket: this call is out of the window */
#endif
        fi;
        atomic {  /* @step record: bucket */
            if
#ifdef LOST_UPDATE
            :: true ->
#else
            :: tag == seenTag && count == seenCount ->
#endif
                if
                :: seenTag != p ->
                    /* A fresh start: what the older period counted is emptied. */
                    assert(seenTag < p);
#ifndef NO_FRESH_START
                    cleared[seenTag] = cleared[seenTag] + seenCount
#endif
                :: else -> skip
                fi;
                tag = p; count = nextCount; made[p] = made[p] + w;
                consistent();
                break
            :: else -> seenTag = tag; seenCount = count
            fi
        }
    od
}

proctype restarter() {
    byte p, seenTag, seenCount, first;
    if :: p = 0 :: p = 1 :: p = 2 fi;
    atomic { seenTag = tag; seenCount = count }
    do
#ifdef ERASE_NEWER
    :: true ->
#else
    :: seenTag <= p ->
#endif
        atomic {  /* @step restart: bucket */
            if
            :: tag == seenTag && count == seenCount ->
                assert(seenTag <= p);
                cleared[seenTag] = cleared[seenTag] + seenCount;
                tag = p; count = 0;
                consistent();
                break
            :: else -> seenTag = tag; seenCount = count
            fi
        }
    :: else -> break
    od;
    first = start;
    do
    :: first < p ->
        atomic {  /* @step restart: start */
#ifdef LOWER_START
            assert(p >= start); start = p; break
#else
            if
            :: start == first -> assert(p >= start); start = p; break
            :: else -> first = start
            fi
#endif
        }
    :: else -> break
    od
}

init {
    atomic {
        /* The first recorder's call is a sampled success of weight 2; the others count 1 each. */
        run recorder(2);
        byte i = 1;
        do
        :: i < RECORDERS -> run recorder(1); i++
        :: else -> break
        od;
        i = 0;
        do
        :: i < RESTARTERS -> run restarter(); i++
        :: else -> break
        od
    }
}
