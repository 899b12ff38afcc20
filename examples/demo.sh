#!/bin/sh
# demo.sh -- the main job on the bundled examples (run by `make demo`).
set -e
CLI=${1:-build/halfspace}
# quote ARG: ARG as the shell reads it back (single quotes when needed),
# so that a command echoed below can be pasted as it is.
quote() {
    case $1 in
    '' | *[!A-Za-z0-9_./=,:+@%-]*) printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")" ;;
    *) printf '%s' "$1" ;;
    esac
}
run() {
    printf '$ halfspace'
    for arg in "$@"; do
        printf ' '
        quote "$arg"
    done
    echo
    "$CLI" "$@"
    echo
}
echo "== Seed 002, Example 1 and 2 (class, point, certificate)"
run intersect examples/paper/example1_A.ine examples/paper/example1_B.ine
run intersect examples/paper/example2_A.ine examples/paper/example2_B.ine
echo "== The paper's own walk of Example 2 (faithful engine, replaying its s and t)"
run intersect --engine=faithful --trace --replay-s=0,0,-2 --replay-t=-0.5,0.5,0.5 \
    examples/paper/example2_A.ine examples/paper/example2_B.ine
echo "== Contacts are answered exactly"
run intersect examples/basic/unit_cube.ine examples/basic/cube_corner.ine
run intersect examples/basic/unit_cube.ine examples/basic/square_on_top.ine
run intersect examples/basic/x_le_0.3.ine examples/basic/ten_x_ge_3.ine
echo "== A disjoint pair, its Farkas certificate, and an independent check of it"
"$CLI" intersect examples/basic/unit_cube.ine examples/basic/cube_far.ine > /tmp/hs_demo_cert.txt
cat /tmp/hs_demo_cert.txt
run verify examples/basic/unit_cube.ine examples/basic/cube_far.ine /tmp/hs_demo_cert.txt
rm -f /tmp/hs_demo_cert.txt
echo "== The fast engine's steps (the default engine), and many pairs at once"
run intersect --trace examples/basic/unit_cube.ine examples/basic/cube_far.ine
run batch --threads 2 examples/basic/pairs.txt
echo "== Cross-check of every engine against GLPK on random and degenerate instances"
run crosscheck --count 1000
echo "== Worlds (seeds 000 and 001): the robot arm of seed 000's Figure 1 at rest"
run world examples/scenes/robot-arm.wrl
echo "== ... posed into a cylinder (collision only: --threshold=0), and exported coloured"
run world --threshold=0 --export=/tmp/hs_demo_posed.wrl examples/scenes/robot-arm-posed.wrl
rm -f /tmp/hs_demo_posed.wrl
echo "== Move until contact: the gripper swings down towards the table"
run world --move=gripper --to="-40 122 0 0 0 1 -0.6" examples/scenes/robot-arm.wrl
echo "== Kinematic chains (seed 003): the Franka Panda at rest, bent into itself, and over a table"
run chain examples/chains/panda.chain
run chain --angles "0 0 0 -0.07 0 0 0" examples/chains/panda.chain
run chain --angles "0 0.3 0 -2.0 0 2.3 0.785" --scene examples/chains/panda-table.wrl --distance examples/chains/panda.chain
echo "== Paths (seed 004): a palletizing robot's carton along lines and arcs, free and blocked"
PAL=examples/palletizing/pallet.wrl
run path $PAL --body gripped --line "39 110 19.5"
run path $PAL --body gripped --line "39 61 19.5"
run path $PAL --body gripped --arc "-30 140 19.5" "39 110 19.5"
run path $PAL --body gripped --arc "-30 145 19.5" "39 61 19.5"
echo "== ... two steps jump over the thin light curtain; the guaranteed mode cannot"
run path $PAL --body gripped --line "39 95 19.5" --steps 2
run path $PAL --body gripped --line "39 95 19.5" --steps 2 --guaranteed
PA10=examples/scenes/../../../shared/data/vrml/PA10/pa10.main.wrl
if [ -f "$PA10" ]; then
    echo "== A real arm (OpenHRP's PA10, from ../shared/data) beside a table, metres"
    run world --threshold=0.05 --allow-path=../shared/data examples/scenes/pa10-table.wrl
else
    echo "== (skipped: examples/scenes/pa10-table.wrl needs ../shared/data/vrml/PA10)"
fi
