#!/bin/sh
# Model-checks the petal cell protocol (petal_cell.pml) with spin, full state-space search.
#
#   The correct model must verify with 0 errors and a completed search.
#   Every seeded-bug variant must make spin report an error (its counterexample is narrated).
#
# Exits 0 only if both hold. Needs spin and a C compiler (Debian: apt-get install -y spin gcc).
# Environment: CC (default cc), PAN_CFLAGS (extra pan flags, e.g. -DCOLLAPSE to halve memory),
# KEEP=1 keeps the build directory. Builds in a temporary directory: nothing lands in the tree.
set -u

here=$(cd "$(dirname "$0")" && pwd)
model=petal_cell.pml
CC=${CC:-cc}
PAN_CFLAGS=${PAN_CFLAGS:-}
# Must fail: two protocol mutations, the old slot rule (the slot reservable behind a node), and
# the slot-only delivery bug Swift had before commit 56517fc.
BUGGY_VARIANTS="BUGGY_PUBLISH BUGGY_COMMIT OLD_SLOT_RULE SKIP_TAKE_MORE"

for tool in spin "$CC"; do
    command -v "$tool" >/dev/null 2>&1 || { echo "check.sh: $tool not found" >&2; exit 2; }
done

work=$(mktemp -d "${TMPDIR:-/tmp}/petal-model.XXXXXX") || exit 2
if [ "${KEEP:-0}" = 1 ]; then echo "build directory: $work"; else trap 'rm -rf "$work"' EXIT; trap 'exit 129' HUP INT PIPE TERM; fi
cp "$here/$model" "$work/" || exit 2
cd "$work" || exit 2

status=0

# verify NAME [spin -D flags...]: builds and runs pan; sets errors and stored, leaves NAME.out.
verify() {
    name=$1; shift
    errors=; stored=
    rm -f "$model.trail"
    if ! spin "$@" -a "$model" >"$name.spin" 2>&1; then
        cat "$name.spin"; echo "check.sh: spin -a failed for $name" >&2; return 1
    fi
    # -DMEMLIM: pan's default 2 GB cap is close to what the full search needs without COLLAPSE.
    if ! $CC -O2 -DSAFETY -DMEMLIM=8192 $PAN_CFLAGS -o "pan_$name" pan.c >"$name.cc" 2>&1; then
        cat "$name.cc"; echo "check.sh: compiling pan failed for $name" >&2; return 1
    fi
    "./pan_$name" -m100000 >"$name.out" 2>&1
    errors=$(sed -n 's/.*errors: \([0-9][0-9]*\).*/\1/p' "$name.out" | tail -n 1)
    stored=$(sed -n 's/^ *\([0-9.e+]*\) states, stored.*/\1/p' "$name.out" | tail -n 1)
    transitions=$(sed -n 's/^ *\([0-9.e+]*\) transitions.*/\1/p' "$name.out" | tail -n 1)
    memory=$(sed -n 's/^ *\([0-9.]*\).total actual memory usage.*/\1/p' "$name.out" | tail -n 1)
    echo "$name: states stored ${stored:-?}, transitions ${transitions:-?}, memory ${memory:-?} MB, errors ${errors:-?}"
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

# The C API's mix (two slot subscribers, one node-only subscriber), and all three on the slot path.
must_verify correct
must_verify all-slot -DALL_SLOT_SUBSCRIBERS

for v in $BUGGY_VARIANTS; do
    echo "== variant $v (must report an error)"
    if verify "$v" "-D$v"; then
        if [ "$errors" = 0 ]; then
            echo "FAIL: spin found no error in $v"
            status=1
        else
            grep -m 1 -e 'assertion violated' -e 'invalid end state' "$v.out"
            echo "PASS: error found; counterexample (spin -t -D$v):"
            spin -t "-D$v" "$model" | sed -n '/trail ends/q;p' | grep -v '^ *$' | head -n 40 | sed 's/^ */    /'
        fi
    else
        cat "$v.out" 2>/dev/null | tail -n 20
        status=1
    fi
done

if [ "$status" = 0 ]; then echo "check.sh: OK"; else echo "check.sh: FAILED"; fi
exit "$status"
