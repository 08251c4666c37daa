#!/bin/sh
# Model-checks the petal cell protocol v2 (petal_cell.pml: waiter blocks), the sleep until a
# cell is RESOLVED (petal_wait.pml: PARKED and the parking table) and the combinator word
# (petal_combinator.pml: contributors and deciders sharing one word), the start gate
# (petal_start_gate.pml), the concurrency limit (petal_limit.pml), the cancellation record
# (petal_cancellation.pml), a timeout's deadline entry (petal_deadline.pml),
# PromiseBatch's slots (petal_batch.pml) and its stops' cells (petal_batch_cells.pml), the circuit breaker's word (petal_breaker.pml) and its
# window's buckets (petal_breaker_window.pml), RetryBudget's tokens (petal_retry_budget.pml) and
# CancellationPool's list (petal_cancellation_pool.pml), a job's state (petal_job_state.pml),
# the diagnostics' site table (petal_site_tally.pml) and the C core's block cache
# (petal_block_cache.pml: a thread's stack of returned blocks and its home's count) with
# spin, full state-space search.
#
#   Every correct configuration must verify with 0 errors and a completed search.
#   Every seeded-bug variant must make spin report an error (its counterexample is narrated).
#
# Exits 0 only if both hold. Needs spin and a C compiler (Debian: apt-get install -y spin gcc).
# Environment: CC (default cc); PAN_CFLAGS (pan's compile flags, default -DCOLLAPSE, which
# stores states in a quarter of the memory for a few per cent more time); LITERAL=1 also
# verifies the configuration with the resolver's CAS loops written out (-DLITERAL_LOOPS:
# about 2 minutes and 2.3 GB more); KEEP=1 keeps the build directory. Builds in a temporary
# directory: nothing lands in the tree.
set -u

here=$(cd "$(dirname "$0")" && pwd)
model=petal_cell.pml
CC=${CC:-cc}
PAN_CFLAGS=${PAN_CFLAGS--DCOLLAPSE}
# Must fail: the specification as first written (the two leaks of the README's findings: every
# older block counted as full, and a spare block kept after a reservation), then seeded bugs:
# publish in two writes, a commit that ignores SKIPPED, freeing a block that has stragglers,
# take_more skipped after a slot-only batch, the inline slot reservable behind blocks, the
# head's COUNT or an older block's below not capped at its capacity, a block's next read
# after its slots, and a straggler that moves its callback out of the slot (as Swift does) after
# it left the block.
BUGGY_VARIANTS="OLDER_BLOCKS_FULL KEEP_SPARE_BLOCK BUGGY_PUBLISH BUGGY_COMMIT EAGER_FREE
SKIP_TAKE_MORE OLD_SLOT_RULE NO_COUNT_CAP NO_BELOW_CAP LATE_NEXT LATE_TAKE_BACK TAKING_RESOLVES TAKING_LEAVES_CLAIMED MARK_BEFORE_OUTCOME PEEK_WITHOUT_MARK"
# Must fail (petal_wait.pml): PARKED dropped by publish, a wake without the bucket lock, a check of
# the phase that lets go of the lock before sleeping, and a single sleep without a recheck.
WAIT_BUGGY_VARIANTS="DROP_PARKED UNLOCKED_WAKE CHECK_UNLOCKED SINGLE_SLEEP"
# Must fail (petal_combinator.pml): a relaxed leave, a decider that releases the tail whatever
# WRITING says, an enter that ignores DECIDED, a leave that releases the tail without DECIDED, a
# decide that ignores DECIDED, and a relaxed retire.
# Must fail (petal_start_gate.pml): the closure side skipping its load of the request word, a
# request that cancels a RUNNING closure's future; for a chained step, a vote pushed after the
# request's close dropped rather than run, and a step marked PASSING without a counted vote.
START_GATE_BUGGY_VARIANTS="NO_REQUEST_CHECK CANCEL_RUNNING DROP_LATE_VOTE PASS_WITHOUT_VOTE"
# Must fail (petal_limit.pml): a waiter counted while a slot is free, a lock-free release that
# ignores the waiters, a waiter counted before the lock is taken; with the maximum moving, a
# raise that leaves its slots to the next release, and a release that hands its slot over while
# in flight is above a lowered maximum.
LIMIT_BUGGY_VARIANTS="QUEUE_WITH_FREE_SLOT RELEASE_WHILE_WAITING COUNT_OUTSIDE_LOCK NO_GRANT_ON_RAISE HANDOVER_ABOVE_MAX"
# Must fail (petal_cancellation.pml): either side of action zero's store-load handshake weakened
# to a release (its load overtaking its store), a pushed action without the resolution check, a
# stop run whether or not its cancellation won, a close that ignores a sentinel, and a direct
# request that does not check REQUESTED.
CANCELLATION_BUGGY_VARIANTS="STOP_RELEASE_STORE PUBLISH_RELEASE_STORE NO_RESOLVED_CHECK STOP_WITHOUT_WIN
CLOSE_IGNORES_CLOSED REQUEST_TWICE"
# Must fail (petal_deadline.pml): a cancel that does not check the entry is still in the heap, a
# timer that leaves the entry in the heap, and a receiver subscribed before the entry is scheduled.
DEADLINE_BUGGY_VARIANTS="CANCEL_UNCHECKED FIRE_KEEPS_ENTRY SUBSCRIBE_FIRST"
# Must fail (petal_batch.pml): a fulfil without the slot's compare-and-swap, the count down
# before the value is written, a stop run without winning its slot, a registration that does
# not look at the flag after arming, a failure that decides `all` without giving up on the rest,
# a stop's cell written before its slot is claimed, and a claim that keeps an armed slot's stop.
BATCH_BUGGY_VARIANTS="NO_CLAIM COUNT_BEFORE_VALUE STOP_WITHOUT_CLAIM REGISTER_IGNORES_REQUEST FAIL_WITHOUT_STOPS
CELL_BEFORE_ARMING CLAIM_KEEPS_STOP"
# Must fail (petal_batch_cells.pml): the cells installed by a plain store, a loser that writes
# into its own cells, and a loser that frees the cells it found installed.
BATCH_CELLS_BUGGY_VARIANTS="STORE_NOT_CAS KEEP_OWN FREE_WINNER"
# Must fail (petal_breaker.pml): a trial that settles whatever half-open epoch it finds, an
# ignored trial that keeps its place, a half-open breaker that admits past its trials, a failure
# that trips whatever state the word is in, and a half-open before the open duration is over.
BREAKER_BUGGY_VARIANTS="NO_EPOCH_CHECK NO_PERMIT_RETURN UNBOUNDED_TRIALS BLIND_TRIP EARLY_HALF_OPEN"
# Must fail (petal_breaker_window.pml): a record that stores without comparing, one that keeps an
# older period's count under its own, an older period's call counted in a newer one's bucket, a
# restart that empties a newer period's bucket, a count past its field (and one that passes it
# by a sampled success's weight), and the window's start stored rather than raised.
WINDOW_BUGGY_VARIANTS="LOST_UPDATE NO_FRESH_START OLD_INTO_NEW ERASE_NEWER NO_SATURATION SATURATION_BY_ONE LOWER_START"
# Must fail (petal_retry_budget.pml): a spend that stores without comparing, a deposit past the
# burst, a spend that does not look for a whole token, and a token given back past the burst.
BUDGET_BUGGY_VARIANTS="LOST_UPDATE NO_CAP UNCHECKED_WITHDRAW GIVE_BACK_UNCAPPED"
# Must fail (petal_cancellation_pool.pml): an add that stores the head without comparing, one
# that links its entry after publishing it, a drain that takes the list without the lock, and a
# prune that unlinks a dead first entry by writing the head.
POOL_BUGGY_VARIANTS="STORE_HEAD LINK_AFTER_PUBLISH UNLOCKED_DRAIN PRUNE_FIRST"
# Must fail (petal_job_state.pml): a finish that does not look for a finished state, a begin from
# executing, a move that stores without comparing, and an enqueue from any state not finished.
JOB_BUGGY_VARIANTS="BLIND_FINISH BEGIN_AGAIN STORE_STATE ENQUEUE_ANY"
# Must fail (petal_site_tally.pml): a claim that stores without comparing, one that answers yes
# for a field holding another value, and a slot taken on its detail alone.
TALLY_BUGGY_VARIANTS="STORE_FIELD ANY_VALUE SKIP_IDENTITY"
# Must fail (petal_block_cache.pml): a return that stores the stack's head without comparing,
# one that links its chain after publishing it, an exit that leaves the stack empty rather than
# ABANDONED, a return that pushes onto an abandoned home, and an exit that frees the home
# instead of dropping its own reference.
CACHE_BUGGY_VARIANTS="STORE_PUSH LINK_AFTER_PUBLISH NO_ABANDON IGNORE_ABANDONED EXIT_FREES_HOME"
COMBINATOR_BUGGY_VARIANTS="RELAXED_LEAVE NO_WRITING_CHECK ENTER_AFTER_DECIDED LEAVE_IGNORES_DECIDED
SECOND_DECIDER RELAXED_RETIRE COMPLETE_IGNORES_DECIDED DECIDE_AFTER_COMPLETE"
# Must fail (petal_combinator.pml -DVOTES): a decider that runs the actions without closing the
# list, votes registered late and released although a decider closed the list, a receiver that
# holds the state unowned, a decider that takes the retained pointer before winning, and a
# resolution that leaves the list open.
COMBINATOR_VOTES_BUGGY_VARIANTS="GIVE_UP_WITHOUT_CLOSE LATE_VOTES_RELEASED RECEIVER_UNOWNED TAKE_BEFORE_DECIDE
RESOLVE_KEEPS_ACTIONS"

for tool in spin "$CC"; do
    command -v "$tool" >/dev/null 2>&1 || { echo "check.sh: $tool not found" >&2; exit 2; }
done

work=$(mktemp -d "${TMPDIR:-/tmp}/petal-model.XXXXXX") || exit 2
if [ "${KEEP:-0}" = 1 ]; then echo "build directory: $work"; else trap 'rm -rf "$work"' EXIT; trap 'exit 129' HUP INT PIPE TERM; fi
cp "$here/$model" "$here/petal_wait.pml" "$here/petal_combinator.pml" "$here/petal_start_gate.pml" "$here/petal_limit.pml" "$here/petal_cancellation.pml" "$here/petal_deadline.pml" "$here/petal_batch.pml" "$here/petal_batch_cells.pml" "$here/petal_breaker.pml" "$here/petal_breaker_window.pml" "$here/petal_retry_budget.pml" "$here/petal_cancellation_pool.pml" "$here/petal_job_state.pml" "$here/petal_site_tally.pml" "$here/petal_block_cache.pml" "$work/" || exit 2
cd "$work" || exit 2

status=0

# verify NAME [spin -D flags...]: builds and runs pan (with $opt); sets errors and stored,
# leaves NAME.out.
opt=-O2
verify() {
    name=$1; shift
    errors=; stored=
    rm -f "$model.trail"
    if ! spin "$@" -a "$model" >"$name.spin" 2>&1; then
        cat "$name.spin"; echo "check.sh: spin -a failed for $name" >&2; return 1
    fi
    # -DMEMLIM: pan's default 2 GB cap is below what some searches need without COLLAPSE.
    if ! $CC $opt -DSAFETY -DMEMLIM=8192 $PAN_CFLAGS -o "pan_$name" pan.c >"$name.cc" 2>&1; then
        cat "$name.cc"; echo "check.sh: compiling pan failed for $name" >&2; return 1
    fi
    "./pan_$name" -m100000 >"$name.out" 2>&1
    errors=$(sed -n 's/.*errors: \([0-9][0-9]*\).*/\1/p' "$name.out" | tail -n 1)
    stored=$(sed -n 's/^ *\([0-9.e+]*\) states, stored.*/\1/p' "$name.out" | tail -n 1)
    transitions=$(sed -n 's/^ *\([0-9.e+]*\) transitions.*/\1/p' "$name.out" | tail -n 1)
    memory=$(sed -n 's/^ *\([0-9.]*\).total actual memory usage.*/\1/p' "$name.out" | tail -n 1)
    seconds=$(sed -n 's/^pan: elapsed time \([0-9.e+]*\).*/\1/p' "$name.out" | tail -n 1)
    echo "$name: states stored ${stored:-?}, transitions ${transitions:-?}, memory ${memory:-?} MB, ${seconds:-?} s, errors ${errors:-?}"
    [ -n "$errors" ]
}

# must_verify NAME [spin -D flags...]: a configuration that must verify with a complete search.
must_verify() {
    name=$1
    echo "== $name model (full search: assertions, invalid end states)"
    if verify "$@"; then
        if [ "$errors" != 0 ]; then
            echo "FAIL: the $name model has errors; counterexample:"
            shift
            spin "$@" -t "$model" | sed -n '/trail ends/q;p' | grep -v '^ *$' | head -n 80
            status=1
        elif grep -q -e 'max search depth too small' -e 'out of memory' -e 'Search not completed' "$name.out"; then
            grep -e 'max search depth too small' -e 'out of memory' -e 'Search not completed' "$name.out"
            echo "FAIL: the search of the $name model did not complete"
            status=1
        else
            echo "PASS: 0 errors, search complete"
        fi
    else
        tail -n 20 "$name.out" 2>/dev/null
        status=1
    fi
}

# correct: S1 and S2 subscribe, S3 is a waiter that pushes its own block over any head (a
# partly filled one included, and blocks are pushed over it). all-core: S3 subscribes too (a
# core block pushed over a full core block). reuse: freed addresses come back (ABA).
# full3: blocks of three slots, so two stragglers can share a block. full3-waiter: the waiter
# over a three-slot block with two slots reserved, one of them a straggler's. A peeker reads the
# outcome as Swift's peek does in correct, reuse and full3-waiter; the three larger searches
# leave it out (it would multiply their states by four, and blocks do not change what it reads).
must_verify correct
must_verify all-core -DALL_CORE_SUBSCRIBERS -DNO_PEEKER
must_verify reuse -DREUSE_BLOCKS
must_verify all-core-reuse -DALL_CORE_SUBSCRIBERS -DREUSE_BLOCKS -DNO_PEEKER
must_verify full3 -DALL_CORE_SUBSCRIBERS -DFULL=3 -DNO_PEEKER
must_verify full3-waiter -DFULL=3
if [ "${LITERAL:-0}" = 1 ]; then must_verify literal -DLITERAL_LOOPS; fi

# A variant's search stops at its first error, within a second: compiling pan without
# optimisation saves about 6 s per variant.
# must_fail VARIANT...: each must make spin report an error (with $variant_flags as well).
variant_flags=""
must_fail() {
for v in "$@"; do
    echo "== variant $v${variant_flags:+ with $variant_flags} (must report an error)"
    # shellcheck disable=SC2086
    if verify "$v" $variant_flags "-D$v"; then
        if [ "$errors" = 0 ]; then
            echo "FAIL: spin found no error in $v"
            status=1
        else
            grep -m 1 -e 'assertion violated' -e 'invalid end state' "$v.out"
            echo "PASS: error found; counterexample (spin -t ${variant_flags:+$variant_flags }-D$v):"
            # shellcheck disable=SC2086
            spin -t $variant_flags "-D$v" "$model" | sed -n '/trail ends/q;p' | grep -v '^ *$' | head -n 40 | sed 's/^ */    /'
        fi
    else
        cat "$v.out" 2>/dev/null | tail -n 20
        status=1
    fi
done
}
opt=-O0
must_fail $BUGGY_VARIANTS

# The sleep: a resolver, two sleepers (one that may give up) and a neighbour in the bucket.
model=petal_wait.pml
opt=-O2
must_verify wait
opt=-O0
must_fail $WAIT_BUGGY_VARIANTS

# The combinator word: a maker subscribing three inputs, each contributing, deciding or never
# resolving (fulfillingWhen, firstFulfilled, allResolved); four inputs; firstResolved (every
# input decides, nothing counted); and the CAS loops of enter and decide written out.
# Small searches (under 3 s each): compiling pan without optimisation is quicker overall.
model=petal_combinator.pml
opt=-O0
must_verify combinator
must_verify combinator4 -DINPUTS=4
must_verify first-resolved -DFIRST_RESOLVED
must_verify combinator-literal -DLITERAL_LOOPS
must_fail $COMBINATOR_BUGGY_VARIANTS
# With the votes: the inputs' shared receiver, the combined future's action list (its answer
# and its votes) closed by a request, a decider or the resolution, and the retained pointer;
# inputs that wait for their vote or stay pending for ever (6 million states: optimised).
opt=-O2
must_verify combinator-votes -DVOTES
opt=-O0
variant_flags=-DVOTES
must_fail $COMBINATOR_VOTES_BUGGY_VARIANTS
variant_flags=""

model=petal_start_gate.pml
opt=-O0
must_verify start-gate
must_fail $START_GATE_BUGGY_VARIANTS

# The concurrency limit: three operations on a limit of one with two places in the queue, and
# four on a limit of two (one place, then two), any of them asked to cancel while it waits; then
# three on a limit whose maximum moves between one and two three times while they run.
model=petal_limit.pml
opt=-O2
must_verify limit
must_verify limit-2x1 -DMAX=2 -DOPS=4 -DQUEUE=1
must_verify limit-2x2 -DMAX=2 -DOPS=4 -DQUEUE=2
must_verify limit-moving -DRESIZE -DOPS=3 -DQUEUE=2 -DRESIZES=3
opt=-O0
must_fail $LIMIT_BUGGY_VARIANTS

# The cancellation record: action zero installed, a watcher's node, a request, one counted
# dependent's vote (then two) and the resolution, all racing; then without the watcher, the
# owner and the resolution alone on the handshake.
model=petal_cancellation.pml
opt=-O2
must_verify cancellation
must_verify cancellation-2-votes -DDEPS=2
must_verify cancellation-handshake -DNO_WATCHER
opt=-O0
must_fail $CANCELLATION_BUGGY_VARIANTS

# A timeout's deadline entry: the timer thread, the receiver in time and a request race to decide.
model=petal_deadline.pml
opt=-O0
must_verify deadline
must_fail $DEADLINE_BUGGY_VARIANTS

# PromiseBatch's slots: two resolvers (fulfil or fail) racing for one slot, a late slot, a
# request and a stop's registration, and a second one racing it (about 22 million states: 15 s
# and 1.1 GB, with -O2).
model=petal_batch.pml
opt=-O2
must_verify batch
must_fail $BATCH_BUGGY_VARIANTS

# PromiseBatch's stops' cells: three registrations racing to make and install them.
model=petal_batch_cells.pml
opt=-O0
must_verify batch-cells
must_fail $BATCH_CELLS_BUGGY_VARIANTS

# The circuit breaker's word: three callers of two calls each (closed calls that may trip it,
# trials that succeed, fail or are cancelled) and the clock, with two trial calls; then one.
model=petal_breaker.pml
opt=-O2
must_verify breaker
must_verify breaker-1-trial -DTRIALS=1
opt=-O0
must_fail $BREAKER_BUGGY_VARIANTS

# check_small MODEL NAME VARIANTS...: a small model's configuration must verify (pan built at
# -O2) and each seeded variant must fail (built at -O0, which compiles faster than it searches).
check_small() {
    model=$1; name=$2; shift 2
    opt=-O2
    must_verify "$name"
    opt=-O0
    must_fail "$@"
}

# A bucket of the breaker's window and the window's start: three calls recorded in periods left
# to chance (one bucket saturating at two) and two restarts.
check_small petal_breaker_window.pml breaker-window $WINDOW_BUGGY_VARIANTS
# RetryBudget's bucket: two first calls depositing twice each, three extra calls asking (one let
# through may give its token back).
check_small petal_retry_budget.pml retry-budget $BUDGET_BUGGY_VARIANTS
# CancellationPool's list: two adders of two entries each, a drain and a prune at any moment,
# and items that may go away at any moment.
check_small petal_cancellation_pool.pml cancellation-pool $POOL_BUGGY_VARIANTS
# A job's state: a start (enqueue, begin, finish), a repeated start, a canceller and a stray
# finish.
check_small petal_job_state.pml job-state $JOB_BUGGY_VARIANTS
# The diagnostics' site table: four threads, two with one key, over two slots.
check_small petal_site_tally.pml site-tally $TALLY_BUGGY_VARIANTS
# The C core's block cache: an owner that allocates three blocks, reuses what comes back twice
# and exits at any moment, and two threads returning a chain of two and one block.
check_small petal_block_cache.pml block-cache $CACHE_BUGGY_VARIANTS

if [ "$status" = 0 ]; then echo "check.sh: OK"; else echo "check.sh: FAILED"; fi
exit "$status"
