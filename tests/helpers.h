/* helpers.h -- shared helpers of the unit tests. */
#ifndef HS_TEST_HELPERS_H
#define HS_TEST_HELPERS_H

#include <check.h>
#include <stdint.h>

#include "halfspace.h"

/* Parse .ine text; fails the test with the error message on error. */
hs_poly *t_poly(const char *ine_text);
/* Parse .ine text expecting an error; returns the message (static). */
const char *t_poly_error(const char *ine_text);
/* Load examples/<rel>; the examples folder comes from $HS_EXAMPLES. */
hs_poly *t_example(const char *rel);
/* Path of examples/<rel> (static buffer). */
const char *t_example_path(const char *rel);
/* Run the CLI ($HS_CLI) with a shell argument string; captures stdout and
 * stderr (static buffers, truncated at 64 KiB) and returns the exit code. */
int t_cli(const char *args, const char **out, const char **errtext);
/* A new temporary file (mkstemp, name prefix `prefix`) holding text; its
 * path, in a static buffer until the next call (the caller removes it). */
const char *t_temp_file(const char *prefix, const char *text);
/* The same with a name ending in `suffix` (".wrl": readers that go by the
 * extension); mkstemps. */
const char *t_temp_file_suffix(const char *prefix, const char *suffix, const char *text);
/* A new temporary folder /tmp/<prefix>XXXXXX (mkdtemp) into dir (cap
 * bytes); t_remove_dir removes a folder and all it holds. */
void t_temp_dir(char *dir, size_t cap, const char *prefix);
void t_remove_dir(const char *dir);
/* Monotonic clock, seconds (for the tests that bound a time). */
double t_seconds(void);
/* Box [lo,hi]^n as .ine text (static buffer). */
const char *t_box_text(int n, const char *lo, const char *hi);
/* The box prod [lo_j, hi_j] (doubles, n each) as a system of 2n rows,
 * x_j <= hi_j then -x_j <= -lo_j for each j (fails the test if it cannot
 * be made). */
hs_poly *t_box_poly(int n, const double *lo, const double *hi);
/* The polyhedron of the n-variable rows a (m n doubles), right sides b
 * (m) and equality flags eq (m, or NULL: all inequalities), checked made
 * (the test fails otherwise); frees a and b. */
hs_poly *t_poly_from_owned(int n, int m, double *a, double *b, const unsigned char *eq);

/* The real data set (robots, meshes, VRML, PDB; see ../shared/data's
 * README): its folder is $HS_DATA when set, otherwise ../shared/data
 * beside the checkout (make runs the tests from the checkout's top
 * folder).  t_data returns the path of <rel> in it (static buffer, until
 * the next call), or NULL when that file is not there; the test `test` is
 * then recorded as skipped.  A test that needs data must stop, not pass,
 * on NULL: test_main prints every skip by name, and counts them. */
const char *t_data_dir(void);
const char *t_data(const char *test, const char *rel);
/* Record that `test` skipped some checks and why (written to the skip log
 * that test_main reads back at the end; works from forked tests). */
void t_skip(const char *test, const char *why);

/* A test assertion with a printf-style message. */
#define EXPECT(cond, ...)                                                                   \
    do {                                                                                   \
        if (!(cond))                                                                       \
            ck_abort_msg(__VA_ARGS__);                                                     \
    } while (0)

/* Reproducible random numbers (splitmix64) from the state *s: 64 bits,
 * uniform in [0, 1), uniform in [-1, 1). */
uint64_t t_rng_next(uint64_t *s);
double t_rng_unit(uint64_t *s);
double t_rng_sym(uint64_t *s);

/* The exact hull of n points (hull3_points) and the vertices of a 3-D
 * system (vertex_enum, from a strictly interior point), failing the test
 * with the library's message when they cannot be made. */
struct hull3 *t_hull(const double *pts, int n);
struct vertex_set *t_vertices(const hs_poly *P, const double *interior);
/* The exact hull of n points as a system of one row a facet (hull3_rows),
 * failing the test when it cannot be made. */
hs_poly *t_hull_poly(const double *pts, int n);
/* n points on a sphere of radius r around c (a Fibonacci lattice, each
 * pushed out by up to 5% from rng) into pts (3 n): their hull has about
 * 2 n small triangular facets, like the hull of a scanned mesh. */
void t_sphere_points(int n, double r, const double c[3], uint64_t *rng, double *pts);
/* The same system from a hull h already made of pts, its rows (3 per
 * facet) and right sides also into *a and *b (new: the caller frees them),
 * for tests that read the hull and its rows afterwards. */
hs_poly *t_hull_rows_poly(const struct hull3 *h, const double *pts, double **a, double **b);
/* P's fast-engine preparation with its lazy parts made
 * (fast_prep_lazy_ready), failing the test when it cannot be. */
struct fast_prep;
const struct fast_prep *t_ready_prep(const hs_poly *P);

/* The two polyhedra of a pair of bench/families.h (3 variables, rows as
 * doubles), new in *A and *B (the caller frees them); fails the test with
 * the library's message when either cannot be made. */
struct fam_pair;
void t_pair_polys(const struct fam_pair *p, hs_poly **A, hs_poly **B);

/* Options (initialized) whose trace goes into the returned buffer of
 * T_TRACE_CAP bytes, empty, each line appended with its newline (a trace
 * longer than the buffer is cut); the caller frees the buffer and empties
 * it (buf[0] = 0) between queries. */
#define T_TRACE_CAP 8192
char *t_traced_options(hs_options *opt);

/* A 3-D polyhedron tangent to the ellipsoid with semi-axes (1, e, e)
 * around c, scaled by s: m random integer normals (|a_j| <= 64), right
 * sides rounded up to multiples of 2^-10 s, every number an exact double
 * (fails the test if it cannot be made). */
hs_poly *t_ellipsoid_rows(int m, double e, const double *c, double s, uint64_t *rng);

#endif
