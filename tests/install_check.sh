#!/bin/sh
# install_check.sh -- `make install` into a fresh prefix, used as a user
# would: a C program built with pkg-config against the shared library
# (found through the .pc file's rpath, no LD_LIBRARY_PATH) and again
# linked statically, the installed CLI, the installed Python package (when
# make install put one there), and `make uninstall`, after which no file of
# ours may be left.  Usage: sh tests/install_check.sh (from the source
# folder; MAKE and PYTHON may be set).  Exit 0 when every step passed.
set -u
MAKE=${MAKE:-make}
PYTHON=${PYTHON:-/usr/bin/python3}
TMP=$(mktemp -d /tmp/hs_install.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
P=$TMP/prefix
fail=0
step() { echo "install check: $*"; }
bad() {
    echo "FAIL: $*"
    fail=$((fail + 1))
}

step "make install PREFIX=$P"
if ! $MAKE --no-print-directory install PREFIX="$P" >"$TMP/install.log" 2>&1; then
    sed 's/^/    /' "$TMP/install.log" | tail -30
    bad "make install"
    exit 1
fi
for f in lib/libhalfspace.a lib/libhalfspace.so lib/pkgconfig/halfspace.pc include/halfspace.h \
    include/halfspace/query.h bin/halfspace; do
    [ -e "$P/$f" ] || bad "make install did not install $f"
done

# A program that uses only the public header: two unit squares, one
# shifted by 1/2 (overlap) and one by exactly 1 (touching).
cat >"$TMP/user.c" <<'EOF'
#include <halfspace.h>
#include <stdio.h>
static const char *name(hs_status s)
{
    return s == HS_OVERLAP ? "overlap" : s == HS_TOUCHING ? "touching"
         : s == HS_DISJOINT ? "disjoint" : "other";
}
int main(void)
{
    double A[8] = {1, 0, -1, 0, 0, 1, 0, -1}, b0[4] = {1, 0, 1, 0};
    double b1[4] = {1.5, -0.5, 1, 0}, b2[4] = {2, -1, 1, 0};
    hs_error err;
    hs_poly *P = hs_poly_from_doubles(2, 4, A, b0, NULL, &err);
    hs_poly *Q = hs_poly_from_doubles(2, 4, A, b1, NULL, &err);
    hs_poly *R = hs_poly_from_doubles(2, 4, A, b2, NULL, &err);
    hs_options opt;
    hs_options_init(&opt);
    hs_result *r = hs_result_new();
    if (!P || !Q || !R || !r || hs_intersect(P, Q, &opt, r, &err) != HS_OK)
        return 1;
    printf("%s ", name(hs_result_status(r)));
    if (hs_intersect(P, R, &opt, r, &err) != HS_OK)
        return 1;
    printf("%s\n", name(hs_result_status(r)));
    hs_result_free(r);
    hs_poly_free(P);
    hs_poly_free(Q);
    hs_poly_free(R);
    return 0;
}
EOF
export PKG_CONFIG_PATH="$P/lib/pkgconfig"
step "a C program built with pkg-config (shared)"
# shellcheck disable=SC2046
if cc -std=c11 -Wall -Wextra -Werror "$TMP/user.c" $(pkg-config --cflags --libs halfspace) \
    -o "$TMP/user" 2>"$TMP/cc.log"; then
    out=$(env -u LD_LIBRARY_PATH "$TMP/user")
    [ "$out" = "overlap touching" ] || bad "the shared program printed '$out'"
    ldd "$TMP/user" | grep -q "$P/lib/libhalfspace.so" ||
        bad "the shared program does not load the installed library"
else
    sed 's/^/    /' "$TMP/cc.log"
    bad "the shared build"
fi
step "the same program linked statically (as the README shows)"
# shellcheck disable=SC2046
if cc -std=c11 "$TMP/user.c" $(pkg-config --cflags halfspace) "$P/lib/libhalfspace.a" \
    $(pkg-config --static --libs-only-l halfspace | sed 's/-lhalfspace//') \
    -o "$TMP/user_static" 2>"$TMP/cc2.log"; then
    out=$("$TMP/user_static")
    [ "$out" = "overlap touching" ] || bad "the static program printed '$out'"
    ldd "$TMP/user_static" | grep -q libhalfspace && bad "the static program loads libhalfspace.so"
else
    sed 's/^/    /' "$TMP/cc2.log"
    bad "the static build"
fi

step "the installed CLI"
out=$("$P/bin/halfspace" intersect examples/basic/unit_cube.ine examples/basic/cube_face.ine | head -n 1)
[ "$out" = "touching" ] || bad "the installed CLI printed '$out'"

site=$(ls -d "$P"/lib/python3*/dist-packages 2>/dev/null | head -n 1)
if [ -n "$site" ] && [ -d "$site/halfspace" ]; then
    step "the installed Python package"
    out=$(cd "$TMP" && PYTHONPATH="$site" "$PYTHON" -c 'import halfspace as hs
cube = hs.Polytope([[1,0],[-1,0],[0,1],[0,-1]], [1, 0, 1, 0])
corner = hs.Polytope([[-1,0],[0,-1]], [-1, -1])
print(hs.intersect(cube, corner).status, hs.__file__.startswith("'"$site"'"))' 2>&1)
    [ "$out" = "touching True" ] || bad "the installed Python package printed '$out'"
else
    echo "install check: skipped: the Python package (make install did not install it:" \
         "python3-cffi, python3-numpy or python3-dev missing)"
fi

step "make uninstall PREFIX=$P"
$MAKE --no-print-directory uninstall PREFIX="$P" >"$TMP/uninstall.log" 2>&1 || bad "make uninstall"
left=$(find "$P" -type f -o -type l | sed "s|^$P/||")
[ -z "$left" ] || bad "make uninstall left: $(echo $left)"

echo "install check: $fail failed"
[ "$fail" = 0 ]
