# cli_num.sh -- CLI tests of issue 14's numeric, determinism and usability
# items, sourced by cli_tests.sh (uses its run/expect/has/ok/bad helpers,
# $CLI, $EX and $TMP).

# ------------------------------------------------------- threads
# --threads must not change a byte of the output (the random row orders
# are seeded per query, not per thread).
MIX=tests/data/scenes/threads_mix.wrl
for fmt in "--json" ""; do
    expect 0 - world $fmt --threads 1 $MIX
    cp "$out" "$TMP/mix1"
    for th in 2 4 4 3; do
        expect 0 - world $fmt --threads $th $MIX
        cmp -s "$out" "$TMP/mix1" && ok || bad "world $fmt --threads $th differs from one thread"
    done
done
expect 0 - world --json --threads 4 --threshold 0.5 --triangles=grid $MIX
cp "$out" "$TMP/mix2"
expect 0 - world --json --threads 1 --threshold 0.5 --triangles=grid $MIX
cmp -s "$out" "$TMP/mix2" && ok || bad "world --triangles=grid --threads 4 differs from one thread"

# ------------------------------------------------------- unsupported files
printf 'hello\n' >"$TMP/scene.txt"
expect 2 - world "$TMP/scene.txt"
has "$err" "scene.txt: unknown scene format"
expect 2 - chain $EX/chains/panda.chain --scene "$TMP/scene.txt"
has "$err" "scene.txt: unknown scene format"
