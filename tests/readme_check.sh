#!/bin/sh
# readme_check.sh -- runs every command-line example of README.md and
# compares its output with the lines shown under it.
#
# An example is an indented block (4 spaces) whose first line starts with
# "$ halfspace " (or "$ make ", skipped); the lines after it, up to a blank
# line or the next "$", are its expected output.  A line "..." ends the
# comparison (the rest is not shown); a line ending in " ..." must match as
# a prefix.  Commands run from the checkout's top folder with `halfspace`
# replaced by the binary given.  Usage: sh tests/readme_check.sh build/halfspace
set -u
CLI=${1:?usage: readme_check.sh path/to/halfspace}
TMP=$(mktemp -d /tmp/hs_readme.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
awk -v dir="$TMP" '
    cont { line = $0; sub(/^ +/, "", line); cmd = cmd " " line; if (cmd ~ /\\$/) { sub(/\\$/, "", cmd); next }
           cont = 0; print cmd > (f ".cmd"); close(f ".cmd"); next }
    /^    \$ halfspace / { n++; f = sprintf("%s/ex%03d", dir, n); cmd = $0; sub(/^    \$ /, "", cmd);
                           out = f ".want"; printf "" > out; inex = 1;
                           if (cmd ~ /\\$/) { sub(/\\$/, "", cmd); cont = 1; next }
                           print cmd > (f ".cmd"); close(f ".cmd"); next }
    /^    \$ / { inex = 0; next }
    inex && /^    / { sub(/^    /, ""); print >> out; next }
    { if (inex) close(out); inex = 0 }
' README.md
# Commands run in a scratch folder that links the checkout's folders, so
# that the files an example writes (pictures, exports) land there.
TOP=$(pwd)
case "$CLI" in /*) ;; *) CLI="$TOP/$CLI" ;; esac
mkdir -p "$TMP/work"
for d in examples tests papers bench python build; do
    [ -e "$TOP/$d" ] && ln -s "$TOP/$d" "$TMP/work/$d"
done
[ -e "$TOP/../shared" ] && ln -s "$TOP/../shared" "$TMP/shared" # ../shared/data beside it
pass=0
fail=0
for cmd in "$TMP"/ex*.cmd; do
    [ -e "$cmd" ] || continue
    base=${cmd%.cmd}
    line=$(cat "$cmd")
    run=$(printf '%s' "$line" | sed "s|^halfspace |$CLI |")
    (cd "$TMP/work" && sh -c "$run") >"$base.got" 2>&1
    ok=1
    i=0
    while IFS= read -r want; do
        i=$((i + 1))
        [ "$want" = "..." ] && break
        got=$(sed -n "${i}p" "$base.got")
        case "$want" in
        *" ...") prefix=${want% ...}
                 case "$got" in "$prefix"*) ;; *) ok=0 ;; esac ;;
        *) [ "$got" = "$want" ] || ok=0 ;;
        esac
        if [ "$ok" = 0 ]; then
            echo "README example differs: \$ $line"
            echo "  line $i: want: $want"
            echo "          got:  $got"
            break
        fi
    done <"$base.want"
    if [ "$ok" = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done
echo "readme examples: $pass passed, $fail failed"
[ "$fail" = 0 ]
