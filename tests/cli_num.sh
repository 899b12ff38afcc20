# cli_num.sh -- CLI tests of issue 14's numeric, determinism and usability
# items, sourced by cli_tests.sh (uses its run/expect/has/ok/bad helpers,
# $CLI, $EX and $TMP).

# ------------------------------------------------------- threads
# --threads must not change a byte of the output (the random row orders
# are seeded per query, not per thread).
MIX=tests/data/scenes/threads_mix.wrl
THREADS="2 4 4 3" FORMATS="--json -"
# (under valgrind a run takes 3 s: one comparison there; the full set runs
# in the plain CLI tests)
[ -n "$VG" ] && THREADS="4" FORMATS="--json"
for fmt in $FORMATS; do
    [ "$fmt" = - ] && fmt=
    expect 0 - world $fmt --threads 1 $MIX
    cp "$out" "$TMP/mix1"
    for th in $THREADS; do
        expect 0 - world $fmt --threads $th $MIX
        cmp -s "$out" "$TMP/mix1" && ok || bad "world $fmt --threads $th differs from one thread"
    done
done
if [ -z "$VG" ]; then
    expect 0 - world --json --threads 4 --threshold 0.5 --triangles=grid $MIX
    cp "$out" "$TMP/mix2"
    expect 0 - world --json --threads 1 --threshold 0.5 --triangles=grid $MIX
    cmp -s "$out" "$TMP/mix2" && ok || bad "world --triangles=grid --threads 4 differs from one thread"
fi

# ------------------------------------------------------- unsupported files
printf 'hello\n' >"$TMP/scene.txt"
expect 2 - world "$TMP/scene.txt"
has "$err" "scene.txt: unknown scene format"
expect 2 - chain $EX/chains/panda.chain --scene "$TMP/scene.txt"
has "$err" "scene.txt: unknown scene format"

# ------------------------------------------------------- the demo's echo
# examples/demo.sh echoes each command quoted so that it pastes back: its
# quote function, read from the script, round-trips awkward arguments.
eval "$(sed -n '/^quote() {/,/^}/p' examples/demo.sh)"
set -- "--to=-40 122 0" "it's" "" 'a"b' 'x$y' plain-1.5
line=""
for arg in "$@"; do line="$line $(quote "$arg")"; done
eval "set -- $line"
[ "$#" = 6 ] && [ "$1" = "--to=-40 122 0" ] && [ "$2" = "it's" ] && [ "$3" = "" ] &&
    [ "$4" = 'a"b' ] && [ "$5" = 'x$y' ] && [ "$6" = plain-1.5 ] && ok ||
    { out=/dev/null; err=/dev/null; bad "demo.sh quote does not round-trip:$line"; }

# ------------------------------------------------------- help
for c in feasible intersect verify batch world chain path crosscheck; do
    expect 0 "-" $c -h
    has "$out" "usage: halfspace $c"
done
for c in feasible intersect; do
    expect 0 - $c --help
    has "$out" "fast (default"
    for e in exact faithful faithful-exact glpk glpk-exact; do has "$out" "$e"; done
done

# ------------------------------------------------------- trace wording
printf 'H-representation\nbegin\n2 3 real\n-1 0 0\n1 1 0\nend\n' >"$TMP/contra.ine"
printf 'H-representation\nbegin\n2 3 real\n1 1 0\n1 0 1\nend\n' >"$TMP/half.ine"
expect 0 infeasible feasible --engine=faithful --trace "$TMP/contra.ine"
has "$out" "# Step 1: A row 1: 0 <= -1 is a contradiction"
expect 0 disjoint intersect --engine=faithful-exact --trace "$TMP/half.ine" "$TMP/contra.ine"
has "$out" "Steps 1-2: B row 1: 0 <= -1 is a contradiction"

# ------------------------------------------------------- verify --json
for e in fast exact; do
    for pair in "$B/unit_cube.ine $B/cube_face.ine" "$B/unit_cube.ine $B/cube_far.ine" \
        "$P/example1_A.ine $P/example2_A.ine" "$P/example1_A.ine $P/example1_B.ine"; do
        # shellcheck disable=SC2086
        expect 0 - intersect --json --engine=$e $pair
        cp "$out" "$TMP/cert.json"
        # shellcheck disable=SC2086
        expect 0 - verify $pair "$TMP/cert.json"
        has "$out" "valid:"
    done
done
expect 0 - feasible --json $B/empty.ine
cp "$out" "$TMP/cert.json"
expect 0 - verify $B/empty.ine "$TMP/cert.json"
sed 's/"1\/3"/"1\/2"/' "$TMP/cert.json" >"$TMP/bad.json"
expect 3 - verify $B/empty.ine "$TMP/bad.json"
printf '{"status":"disjoint",\n"oops":1}\n' >"$TMP/bad.json"
expect 2 - verify $B/unit_cube.ine $B/cube_far.ine "$TMP/bad.json"
has "$err" "bad.json:2: unknown key 'oops'"

# ------------------------------------------------------- simple numbers
# the fast engine's answers print the simplest rationals that verify
expect 0 touching intersect $P/example1_A.ine $P/example2_A.ine
has "$out" "multiplier A 1 1/4"
has "$out" "strict A -1 0 0"
expect 0 feasible feasible $P/example1_A.ine
has "$out" "point -1 0 0"
cp "$out" "$TMP/cert.txt"
expect 0 - verify $P/example1_A.ine "$TMP/cert.txt"

# ------------------------------------------------------- crosscheck limits
# --dim 5 --rows 200 never finished (the faithful engine always ran):
# --engines leaves it out, --time-limit stops an instance and says so
expect 0 - crosscheck --count 3 --dim 5 --rows 200 --engines exact,glpk-exact,fast
has "$out" "crosscheck: 3 instances, 0 disagreements"
has "$out" "faithful vs glpk: 0 compared"
expect 0 - crosscheck --count 2 --dim 5 --rows 200 --time-limit 0.2
has "$out" "skipped: instance 0 (general, random rows, n=5): over the time limit of 0.2 s"
has "$out" "crosscheck: 2 instances, 0 disagreements, 2 skipped (over the time limit)"
expect 0 - crosscheck --count 10 --time-limit 30 --engines=fast,exact
has "$out" "crosscheck: 10 instances, 0 disagreements"
expect 1 - crosscheck --engines exact,bogus
expect 1 - crosscheck --engines faithful-exact
expect 1 - crosscheck --time-limit 0
expect 1 - crosscheck --time-limit x
