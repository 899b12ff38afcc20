#!/bin/sh
# tsan_run.sh -- batch and world queries with 8 threads under
# ThreadSanitizer (`make tsan` builds build-tsan/halfspace with
# -fsanitize=thread and runs this).  A data race stops the program with
# exit 66 and the report on stderr; each output must also equal the
# one-thread output byte for byte.  Usage: sh tests/tsan_run.sh CLI
set -u
CLI=${1:?usage: tsan_run.sh path/to/halfspace}
TMP=$(mktemp -d /tmp/hs_tsan.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 ${TSAN_OPTIONS:-}"
fail=0
runs=0

# run NAME ARGS... : 8 threads, then 1 thread; both must succeed and agree
run() {
    name=$1
    shift
    runs=$((runs + 1))
    "$CLI" "$@" --threads 8 >"$TMP/out8" 2>"$TMP/err8"
    code=$?
    "$CLI" "$@" --threads 1 >"$TMP/out1" 2>"$TMP/err1"
    code1=$?
    if [ "$code" != 0 ] || [ "$code1" != 0 ]; then
        echo "FAIL (exit $code with 8 threads, $code1 with 1): $name"
        sed 's/^/    /' "$TMP/err8" "$TMP/err1" | head -60
        fail=$((fail + 1))
    elif ! cmp -s "$TMP/out8" "$TMP/out1"; then
        echo "FAIL: $name: 8 threads and 1 thread differ"
        fail=$((fail + 1))
    fi
}

# Every pair of the 3-D examples, five times over: the same polyhedra
# are shared by many pairs, so their fast-engine data (built lazily by
# whichever thread needs them first, installed with a compare-and-swap)
# are raced for.
: >"$TMP/pairs.txt"
for round in 1 2 3 4 5; do
    for a in examples/basic/*.ine examples/paper/*.ine; do
        case $a in *ten_x* | *x_le_*) continue ;; esac
        for b in examples/basic/*.ine examples/paper/*.ine; do
            case $b in *ten_x* | *x_le_*) continue ;; esac
            echo "$PWD/$a $PWD/$b" >>"$TMP/pairs.txt"
        done
    done
done
# Pairs of 60-row polyhedra resting face on face (bench/pairs' touch-ff
# family, m = 60): each contact proof asks for the two faces' bounding
# rows (solver/fast_facet.c), made by whichever thread gets there first.
: >"$TMP/faces.txt"
for round in 1 2 3 4 5 6 7 8; do
    for k in 0 1 2 3; do
        echo "$PWD/tests/data/faces/ff60_A$k.ine $PWD/tests/data/faces/ff60_B$k.ine" >>"$TMP/faces.txt"
    done
done
run "batch, faces on faces" batch "$TMP/faces.txt"
for e in fast exact faithful faithful-exact; do
    run "batch --engine=$e" batch --engine=$e "$TMP/pairs.txt"
done
run "batch --json" batch --json "$TMP/pairs.txt"

for s in tests/data/scenes/threads_mix.wrl examples/scenes/robot-arm.wrl \
    examples/scenes/robot-arm-posed.wrl examples/palletizing/pallet.wrl \
    examples/chains/panda-table.wrl; do
    run "world $s" world --json "$s"
    run "world --threshold=0.5 --triangles=grid $s" world --threshold=0.5 --triangles=grid "$s"
    run "world --engine=exact $s" world --engine=exact --broadphase=tree "$s"
done

echo "tsan: $runs runs with 8 threads, $fail failed"
[ "$fail" = 0 ]
