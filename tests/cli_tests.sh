#!/bin/sh
# cli_tests.sh -- runs the halfspace binary and compares its output and exit
# codes.  Usage: sh tests/cli_tests.sh path/to/halfspace
# With HS_VALGRIND=1 every run goes through valgrind memcheck, and any leak
# or memory error fails the test.
set -u
CLI=${1:?usage: cli_tests.sh path/to/halfspace}
EX=examples
TMP=$(mktemp -d /tmp/hs_cli.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
pass=0
fail=0
skipped=0
skips=""
VG=""
if [ "${HS_VALGRIND:-0}" = 1 ]; then
    VG="valgrind -q --leak-check=full --show-leak-kinds=definite,indirect,possible \
--errors-for-leak-kinds=definite,indirect,possible --error-exitcode=99"
fi

# run ARGS... : runs the CLI; sets $code, $out (stdout file), $err (stderr file)
run() {
    out=$TMP/out
    err=$TMP/err
    # shellcheck disable=SC2086
    $VG "$CLI" "$@" >"$out" 2>"$err"
    code=$?
    if [ "$code" = 99 ]; then
        echo "FAIL (valgrind): halfspace $*"
        sed 's/^/    /' "$err"
        fail=$((fail + 1))
    fi
}

ok() { pass=$((pass + 1)); }
# skip NAME WHY : a test left out for want of data, listed by name at the end
skip() {
    skipped=$((skipped + 1))
    skips="$skips
  SKIP $1: $2"
}
bad() {
    fail=$((fail + 1))
    echo "FAIL: $1"
    echo "  stdout:"; sed 's/^/    /' "$out"
    echo "  stderr:"; sed 's/^/    /' "$err"
}

# expect CODE FIRST_LINE ARGS...   (FIRST_LINE "-" skips the stdout check)
expect() {
    want_code=$1
    want_first=$2
    shift 2
    run "$@"
    [ "$code" = 99 ] && return
    first=$(head -n 1 "$out")
    if [ "$code" != "$want_code" ]; then
        bad "halfspace $* -> exit $code, expected $want_code"
    elif [ "$want_first" != "-" ] && [ "$first" != "$want_first" ]; then
        bad "halfspace $* -> first line '$first', expected '$want_first'"
    else
        ok
    fi
}

# has FILE TEXT : the file contains the text (fixed string)
has() {
    if grep -qF -- "$2" "$1"; then ok; else bad "expected '$2' in $(basename "$1")"; fi
}

B=$EX/basic
P=$EX/paper

# ------------------------------------------------------------ answers
expect 0 overlap intersect $P/example1_A.ine $P/example1_B.ine
expect 0 overlap intersect $P/example2_A.ine $P/example2_B.ine
expect 0 intersect intersect --engine=faithful $P/example1_A.ine $P/example1_B.ine
expect 0 intersect intersect --engine faithful $P/example2_A.ine $P/example2_B.ine
expect 0 overlap intersect $B/unit_cube.ine $B/cube_overlap.ine
expect 0 touching intersect $B/unit_cube.ine $B/cube_face.ine
has "$out" "certificate separation"
has "$out" "strict "
expect 0 touching intersect $B/unit_cube.ine $B/cube_corner.ine
has "$out" "point 1 1 1"
expect 0 disjoint intersect $B/unit_cube.ine $B/cube_far.ine
has "$out" "certificate farkas"
expect 0 touching intersect $B/unit_cube.ine $B/square_on_top.ine
expect 0 overlap intersect $B/unit_cube.ine $B/square_inside.ine
expect 0 disjoint intersect $B/unit_cube.ine $B/empty.ine
expect 0 disjoint intersect $B/unit_cube.ine $B/below_floor.ine
expect 0 touching intersect $B/x_le_0.3.ine $B/ten_x_ge_3.ine
has "$out" "point 3/10"
expect 0 intersect intersect --engine=faithful-exact $P/example2_A.ine $P/example2_B.ine
has "$out" "point -1/2 1/2 2"
expect 0 infeasible feasible --engine=faithful-exact $B/empty.ine
for e in glpk glpk-exact fast exact; do
    expect 0 touching intersect --engine=$e $B/unit_cube.ine $B/cube_face.ine
    expect 0 disjoint intersect --engine=$e $B/unit_cube.ine $B/cube_far.ine
    expect 0 overlap intersect --engine=$e $B/unit_cube.ine $B/square_inside.ine
done
expect 0 feasible feasible $B/unit_cube.ine
expect 0 infeasible feasible $B/empty.ine
has "$out" "certificate farkas"
expect 0 feasible feasible --engine=faithful $B/below_floor.ine
expect 0 infeasible feasible --engine=glpk-exact $B/empty.ine

# ------------------------------------------------------------ json
expect 0 - intersect --json $B/unit_cube.ine $B/cube_face.ine
has "$out" '{"status":"touching","engine":"fast","dimension":3,"point":['
has "$out" '"certificate":{"kind":"separation","multipliers":[{"polytope":'
has "$out" '{"polytope":"A","row":'
has "$out" '"strict":{"polytope":'
expect 0 - intersect --json --engine=faithful $P/example1_A.ine $P/example1_B.ine
has "$out" '"status":"intersect"'
has "$out" '"certificate":null'

# ------------------------------------------- certificates round trip
for pair in "unit_cube cube_face" "unit_cube cube_corner" "unit_cube cube_far" \
    "unit_cube square_on_top" "unit_cube square_inside" "unit_cube empty"; do
    set -- $pair
    run intersect $B/$1.ine $B/$2.ine
    cp "$out" "$TMP/cert"
    expect 0 "valid: $(head -n 1 "$TMP/cert"), checked in exact arithmetic" \
        verify $B/$1.ine $B/$2.ine "$TMP/cert"
done
run feasible $B/empty.ine
cp "$out" "$TMP/cert1"
expect 0 "valid: infeasible, checked in exact arithmetic" verify $B/empty.ine "$TMP/cert1"
# a tampered certificate is rejected
run intersect $B/unit_cube.ine $B/cube_far.ine
awk '/^multiplier/ && !done { $4 = 7; done = 1 } { print }' "$out" >"$TMP/bad"
expect 3 - verify $B/unit_cube.ine $B/cube_far.ine "$TMP/bad"
has "$out" "invalid: "
printf 'overlap\npoint 1 1 1\n' >"$TMP/bad"
expect 3 - verify $B/unit_cube.ine $B/cube_face.ine "$TMP/bad"
has "$out" "not in the relative interior"
printf 'touching\npoint 1 x 1\n' >"$TMP/bad"
expect 2 - verify $B/unit_cube.ine $B/cube_face.ine "$TMP/bad"
has "$err" "bad:2: bad number 'x'"
printf 'maybe\n' >"$TMP/bad"
expect 2 - verify $B/unit_cube.ine $B/cube_face.ine "$TMP/bad"
has "$err" "bad:1: the first line must be a status"

# ------------------------------------------------------------ trace
expect 0 intersect intersect --engine=faithful --trace $P/example2_A.ine $P/example2_B.ine
has "$out" "# "
has "$out" "t - s"
expect 0 intersect intersect --engine=faithful --trace --replay-s=0,0,-2 --replay-t=-0.5,0.5,0.5 \
    $P/example2_A.ine $P/example2_B.ine
has "$out" "-x + y <= 2"
has "$out" "x - y <= -1"
expect 0 overlap intersect --trace $P/example2_A.ine $P/example2_B.ine
has "$out" "the inner stars of A and B cover s + l (t - s)"
expect 0 overlap intersect --engine=exact --trace $P/example2_A.ine $P/example2_B.ine
has "$out" "exact classification: overlap"
expect 0 disjoint intersect --trace $B/unit_cube.ine $B/cube_far.ine
has "$out" "certified Farkas certificate: disjoint"
expect 0 touching intersect --trace $B/unit_cube.ine $B/cube_face.ine
has "$out" "certify a contact point and a separating plane: touching"
expect 0 - intersect --json --trace $P/example1_A.ine $P/example1_B.ine
has "$err" "# "

# ------------------------------------------------------- input errors
expect 2 - intersect $B/unit_cube.ine /nonexistent.ine
has "$err" "/nonexistent.ine: cannot open"
printf 'begin\n2 4 real\n1 0 0 0\nend\n' >"$TMP/short.ine"
expect 2 - feasible "$TMP/short.ine"
has "$err" "short.ine:4: expected 2 rows, found 1"
printf 'begin\n1 4 real\n1 0 nan 0\nend\n' >"$TMP/nan.ine"
expect 2 - feasible "$TMP/nan.ine"
has "$err" "nan.ine:3: bad number 'nan'"
printf 'begin\n1 3 real\n1 0 0\nend\n' >"$TMP/two.ine"
expect 2 - intersect $B/unit_cube.ine "$TMP/two.ine"
has "$err" "two.ine:2: dimension mismatch"
printf 'begin\n0 4 real\nend\n' >"$TMP/zero.ine"
expect 2 - feasible "$TMP/zero.ine"
has "$err" "zero.ine:2: the system has no rows (m = 0)"
printf 'begin\n1 4 real\n1 0 0 0\n' >"$TMP/trunc.ine"
expect 2 - feasible "$TMP/trunc.ine"
has "$err" "trunc.ine:3: unexpected end of file"

# ------------------------------------------------------- usage errors
expect 1 - intersect $B/unit_cube.ine
expect 1 - intersect --engine=simplex $B/unit_cube.ine $B/cube_face.ine
has "$err" "unknown engine 'simplex'"
expect 1 - intersect --frob $B/unit_cube.ine $B/cube_face.ine
expect 1 - feasible --replay-s=0,0,0 --replay-t=0,0,0 $B/unit_cube.ine
expect 1 - intersect --replay-s=0,0 --replay-t=0,0,0 $B/unit_cube.ine $B/cube_face.ine
expect 1 - intersect --tol=-1 $B/unit_cube.ine $B/cube_face.ine
expect 1 - verify $B/unit_cube.ine
expect 1 - frobnicate
expect 1 -
for c in feasible intersect verify batch crosscheck; do
    expect 0 - $c --help
    has "$out" "usage: halfspace $c"
done
expect 0 - --help
expect 0 - --version

# ------------------------------------------------------------ batch
expect 0 "unit_cube.ine cube_face.ine touching" batch $B/pairs.txt
cp "$out" "$TMP/batch1"
has "$out" "unit_cube.ine cube_far.ine disjoint"
has "$out" "../paper/example2_A.ine ../paper/example2_B.ine overlap"
[ "$(wc -l < "$out")" = 10 ] && ok || bad "batch: expected 10 lines"
expect 0 - batch --threads 3 $B/pairs.txt
cmp -s "$out" "$TMP/batch1" && ok || bad "batch --threads 3 differs from one thread"
expect 0 - batch --threads=0 --engine=exact $B/pairs.txt
cmp -s "$out" "$TMP/batch1" && ok || bad "batch with the exact engine differs"
expect 0 - batch --json $B/pairs.txt
has "$out" '{"a":"unit_cube.ine","b":"cube_corner.ine","status":"touching"}'
printf 'unit_cube.ine nothere.ine\n' >"$TMP/list1"
cp $B/unit_cube.ine "$TMP/"
expect 2 - batch "$TMP/list1"
has "$err" "nothere.ine: cannot open"
printf '# pairs\nunit_cube.ine\n' >"$TMP/list2"
expect 2 - batch "$TMP/list2"
has "$err" "list2:2: expected two file names, found 1"
printf '# nothing\n' >"$TMP/list3"
expect 2 - batch "$TMP/list3"
has "$err" "list3:1: the list holds no pairs"
expect 1 - batch --threads=-1 $B/pairs.txt
expect 1 - batch

# ------------------------------------------------------------ world
S=$EX/scenes
expect 0 - world $S/robot-arm.wrl
has "$out" "cylinder1 static_table touching at "
has "$out" " normal 0 -1 0 contacts 16: (14 76 16) (14.204445 76 14.4470857) (15.7573593 76 11.7573593) (17 76 10.8038476) (20 76 10) (21.5529143 76 10.204445) (24.2426407 76 11.7573593) (25.1961524 76 13) (26 76 16) (25.795555 76 17.5529143) (24.2426407 76 20.2426407) (23 76 21.1961524) (20 76 22) (18.4470857 76 21.795555) (15.7573593 76 20.2426407) (14.8038476 76 19)"
[ "$(wc -l < "$out")" = 3 ] && ok || bad "robot-arm.wrl: expected 3 pairs"
has "$out" "joint1 static_table touching at "
expect 0 - world --threshold=0 $S/robot-arm-posed.wrl
cp "$out" "$TMP/posed_tree" # (the default broad phase: the grid)
has "$out" "cylinder1 gripper overlap"
has "$out" "cylinder1 roll overlap"
[ "$(wc -l < "$out")" = 5 ] && ok || bad "robot-arm-posed.wrl: expected 5 pairs"
for m in tree grid raw; do
    expect 0 - world --threshold=0 --broadphase=$m $S/robot-arm-posed.wrl
    cmp -s "$out" "$TMP/posed_tree" && ok || bad "world --broadphase=$m differs from the default"
done
expect 0 - world --threshold=0 --threads=3 --triangles=raw --engine=exact $S/robot-arm-posed.wrl
cut -d' ' -f1-3 "$out" >"$TMP/posed_exact"   # (the exact engine finds other witnesses)
cut -d' ' -f1-3 "$TMP/posed_tree" | cmp -s - "$TMP/posed_exact" && ok ||
    bad "world with threads, raw triangles, exact differs"
expect 0 - world --json --threshold=0 $S/robot-arm-posed.wrl
has "$out" '{"a":"cylinder1","b":"gripper","status":"overlap"'
expect 0 "moved gripper 0.969296355 of the way, to -40 122 0 rotation 0 0 -1 0.581577813" \
    world --move=gripper --to="-40 122 0 0 0 1 -0.6" $S/robot-arm.wrl
has "$out" "gripper static_table contact distance 0.0719446326"
expect 0 - world --export="$TMP/posed_out.wrl" --threshold=0 $S/robot-arm-posed.wrl
has "$TMP/posed_out.wrl" "#VRML V2.0 utf8"
expect 0 - world --threshold=0 "$TMP/posed_out.wrl"
cmp -s "$out" "$TMP/posed_tree" && ok || bad "the exported scene reads back differently"
# errors: bad scenes, unknown bodies, bad options
printf '#VRML V2.0 utf8\nDEF a Transform { children [ Shape { geometry Box { size 1 -1 1 } } ] }\n' \
    >"$TMP/neg.wrl"
expect 2 - world "$TMP/neg.wrl"
has "$err" "neg.wrl:2:"
printf '#VRML V2.0 utf8\nDEF a Extrusion { }\n' >"$TMP/ext.wrl"
expect 2 - world "$TMP/ext.wrl"
has "$err" "ext.wrl:2: node Extrusion is not supported"
printf '#VRML V2.0 utf8\nDEF a Transform { translation 0 nan 0 children [ Shape { geometry Box { } } ] }\n' \
    >"$TMP/nan.wrl"
expect 2 - world "$TMP/nan.wrl"
has "$err" "nan.wrl:2:"
expect 2 - world "$TMP/nothere.wrl"
has "$err" "nothere.wrl"
expect 2 - world --move=nobody --to="0 0 0" $S/robot-arm.wrl
has "$err" "no body named 'nobody'"
expect 2 - world --move=cylinder1 --to="0 0 0" $S/robot-arm-posed.wrl
has "$err" "in collision at its start pose"
expect 1 - world --move=gripper --to="1 2" $S/robot-arm.wrl
expect 1 - world --move=gripper $S/robot-arm.wrl
expect 1 - world --broadphase=octree $S/robot-arm.wrl
expect 1 - world --threshold=-1 $S/robot-arm.wrl
expect 1 - world --threshold= $S/robot-arm.wrl
expect 1 - world --threads=x $S/robot-arm.wrl
expect 1 - world --engine=glpk $S/robot-arm.wrl
expect 1 - world --sides=2 $S/robot-arm.wrl
has "$err" "--sides needs a whole number in 3..100000, not '2'"
expect 1 - world --sphere-level=7 $S/robot-arm.wrl
expect 0 - world --sides=8 --threshold=0 $S/robot-arm-posed.wrl
cut -d' ' -f1-3 "$out" | cmp -s - "$TMP/posed_exact" && ok || bad "world --sides=8 differs"
printf 'OFF\n4 4 0\n0 0 0\n1 0 0\n0 1 0\n0 0 1\n3 0 2 1\n3 0 1 3\n3 0 3 2\n3 1 2 3\n' >"$TMP/tet.off"
printf '#VRML V2.0 utf8\nDEF inside Transform { translation 0.1 0.1 0.1 children [ Shape { geometry Box { size 0.1 0.1 0.1 } } ] }\nInline { url "tet.off" }\n' >"$TMP/in_tet.wrl"
expect 0 - world --threshold=0 "$TMP/in_tet.wrl"
[ -s "$out" ] && bad "a box inside a mesh surface does not meet it" || ok
expect 0 "in_tet inside overlap at 0.1 0.1 0.1" world --threshold=0 --mesh-as-hull "$TMP/in_tet.wrl"
expect 1 - world
expect 0 - world --help
has "$out" "usage: halfspace world"

# ------------------------------------------------------- chain
C=$EX/chains
REST="0 -0.785398163 0 -2.35619449 0 1.57079633 0.785398163"
expect 0 free chain $C/panda.chain
has "$out" "chain $C/panda.chain: 10 links, 7 movable joints"
has "$out" "angles 0 -0.785398163 0 -2.35619449 0 1.57079633 0.785398163"
has "$out" "skipped link7 hand"
[ "$(wc -l < "$out")" = 4 ] && ok || bad "chain at rest: expected 4 lines"
expect 0 self-collision chain --angles "0 0 0 -0.07 0 0 0" $C/panda.chain
has "$out" "self link5 hand"
expect 0 free chain --angles="0 -0.6 0 -2.4 0 1.8 0.785" --scene $C/panda-table.wrl --distance \
    $C/panda.chain
has "$out" "distance 0.00507655815 link hand body table"
expect 0 scene-collision chain --angles "0 0.3 0 -2.0 0 2.3 0.785" --scene=$C/panda-table.wrl \
    $C/panda.chain
has "$out" "scene link6 table"
has "$out" "scene link7 table"
expect 0 self-and-scene-collision chain --angles "0 1.0 0 -0.5 0 0 0" \
    --scene $C/panda-table.wrl $C/panda.chain
has "$out" "scene hand table"
expect 0 - chain --json --scene $C/panda-table.wrl --distance $C/panda.chain
has "$out" '{"status":"free","file":"examples/chains/panda.chain","links":10,"dof":7,'
has "$out" '"skipped":[["link7","hand"]],"self":[],"scene":[],"distance":{"value":0.0688'
expect 0 - chain --json --angles "0 0 0 -0.07 0 0 0" $C/panda.chain
has "$out" '"self":[["link5","hand"]]'
if [ -f "${HS_DATA:-../shared/data}/robots/franka_panda/collision/hand.stl" ] &&
    [ -f ../shared/data/robots/franka_panda/collision/hand.stl ]; then
    expect 0 free chain $C/panda_meshes.chain
    has "$out" "skipped link7 hand"
    expect 0 self-collision chain --angles "0 0 0 -0.07 0 0 0" $C/panda_meshes.chain
else
    skip "chain-panda-meshes" "../shared/data/robots/franka_panda missing (panda_meshes.chain reads its meshes there)"
fi
# a chain with every kind of piece, written here
printf 'OFF\n4 4 0\n0 0 0\n1 0 0\n0 1 0\n0 0 1\n3 0 2 1\n3 0 1 3\n3 0 3 2\n3 1 2 3\n' >"$TMP/tet.off"
cat >"$TMP/all.chain" <<'END'
# every piece and joint kind
link base
box 1 1 0.2 at 0 0 -0.1 0 0 0
joint slide prismatic
axis 1 0 0
limits -1 1
link carriage
sphere 0 0 0.5 0.25
hull 0 0 1  0.1 0 1  0 0.1 1  0 0 1.1
joint turn revolute
origin 0 0 1.2 0 0 0
axis 0 0 1
link arm
capsule 0 0 0  1 0 0  0.1
mesh tet.off at 1 0 0 0 0 0
joint weld fixed
origin 2 0 0 0 0 0
link tip
sphere 0 0 0 0.1
skip base tip
END
expect 0 free chain "$TMP/all.chain"
has "$out" "4 links, 2 movable joints"
expect 0 free chain --angles "0.5 1" "$TMP/all.chain"
expect 2 - chain --angles "1.5 1" "$TMP/all.chain"
has "$err" "--angles: value 1 (joint 1 slide) = 1.5 is outside the limits [-1, 1]"
# errors: files
expect 2 - chain "$TMP/nothere.chain"
has "$err" "nothere.chain"
bad_chain() { # bad_chain TEXT MESSAGE
    printf "$1" >"$TMP/bad.chain"
    expect 2 - chain "$TMP/bad.chain"
    has "$err" "$2"
}
bad_chain 'link a\nsphere 0 0 0 -1\n' "bad.chain:2: sphere: the radius must be positive"
bad_chain 'link a\nsphere 0 0 nan 1\n' "bad.chain:2: 'nan' is not a finite number"
bad_chain 'link a\nsphere 0 0 1\n' "bad.chain:2: 'sphere' needs 4 values"
bad_chain 'sphere 0 0 0 1\n' "bad.chain:1: 'sphere' is a piece: it must follow a link line"
bad_chain 'link a\nlink b\n' "bad.chain:2: link 'b' has no joint before it"
bad_chain 'link a\njoint j revolute\naxis 0 0 1\n' "bad.chain:2: joint 'j' has no link after it"
bad_chain 'link a\njoint j revolute\nlink b\n' "bad.chain:2: joint 'j' needs an axis"
bad_chain 'link a\njoint j hinge\n' "bad.chain:2: joint: unknown type 'hinge'"
bad_chain 'link a\njoint j revolute\naxis 0 0 0\n' "bad.chain:3: axis: must not be zero"
bad_chain 'link a\njoint j revolute\nlimits 1 -1\n' "bad.chain:3: limits: the lower limit exceeds"
bad_chain 'link a\njoint j revolute\naxis 0 0 1\nlimits 1 2\nlink b\n' \
    "bad.chain:2: joint 'j': rest value 0 is outside the limits [1, 2] (give 'rest')"
bad_chain 'link a\njoint j fixed\naxis 0 0 1\nlink b\n' "bad.chain:2: joint 'j' is fixed"
bad_chain 'link a\naxis 0 0 1\n' "bad.chain:2: 'axis' belongs to a joint"
bad_chain 'link a\njoint j fixed\norigin 0 0 0 0 0 0\norigin 0 0 0 0 0 0\n' \
    "bad.chain:4: 'origin' given twice"
bad_chain 'link a\njoint j fixed\nsphere 0 0 0 1\n' "bad.chain:3: 'sphere' after the joint of line 2"
bad_chain 'link a\nhull 0 0 0 1 0 0 0 1 0 1 1 0\n' "bad.chain:2: hull:"
bad_chain 'link a\nhull 0 0 0 1 0 0\n' "bad.chain:2: hull: needs at least 4 points"
bad_chain 'link a\nmesh nothere.stl\n' "bad.chain:2: mesh:"
bad_chain 'link a\nmesh tet.wrl\n' "tet.wrl' is not a mesh file (.stl, .obj or .off)"
bad_chain 'link a\nbox 1 0 1\n' "bad.chain:2: box: the sizes must be positive"
bad_chain 'link a\nbox 1 1 1 at 0 0\n' "bad.chain:2: 'box' needs 3 values"
bad_chain 'link a\ncapsule 0 0 0 1 1 1 0\n' "bad.chain:2: capsule: the radius must be positive"
bad_chain 'link a\nskip a b\n' "bad.chain:2: skip: no link named 'b'"
bad_chain 'link a\njoint j fixed\nlink a\n' "bad.chain:3: link name 'a' is already used at line 1"
bad_chain 'link a\nwheel 1\n' "bad.chain:2: unknown keyword 'wheel'"
bad_chain '# nothing\n' "bad.chain:1: no link in the file"
# errors: angles (on a small chain: loading the Panda is slow under valgrind)
printf 'link a\nsphere 0 0 0 1\njoint j1 revolute\norigin 4 0 0 0 0 0\naxis 0 0 1\nlimits -3 -0.5\nrest -1\nlink b\nsphere 0 0 0 1\njoint j2 revolute\norigin 4 0 0 0 0 0\naxis 0 0 1\nlink c\nsphere 0 0 0 1\n' >"$TMP/small.chain"
expect 0 free chain "$TMP/small.chain"
expect 2 - chain --angles "0" "$TMP/small.chain"
has "$err" "--angles: 1 values for 2 movable joints"
expect 2 - chain --angles "0 0" "$TMP/small.chain"
has "$err" "--angles: value 1 (joint 1 j1) = 0 is outside the limits [-3, -0.5]"
expect 2 - chain --angles "nan 0" "$TMP/small.chain"
has "$err" "--angles: value 1 (joint 1 j1) is not finite"
expect 2 - chain --angles "-1 inf" "$TMP/small.chain"
expect 1 - chain --angles "-1 x" "$TMP/small.chain"
has "$err" "--angles: 'x' is not a number"
expect 2 - chain --scene "$TMP/nothere.wrl" "$TMP/small.chain"
# errors: usage
expect 1 - chain
expect 1 - chain --distance $C/panda.chain
has "$err" "--distance needs --scene"
expect 1 - chain --angles
expect 1 - chain --bogus $C/panda.chain
expect 1 - chain $C/panda.chain $C/panda.chain
expect 0 - chain --help
has "$out" "usage: halfspace chain"

# ------------------------------------------------------- path
PAL=$EX/palletizing/pallet.wrl
expect 0 free path $PAL --body gripped --line "39 110 19.5"
has "$out" "path line length 144.346805, 10 steps, stepped, threshold 0.1"
has "$out" "end pose: 39 110 19.5 zyz 0 0 0 distance 20.0249844"
expect 0 "collision at step 2 of 10" path $PAL --body gripped --line "39 61 19.5"
has "$out" "last free pose at fraction 0.1: -90.6 114.1 19.5 zyz 0 0 0"
has "$out" "contact pose at fraction 0.10703125: -89.5875 113.685156 19.5 zyz 0 0 0 distance 0.0875"
has "$out" "gripped static_curtain contact distance 0.0875 normal 1 0"
# the thin curtain: two steps jump over it, the guaranteed mode does not
expect 0 free path $PAL --body gripped --line "39 95 19.5" --steps 2
expect 0 "contact at step 1 of 2" path $PAL --body gripped --line "39 95 19.5" --steps 2 --guaranteed
has "$out" "gripped static_curtain contact distance 0.09"
expect 0 "collision at step 2 of 10" path $PAL --body gripped --line "39 95 19.5"
expect 0 free path $PAL --body gripped --arc "-30 140 19.5" "39 110 19.5"
has "$out" "path arc centre -39.3016529 24.2561983 19.5 radius 116.11696 angle 1.34145946"
expect 0 "collision at step 9 of 10" path $PAL --body gripped --arc "-30 145 19.5" "39 61 19.5"
has "$out" "gripped static_carton_25 contact distance 0.0647845785 normal 0 -1 0 contacts 4"
expect 0 "contact at step 9 of 10" path --guaranteed $PAL --body gripped --arc "-30 145 19.5" "39 61 19.5"
expect 0 free path $PAL --body gripped --arc "-30 140 19.5" "39 110 19.5" --turn
has "$out" "end pose: 39 110 19.5 zyz -1.34145946 0 0"
expect 0 free path $PAL --body gripped --arc "-30 140 19.5" "39 110 19.5" --speed 50 --period 0.1
has "$out" ", 32 steps, stepped"
expect 0 free path $PAL --body gripped --line "39 110 19.5" --steps 4 --poses
has "$out" "step 2 fraction 0.5: -33 115 19.5 zyz 0 0 0"
has "$out" "step 4 fraction 1: 39 110 19.5 zyz 0 0 0"
expect 0 free path $PAL --body gripped --line "-105 120 19.5 1.5707963267948966 0 0" --steps 3
has "$out" "end pose: -105 120 19.5 zyz 1.57079633 0 0"
expect 0 - path --json $PAL --body gripped --arc="-30 145 19.5" "39 61 19.5"
has "$out" '{"status":"collision","step":9,"steps":10,"mode":"stepped"'
has "$out" '"pairs":[{"a":"gripped","b":"static_carton_25","status":"contact","pieces":[{"piece_a":'
expect 0 "collision at step 10 of 10" path --threshold 0 $PAL --body gripped --line "-105 60 19.5"
has "$out" "gripped static_conveyor touching"
# errors
expect 1 - path $PAL --body gripped --arc "-30 120 19.5" "39 120 19.5"
has "$err" "collinear"
expect 1 - path $PAL --body gripped --arc "-105 120 19.5" "39 120 19.5"
has "$err" "distinct"
expect 1 - path $PAL --body gripped --arc "1 2 3" "1 2 3"
has "$err" "distinct"
expect 2 - path $PAL --body nobody --line "0 0 0"
has "$err" "no body named 'nobody'"
expect 1 - path $PAL --body static_curtain --line "0 0 0"
has "$err" "static"
sed 's/translation -105 120 19.5/translation -105 60 19.5/' $PAL >"$TMP/pal_in.wrl"
expect 2 - path "$TMP/pal_in.wrl" --body gripped --line "39 110 19.5"
has "$err" "in collision at its start pose"
expect 2 - path "$TMP/nothere.wrl" --body gripped --line "0 0 0"
expect 1 - path $PAL --body gripped --line "1 2"
expect 1 - path $PAL --body gripped --line "nan 0 0"
expect 1 - path $PAL --body gripped --line "0 0 0" --arc "1 1 1" "2 2 2"
expect 1 - path $PAL --body gripped
expect 1 - path $PAL --line "0 0 0"
expect 1 - path --body gripped --line "0 0 0"
expect 1 - path $PAL --body gripped --arc "1 2 3"
expect 1 - path $PAL --body gripped --arc "1 2" "3 4 5"
expect 1 - path $PAL --body gripped --line "39 110 19.5" --steps 0
expect 1 - path $PAL --body gripped --line "39 110 19.5" --steps 2.5
expect 1 - path $PAL --body gripped --line "39 110 19.5" --speed 5
expect 1 - path $PAL --body gripped --line "39 110 19.5" --speed 0 --period 1
expect 1 - path $PAL --body gripped --line "39 110 19.5" --speed 1 --period -1
expect 1 - path $PAL --body gripped --line "39 110 19.5" --speed 1e-9 --period 1
has "$err" "more than the limit"
expect 1 - path $PAL --body gripped --line "-105 120 19.5 1 0 0" --speed 1 --period 1
has "$err" "rotation in place"
expect 1 - path $PAL --body gripped --line "39 110 19.5" --threshold -1
expect 1 - path $PAL --body gripped --line "39 110 19.5" --threshold ""
expect 1 - path $PAL --body gripped --line "39 110 19.5" --guaranteed --threshold 0
has "$err" "guaranteed mode needs a contact threshold > 0"
expect 1 - path $PAL --body gripped --line "39 110 19.5" --frobnicate
expect 1 - path $PAL $PAL --body gripped --line "39 110 19.5"
expect 0 - path --help
has "$out" "usage: halfspace path"

# ------------------------------------------------------- robot
RD=${HS_DATA:-../shared/data}
cat >"$TMP/two.urdf" <<'EOF2'
<?xml version="1.0"?>
<robot name="two">
  <link name="base"><collision><geometry><box size="0.2 0.2 0.2"/></geometry></collision></link>
  <link name="bar"><collision><origin xyz="0.7 0 0"/><geometry><box size="1 0.02 0.02"/></geometry></collision></link>
  <joint name="a" type="revolute"><parent link="base"/><child link="bar"/>
    <axis xyz="0 0 1"/><limit lower="-3" upper="3"/></joint>
  <link name="tip"><collision><origin xyz="0 0 0.3"/><geometry><sphere radius="0.05"/></geometry></collision></link>
  <joint name="t" type="fixed"><parent link="base"/><child link="tip"/></joint>
  <transmission name="tr"/>
</robot>
EOF2
cat >"$TMP/plate.wrl" <<'EOF2'
#VRML V2.0 utf8
DEF static_plate Transform {
  rotation 0 0 1 0.55
  translation 0.5967672 0.3658811 0
  children [ Shape { geometry Box { size 0.8 0.001 0.5 } } ]
}
EOF2
expect 0 free robot "$TMP/two.urdf"
has "$out" "robot two ($TMP/two.urdf): 3 links, 1 coordinates"
has "$out" "coordinates a"
has "$out" "skipped base bar adjacent"
has "$out" "skipped base tip adjacent"
has "$err" "two.urdf:9: <transmission> ignored (not needed for collision)"
expect 0 free robot --q "a=0.3" --scene "$TMP/plate.wrl" --distance "$TMP/two.urdf"
has "$out" "q 0.3"
has "$out" "distance "
has "$out" "link bar body static_plate"
expect 0 scene-collision robot --q 0.55 --scene "$TMP/plate.wrl" "$TMP/two.urdf"
has "$out" "scene bar static_plate overlap"
expect 0 - robot --json --q 0.55 --scene "$TMP/plate.wrl" "$TMP/two.urdf"
has "$out" '{"status":"scene-collision","robot":"two",'
has "$out" '"scene":[["bar","static_plate","overlap"]]'
# the thin plate: 10 steps of 0.1 rad jump over it, the guaranteed mode does not
expect 0 free robot --motion "0" "1" --resolution 0.1 --scene "$TMP/plate.wrl" "$TMP/two.urdf"
has "$out" "motion stepped, resolution 0.1: 10 steps, 11 configurations"
expect 0 - robot --motion "0" "1" --guaranteed --scene "$TMP/plate.wrl" "$TMP/two.urdf"
has "$out" "collision at fraction 0.5"
has "$out" "scene bar static_plate"
has "$out" "motion guaranteed, tolerance 1e-06:"
expect 0 - robot --json --motion "0" "1" --guaranteed --scene "$TMP/plate.wrl" "$TMP/two.urdf"
has "$out" '"status":"collision"'
has "$out" '"mode":"guaranteed"'
has "$out" '"pair":["bar","static_plate","scene",'
expect 0 free robot --motion "0" "0.4" --guaranteed --scene "$TMP/plate.wrl" "$TMP/two.urdf"
expect 0 - robot --q 0.55 --scene "$TMP/plate.wrl" --export "$TMP/two_out.wrl" "$TMP/two.urdf"
expect 0 - world "$TMP/two_out.wrl"
has "$out" "bar static_plate overlap"
# errors: input (exit 2), usage (exit 1)
expect 2 - robot --q "0.5 1" "$TMP/two.urdf"
has "$err" "--q: wrong number of values for 1 coordinates"
expect 2 - robot --q 5 "$TMP/two.urdf"
has "$err" "outside the limits"
expect 2 - robot --q "t=0.1" "$TMP/two.urdf"
has "$err" "'t' is not NAME=VALUE for a coordinate's joint"
expect 2 - robot --motion "0" "9" "$TMP/two.urdf"
sed 's/type="revolute"/type="ball"/' "$TMP/two.urdf" >"$TMP/bad.urdf"
expect 2 - robot "$TMP/bad.urdf"
has "$err" "bad.urdf:5: joint 'a': unknown joint type 'ball'"
sed 's/<sphere radius="0.05"\/>/<mesh filename="package:\/\/nopkg\/x.stl"\/>/' "$TMP/two.urdf" >"$TMP/nomesh.urdf"
expect 2 - robot "$TMP/nomesh.urdf"
has "$err" "nomesh.urdf:7: mesh 'package://nopkg/x.stl' not found"
expect 0 free robot --skip-missing-meshes "$TMP/nomesh.urdf"
has "$err" "this collision element is ignored"
printf '<robot name="x"><link name="a">\n</robot>\n' >"$TMP/broken.urdf"
expect 2 - robot "$TMP/broken.urdf"
has "$err" "broken.urdf:"
expect 2 - robot "$TMP/nothere.urdf"
expect 1 - robot
expect 1 - robot --distance "$TMP/two.urdf"
expect 1 - robot --motion "0" "$TMP/two.urdf"
expect 1 - robot --resolution 0 --motion 0 1 "$TMP/two.urdf"
expect 1 - robot --bogus "$TMP/two.urdf"
expect 0 - robot --help
has "$out" "usage: halfspace robot"
# the data set's robots
if [ -f "$RD/urdf/franka_panda/panda.urdf" ] && [ -f "$RD/urdf/kuka_iiwa/model.urdf" ] &&
    [ -f "$RD/urdf/r2d2.urdf" ]; then
    RP=$RD/urdf/franka_panda/panda.urdf
    RREADY="0 -0.785398163397 0 -2.35619449019 0 1.57079632679 0.785398163397 0.02"
    expect 0 free robot "$RP"
    has "$out" "13 links, 8 coordinates"
    has "$out" "skipped panda_link5 panda_hand rest"
    has "$out" "skipped panda_leftfinger panda_rightfinger rest"
    expect 0 free robot --rest "$RREADY" --q "$RREADY" --scene $EX/ompl_panda/table_shelf.wrl --distance "$RP"
    has "$out" "distance 0.12894"
    expect 0 self-collision robot --rest "$RREADY" --q "panda_joint4=-0.07,panda_joint2=0.5" "$RP"
    expect 0 free robot "$RD/urdf/kuka_iiwa/model.urdf"
    expect 2 - robot "$RD/urdf/r2d2.urdf"
    has "$err" "r2d2.urdf:283: mesh 'l_finger.stl' not found"
    expect 0 free robot --skip-missing-meshes "$RD/urdf/r2d2.urdf"
    has "$out" "skipped base_link right_base rest"
    RA="1.2 -0.222 -0.687 -1.503 2.518 3.389 0.261 0.02"
    RB="-0.666 0.425 1.272 -1.907 -2.016 1.875 -1.946 0.02"
    expect 0 - robot --rest "$RREADY" --motion "$RA" "$RB" --guaranteed --scene $EX/ompl_panda/table_shelf.wrl "$RP"
    has "$out" "collision at fraction 0.37"
    has "$out" "scene panda_hand static_shelf_middle overlap"
    expect 0 scene-collision robot --q "0 0.9 0 -1.2 0 2.4 0.8 0.02" --scene $EX/ompl_panda/table_shelf.wrl --draw "$TMP/robot.png" --view=30,20 "$RP"
    [ -s "$TMP/robot.png" ] && ok || bad "robot --draw wrote no picture"
    expect 0 - robot --rest "$RREADY" --motion "$RA" "$RB" --scene $EX/ompl_panda/table_shelf.wrl --draw "$TMP/robot-motion.svg" "$RP"
    has "$TMP/robot-motion.svg" "<svg"
    expect 1 - robot --q "$RREADY" --draw "$TMP/r.png" --view=x "$RP"
    expect 1 - robot --q "$RREADY" --draw "$TMP/r.gif" "$RP"
    expect 2 - robot --q "$RREADY" --draw "$TMP/no/such/dir/r.png" "$RP"
else
    skip "robot-data" "$RD/urdf is missing (panda.urdf, model.urdf, r2d2.urdf)"
fi

# ------------------------------------------------------- crosscheck
expect 0 - crosscheck --count 150 --seed 7
has "$out" "crosscheck: 150 instances, 0 disagreements"
expect 1 - crosscheck --count x

# ------------------------------------------------------- draw (pictures)
# What the pictures hold is checked by tests/pictures_check.py; here: the
# commands, their files and exit codes (and, with HS_VALGRIND=1, no leak).
D=$EX/draw
expect 0 "wrote $TMP/pair.svg" draw $D/triangle.ine $D/square.ine -o $TMP/pair.svg
has "$TMP/pair.svg" "<svg"
expect 0 - draw $B/unit_cube.ine $B/cube_corner.ine --view=-30,20 -o $TMP/cube.png
expect 0 - draw --engine=exact $D/empty.ine -o $TMP/empty.pdf
expect 0 "wrote 9 frames and $TMP/walk/index.html" draw --trace --replay-s=0,0,-2 \
    --replay-t=-0.5,0.5,0.5 $P/example2_A.ine $P/example2_B.ine -o $TMP/walk
has "$TMP/walk/index.html" "A row 4 becomes an equality"
expect 0 - draw --trace --engine=faithful-exact $D/triangle.ine $D/far_square.ine -o $TMP/w2
expect 0 - draw --trace --engine=fast $D/triangle.ine $D/far_square.ine -o $TMP/w3
expect 0 - world --threshold=0 $EX/scenes/robot-arm-posed.wrl --draw $TMP/arm.svg --view=20,30
expect 0 free chain $EX/chains/panda.chain --draw $TMP/chain.png
expect 0 "collision at step 2 of 10" path $PAL --body gripped --line "39 61 19.5" --draw $TMP/path.png
expect 1 - draw $D/triangle.ine -o $TMP/x.gif
has "$err" "must end in .svg, .png or .pdf"
expect 1 - draw $D/triangle.ine
expect 1 - draw --trace $D/triangle.ine -o $TMP/w4
expect 1 - draw --trace --engine=exact $D/triangle.ine $D/square.ine -o $TMP/w5
expect 1 - draw --view=10 $D/triangle.ine -o $TMP/x.svg
expect 1 - draw --replay-s=0,0 --replay-t=1,1 $D/triangle.ine $D/square.ine -o $TMP/x.svg
expect 1 - world --draw $TMP/a.png --view=x $EX/scenes/robot-arm.wrl
expect 2 - draw $D/missing.ine -o $TMP/x.svg
expect 2 - draw $D/triangle.ine -o $TMP/no/such/dir/x.png
expect 2 - draw $D/triangle.ine $B/unit_cube.ine -o $TMP/x.svg
expect 0 - draw --help
has "$out" "usage: halfspace draw"

# ------------------------------------------------------- hostile input
. "$(dirname "$0")/cli_hostile.sh"

# issue 14: numbers, threads, usability (tests/cli_num.sh)
. "$(dirname "$0")/cli_num.sh"

[ "$skipped" = 0 ] || printf 'skipped (data or program missing, or off under a checker):%s\n' "$skips"
echo "cli tests: $pass passed, $fail failed, $skipped skipped${VG:+ (under valgrind)}"
[ "$fail" = 0 ]
