# cli_hostile.sh -- CLI tests of hostile and extreme input (issue 14),
# sourced by tests/cli_tests.sh (its helpers run, expect, has, ok, bad,
# skip and $CLI, $TMP, $EX).  Every file is written here, into $TMP.
# Tests that bound the memory with `ulimit -v` are skipped under valgrind
# and AddressSanitizer, which reserve address space of their own.

HT=$TMP/hostile
mkdir -p "$HT/scene/sub"
LIMITS=1
[ "${HS_VALGRIND:-0}" = 1 ] && LIMITS=0
grep -q __asan_init "$CLI" 2>/dev/null && LIMITS=0

# limited KB ARGS... : like run, with the address space limited to KB
# kilobytes (no valgrind).
limited() {
    kb=$1
    shift
    out=$TMP/out
    err=$TMP/err
    (ulimit -v "$kb" && exec "$CLI" "$@") >"$out" 2>"$err"
    code=$?
}
# expect_limited KB CODE ARGS... : exit code CODE within KB kilobytes
expect_limited() {
    kb=$1
    want=$2
    shift 2
    limited "$kb" "$@"
    if [ "$code" = "$want" ]; then ok; else bad "halfspace $* (in $kb KB) -> exit $code, expected $want"; fi
}

# ---------------------------------------------------------- .ine sizes
# 48 bytes declaring 10^8 rows: 7.3 s and 881 MB before its error
printf 'begin\n100000000 4 rational\n0 1 0 0\nend\n' >"$HT/rows.ine"
expect 2 - feasible "$HT/rows.ine"
has "$err" "rows.ine:4: expected 100000000 rows, found 1"
# 10^8 x 10^6: "out of memory", exit 4, no FILE:LINE
printf 'begin\n100000000 1000000 rational\n0 1 0 0\nend\n' >"$HT/wide.ine"
expect 2 - feasible "$HT/wide.ine"
has "$err" "wide.ine:3: row 1 has 4 entries, expected 1000000"
if [ $LIMITS = 1 ]; then
    expect_limited 100000 2 feasible "$HT/rows.ine"
    # out of memory while reading: exit 2 with FILE:LINE, not exit 4
    awk 'BEGIN { printf "begin\n2 1000000 integer\n";
                 for (r = 0; r < 2; r++) { for (i = 0; i < 1000000; i++) printf "0 "; printf "\n" }
                 printf "end\n" }' >"$HT/huge.ine"
    # the smallest address space in which the tool answers at all (its
    # shared libraries take 70-90 MB here), then the huge file with a
    # little more, and with room enough to get past reading into the
    # exact solver's GMP arrays (GMP's own allocator would abort there)
    base=0
    for kb in 24000 48000 96000 128000 192000; do
        limited $kb feasible $EX/basic/unit_cube.ine
        if [ "$code" = 0 ]; then base=$kb; break; fi
    done
    if [ "$base" != 0 ]; then
        for extra in 0 64000 160000 320000; do
            expect_limited $((base + extra)) 2 feasible "$HT/huge.ine"
            has "$err" "out of memory"
        done
        expect_limited $base 2 feasible "$HT/huge.ine"
        has "$err" "huge.ine:"
    else
        skip "ine-out-of-memory" "the CLI needs more than 192 MB of address space here"
    fi
else
    skip "ine-memory-bounds" "ulimit tests off under valgrind / AddressSanitizer"
fi

# ---------------------------------------------------------- file sizes
# reads are capped (--max-bytes for scenes; 256 MiB otherwise)
printf '#VRML V2.0 utf8\nDEF box Shape { geometry Box { } }\n' >"$HT/scene/box.wrl"
expect 0 - world "$HT/scene/box.wrl"
expect 2 - world --max-bytes=20 "$HT/scene/box.wrl"
has "$err" "box.wrl: larger than the limit of 20 bytes"
expect 1 - world --max-bytes=0 "$HT/scene/box.wrl"
# a sparse STL claiming 2^32 - 1 triangles was read whole into memory
printf '%-80s\377\377\377\377' 'binary STL claiming 2^32 - 1 triangles' >"$HT/huge.stl"
if truncate -s 214748364834 "$HT/huge.stl" 2>/dev/null; then
    expect 2 - world "$HT/huge.stl"
    has "$err" "huge.stl: larger than the limit of 268435456 bytes (214748364834 bytes)"
    rm -f "$HT/huge.stl"
else
    skip "stl-sparse" "no sparse files in $TMP"
fi

# ---------------------------------------------------------- VRML Inline
printf '#VRML V2.0 utf8\nDEF a Group { children Inline { url "/dev/zero" } }\n' >"$HT/scene/zero.wrl"
expect 2 - world "$HT/scene/zero.wrl"
has "$err" "zero.wrl:2: Inline file '/dev/zero' is outside the scene's folder"
expect 2 - world --allow-path=/ "$HT/scene/zero.wrl"
has "$err" "zero.wrl:2: Inline file '/dev/zero' is not a regular file"
printf '#VRML V2.0 utf8\nDEF a Group { children Inline { url "/etc/passwd" } }\n' >"$HT/scene/pw.wrl"
expect 2 - world "$HT/scene/pw.wrl"
has "$err" "is outside the scene's folder"
expect 2 - world --allow-path / "$HT/scene/pw.wrl"
if grep -q root "$err"; then bad "the text of /etc/passwd is echoed"; else ok; fi
printf 'root:x:0:0:root:/root:/bin/bash\n' >"$HT/scene/sub/secret"
printf '#VRML V2.0 utf8\nDEF a Group { children Inline { url "sub/secret" } }\n' >"$HT/scene/sec.wrl"
expect 2 - world "$HT/scene/sec.wrl"
has "$err" "secret:1: not a VRML file"
if grep -q root "$err"; then bad "the first token of a non-VRML file is echoed"; else ok; fi
printf '#VRML V2.0 utf8\nShape { geometry Box { } }\n' >"$HT/part.wrl"
printf '#VRML V2.0 utf8\nDEF a Group { children Inline { url "../part.wrl" } }\n' >"$HT/scene/up.wrl"
expect 2 - world "$HT/scene/up.wrl"
has "$err" "up.wrl:2: Inline file '../part.wrl' is outside the scene's folder"
expect 0 - world --allow-path="$HT" "$HT/scene/up.wrl"
expect 1 - world --allow-path= "$HT/scene/up.wrl"
expect 1 - world --allow-path=/no/such/folder "$HT/scene/up.wrl"
has "$err" "allowed folder '/no/such/folder' does not exist"
expect 2 - path "$HT/scene/up.wrl" --body a --line "1 0 0"
expect 0 - path --allow-path "$HT" "$HT/scene/up.wrl" --body a --line "1 0 0"
printf 'link l0\nsphere 0 0 0 0.1\n' >"$HT/one.chain"
expect 2 - chain --scene "$HT/scene/up.wrl" "$HT/one.chain"
expect 0 - chain --allow-path "$HT" --scene "$HT/scene/up.wrl" "$HT/one.chain"

# ---------------------------------------------------------- VRML expansion
# doubling USE of spheres (1.9 KB, over 4 minutes), of a face set (436 KB,
# 8 GB), doubling PROTO (2.2 KB, 36 s): refused at once
{
    printf '#VRML V2.0 utf8\nDEF S0 Shape { geometry Sphere { } }\n'
    i=1
    while [ $i -lt 40 ]; do
        printf 'DEF S%d Group { children [ USE S%d USE S%d ] }\n' $i $((i - 1)) $((i - 1))
        i=$((i + 1))
    done
} >"$HT/scene/spheres.wrl"
expect 2 - world "$HT/scene/spheres.wrl"
has "$err" "spheres.wrl:2: scene too large: more than 100000 points in its pieces"
{
    printf '#VRML V2.0 utf8\nPROTO P0 [ ] { Shape { geometry Box { } } }\n'
    i=1
    while [ $i -lt 40 ]; do
        printf 'PROTO P%d [ ] { Group { children [ P%d { } P%d { } ] } }\n' $i $((i - 1)) $((i - 1))
        i=$((i + 1))
    done
    printf 'DEF top P39 { }\n'
} >"$HT/scene/proto.wrl"
expect 2 - world "$HT/scene/proto.wrl"
has "$err" "proto.wrl:2: scene too large: more than 10000 pieces"
expect 2 - world --max-pieces=3 --max-points=1000000000 "$HT/scene/spheres.wrl"
has "$err" "more than 3 pieces once USE, PROTO and Inline are expanded (raise max_pieces)"
expect 2 - world --max-depth=1 "$HT/scene/up.wrl"
has "$err" "nested more than 1 deep (raise max_depth)"
expect 1 - world --max-points=-5 "$HT/scene/box.wrl"
expect 1 - world --max-depth=x "$HT/scene/box.wrl"
# --sides=100000, the allowed maximum, exhausted memory
printf '#VRML V2.0 utf8\nShape { geometry Cylinder { } }\n' >"$HT/scene/cyl.wrl"
expect 1 - world --sides=100000 "$HT/scene/cyl.wrl"
has "$err" "--sides=100000 exceeds the limit 1000 (raise --max-sides)"
expect 0 - world --sides=1000 "$HT/scene/cyl.wrl"
expect 1 - world --max-sides=100001 "$HT/scene/cyl.wrl"
expect 0 - world --help
has "$out" "--allow-path=DIR"
has "$out" "--max-points=N"

# ---------------------------------------------------------- reports
# 1,000 mutually overlapping boxes: 2 GB for 15.8 MB of output
if [ $LIMITS = 1 ]; then
    awk 'BEGIN { print "#VRML V2.0 utf8";
                 for (i = 0; i < 1000; i++)
                     printf "DEF b%d Transform { translation %g 0 0 children Shape { geometry Box { size 2 2 2 } } }\n", i, i * 0.001 }' \
        >"$HT/scene/boxes.wrl"
    expect_limited 600000 0 world --threshold=0 "$HT/scene/boxes.wrl"
    [ "$(wc -l <"$out")" = 499500 ] && ok || bad "1,000 overlapping boxes: expected 499500 pairs"
else
    skip "report-memory" "ulimit tests off under valgrind / AddressSanitizer"
fi

# ---------------------------------------------------------- JSON output
# DEF names with bytes 0xff 0xfe reached the JSON raw (invalid UTF-8)
printf '#VRML V2.0 utf8\nDEF a\377\376b Shape { geometry Box { } }\nDEF c Shape { geometry Box { } }\n' \
    >"$HT/scene/names.wrl"
expect 0 - world --json "$HT/scene/names.wrl"
if iconv -f UTF-8 -t UTF-8 "$out" >/dev/null 2>&1; then ok; else bad "world --json: not valid UTF-8"; fi
has "$out" '"a\ufffd\ufffdb"'
printf '#VRML V2.0 utf8\nDEF \303\251t\303\251 Shape { geometry Box { } }\nDEF c Shape { geometry Box { } }\n' \
    >"$HT/scene/utf8.wrl"
expect 0 - world --json "$HT/scene/utf8.wrl"
has "$out" "$(printf '"\303\251t\303\251"')"

# ---------------------------------------------------------- batch lists
# a missing member file is named with the list's FILE:LINE
cp $EX/basic/unit_cube.ine "$HT/"
printf '# pairs\nunit_cube.ine unit_cube.ine\nunit_cube.ine nothere.ine\n' >"$HT/list"
expect 2 - batch "$HT/list"
has "$err" "list:3: "
has "$err" "nothere.ine: cannot open"
printf 'unit_cube.ine rows.ine\n' >"$HT/list2"
expect 2 - batch "$HT/list2"
has "$err" "list2:1: "
has "$err" "rows.ine:4: expected 100000000 rows, found 1"
