/*
 * petal_retry_budget.pml - RetryBudget's bucket of tokens (Sources/Petal/Resilience/
 * RetryBudget.swift): one word of token units moved by compare-and-swap from any number of
 * threads, never under a lock.
 *
 * The word holds units (a token is TOKEN units); it starts full, at CAP (the burst). Its moves,
 * each a FULL compare-and-swap (sequentially consistent here) from the value a load saw,
 * retried from the value found when it fails:
 *   deposit   (a first call begins)      while below CAP: + SHARE, capped at CAP; full: no write
 *   withdraw  (an extra call asks)       while at least TOKEN: - TOKEN, and the call is sent;
 *                                        below TOKEN: refused, no write
 *   giveBack  (a call let through never  + TOKEN, capped at CAP
 *              started)
 * The counters beside it (sent, refused, given back) are added to, not compared: no protocol.
 *
 * DEPOSITORS threads each deposit twice; WITHDRAWERS threads each ask once, and one that was let
 * through may give its token back (left to chance: its call was decided before it started).
 * Ghost counters: added, the units deposits and give-backs actually put in (after the cap);
 * taken, the tokens withdrawn.
 *
 * Checked after every move: the word is between 0 and CAP; it holds exactly CAP + added -
 * taken * TOKEN (no move lost, none counted twice); a withdrawal that succeeds found a whole
 * token; every thread ends. So the extra calls sent are at most the burst plus the share of the
 * first calls plus the tokens given back, the budget's promise (issue 56: a backend that is
 * down sees at most 1 + share times its calls).
 *
 * Seeded bugs (must fail): LOST_UPDATE (a withdrawal stores its value without comparing),
 * NO_CAP (a deposit past the burst), UNCHECKED_WITHDRAW (a withdrawal that does not look for a
 * whole token), GIVE_BACK_UNCAPPED (a token given back past the burst).
 */
/* The functions of RetryBudget that move its word (Scripts/check-model-conformance):
   @driver deposit
     Swift RetryBudget.deposit()
   @driver withdraw
     Swift RetryBudget.withdraw()
   @driver give_back
     Swift RetryBudget.giveBack()
*/
#ifndef DEPOSITORS
#define DEPOSITORS 2
#endif
#ifndef WITHDRAWERS
#define WITHDRAWERS 3
#endif
#define TOKEN 2
#define SHARE 1
#define CAP 3

byte tokens = CAP;
byte added = 0;
byte taken = 0;

inline consistent() {
    assert(tokens <= CAP);
    assert(tokens + taken * TOKEN == CAP + added)
}

proctype depositor() {
    byte seen, next, round = 0;
    do
    :: round < 2 ->
        seen = tokens;  /* the load (ACQUIRE) */
        do
        :: seen < CAP ->
#ifdef NO_CAP
            next = seen + SHARE + CAP;
#else
            next = seen + SHARE;
            if :: next > CAP -> next = CAP :: else -> skip fi;
#endif
            atomic {  /* @step deposit: tokens */
                if
                :: tokens == seen -> added = added + next - seen; tokens = next; consistent(); break
                :: else -> seen = tokens
                fi
            }
        :: else -> break  /* full: one load and no write */
        od;
        round++
    :: else -> break
    od
}

proctype withdrawer() {
    byte seen, next;
    bool sent = false;
    seen = tokens;
    do
#ifdef UNCHECKED_WITHDRAW
    :: true ->
#else
    :: seen >= TOKEN ->
#endif
        atomic {  /* @step withdraw: tokens */
            if
#ifdef LOST_UPDATE
            :: true ->
#else
            :: tokens == seen ->
#endif
                assert(seen >= TOKEN);
                tokens = seen - TOKEN; taken++; consistent(); sent = true; break
            :: else -> seen = tokens
            fi
        }
    :: else -> break  /* refused */
    od;
    /* A call let through that never started gives its token back. */
    if
    :: sent ->
        seen = tokens;
        do
        :: true ->
#ifdef GIVE_BACK_UNCAPPED
            next = seen + TOKEN;
#else
            next = seen + TOKEN;
            if :: next > CAP -> next = CAP :: else -> skip fi;
#endif
            atomic {  /* @step give_back: tokens */
                if
                :: tokens == seen -> added = added + next - seen; tokens = next; consistent(); break
                :: else -> seen = tokens
                fi
            }
        od
    :: sent -> skip
    :: else -> skip
    fi
}

init {
    atomic {
        byte i = 0;
        do
        :: i < DEPOSITORS -> run depositor(); i++
        :: else -> break
        od;
        i = 0;
        do
        :: i < WITHDRAWERS -> run withdrawer(); i++
        :: else -> break
        od
    }
}
