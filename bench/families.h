/* families.h -- the instance families of bench/pairs: reproducible pairs
 * of 3-D polytopes given as rows a . x <= b in doubles, one generator per
 * family, with a strictly interior point of each polytope.
 *
 * Families (m rows per polytope where the family has a free m):
 *   sphere    tangent-sphere polytopes as generated: tangent_pair(seed, i,
 *             m, m) of tangent.h, centers 1.7 to 2.3 apart.
 *   elong2, elong4, elong10
 *             elongated polytopes: the image of a tangent-sphere polytope
 *             under S = diag(1, 1/k, 1/k), k = 2, 4, 10 (ellipsoid axes
 *             1 : e : e with e = 0.5, 0.25, 0.1), each polytope turned by
 *             its own random signed permutation of the axes.  Row u . x <=
 *             u . c + r(u) of the sphere becomes (R w) . y <= (R w) . c +
 *             r(u) with w = (u1, k u2, k u3): integer normals, right sides
 *             multiples of 2^-10, all exact doubles.  The centers are d
 *             apart along a random direction v, d = t rho(v), t uniform
 *             in [0.85, 1.15], rho(v) the distance along v at which the
 *             two ellipsoids first touch (for k = 1, rho = 2 and this is
 *             the sphere family's 1.7-2.3).
 *   near      the sphere pair with B moved along the line of centers by
 *             k 2^-30 cB to within one step of first contact (even pairs
 *             overlap by at most two steps, odd pairs are apart by one
 *             step: about 1e-9 of the size); found from a GLPK estimate of
 *             the last contact, then settled with the fast engine and
 *             checked with the exact engine at k and k + 1; every number
 *             an exact double (integer arithmetic in units of 2^-40).
 *   touch-ff, touch-ee, touch-vf
 *             exactly touching pairs, by construction with exact numbers:
 *             face on face, edge on edge (two skew edges crossing in one
 *             point), vertex on face.  Both polytopes are tangent-sphere
 *             polytopes (m - 1, m - 2 or m - 3 tangent rows) cut by one to
 *             three rows through a common point q (a multiple of 2^-10)
 *             with integer normals; see families.c for the construction.
 *   hull      convex hulls of the real meshes of the data folder
 *             (the STL files of robots/R/collision, the OBJ and STL files
 *             of urdf/R/meshes and urdf/R/meshes/collision, an STL file
 *             skipped when an OBJ file of the same name is beside it, and
 *             the OBJ files of meshes/fcl; a file whose hull repeats an
 *             earlier one's is left out), each scaled by a power of two to an
 *             extent in [1, 2), at random rotations, B translated
 *             uniformly within the box of translations where the two
 *             bounding boxes overlap (the pairs a broad phase hands to
 *             the narrow phase).  The points are rotated and moved in
 *             doubles; the polytope is the library's exact hull of those
 *             doubles written as rows by hull3_rows (normals in doubles,
 *             right sides rounded outward), so its m is its facet count.
 *   hull-rest real hulls resting face on face: the hull pair's A as
 *             above, and B turned and moved so that its face nearest its
 *             interior point lies on A's face nearest A's, the feet of the
 *             two perpendiculars at one point, B turned about the normal
 *             at random.  B's rows are the moved rows in doubles, its
 *             resting row then A's row negated exactly: the plane
 *             separates them and both faces contain the common foot, so
 *             the pair touches face on face by the numbers written
 *             (unless a foot lies within rounding of its face's edge:
 *             then the pair may be disjoint by a hair; the exact engine's
 *             class is the reference, as for every family).
 *   hull-rest-fp
 *             the same, without that last replacement: B set down by its
 *             rotated rows alone, as bodies placed with floating-point
 *             transforms are, so the faces coincide only to rounding and
 *             the pairs overlap or miss by about 1e-16 of their size.
 *
 * Every generator is a pure function of (family, seed, index, m): the same
 * arguments give the same rows.  No global state. */
#ifndef HS_BENCH_FAMILIES_H
#define HS_BENCH_FAMILIES_H

#include <stddef.h>
#include <stdint.h>

#include "halfspace.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum fam_id {
    FAM_SPHERE,
    FAM_ELONG2,
    FAM_ELONG4,
    FAM_ELONG10,
    FAM_NEAR,
    FAM_TOUCH_FF,
    FAM_TOUCH_EE,
    FAM_TOUCH_VF,
    FAM_HULL,
    FAM_HULL_REST,
    FAM_HULL_REST_FP,
    FAM_COUNT
} fam_id;

/* Name of a family ("sphere", "elong2", ...). */
const char *fam_name(fam_id f);
/* Family of a name: 0 and *f set, or -1. */
int fam_from_name(const char *name, fam_id *f);
/* Nonzero when the family takes m from the caller (all but hull). */
int fam_has_m(fam_id f);
/* Nonzero when the family is built from the meshes of the data folder
 * (hull, hull-rest, hull-rest-fp). */
int fam_needs_meshes(fam_id f);
/* Smallest m the family accepts. */
int fam_min_m(fam_id f);

/* The meshes of the hull family: hull vertices of each file, centred and
 * scaled.  Opaque. */
typedef struct fam_meshes fam_meshes;

/* Load every mesh of the data folder `dir`.  Returns NULL with a note
 * (why: folder missing, no mesh files, an error) written to note. */
fam_meshes *fam_meshes_load(const char *dir, char *note, size_t note_size);
void fam_meshes_free(fam_meshes *ms);
int fam_meshes_count(const fam_meshes *ms);
/* Name (path under the data folder) and hull vertex count of mesh k. */
const char *fam_mesh_name(const fam_meshes *ms, int k);
int fam_mesh_points(const fam_meshes *ms, int k);
/* Copy mesh k's hull vertices (3 * fam_mesh_points doubles, centred and
 * scaled) into out. */
void fam_mesh_copy_points(const fam_meshes *ms, int k, double *out);
/* The files that could not be read, with the reader's message ("" when
 * none). */
const char *fam_meshes_skipped(const fam_meshes *ms);
/* The files left out because their hull repeats an earlier file's (the
 * same link in two formats), comma-separated ("" when none). */
const char *fam_meshes_duplicates(const fam_meshes *ms);

/* One generated pair. */
typedef struct fam_pair {
    int m[2];           /* rows of A and B */
    double *a[2];       /* m[k] * 3 normals, row-major */
    double *b[2];       /* m[k] right sides */
    double interior[2][3]; /* a point strictly inside each (in doubles) */
    char label[128];    /* what the pair is: contact kind, mesh names */
} fam_pair;

/* Pair `index` of family f for stream `seed` with m rows per polytope
 * (ignored by hull, which needs meshes).  Returns HS_OK and fills *out
 * (free with fam_pair_free), or an error with a message. */
hs_code fam_make(fam_id f, uint64_t seed, long index, int m, const fam_meshes *meshes,
                 fam_pair *out, hs_error *err);
void fam_pair_free(fam_pair *p);

/* Slot s (0 = A, 1 = B) of p made the rows of the library's exact hull
 * of pts (n points, 3n doubles) as hull3_rows writes them, its interior
 * point the average of the hull's vertices (as the hull family's).
 * HS_OK, or an error (degenerate points, out of memory). */
hs_code fam_pair_hull(const double *pts, int n, fam_pair *p, int s, hs_error *err);

/* B of p (p->m[1] rows with its interior point) turned and moved to rest
 * on A, as the hull-rest family does with hull pairs (families.h above):
 * B's face nearest its interior point onto A's face nearest A's, the
 * feet of the perpendiculars at one point, B then turned about the normal
 * by spin radians; with exact, B's resting row is then replaced by A's
 * row negated (touching by the numbers written), without it the two faces
 * coincide only to rounding (overlapping or apart by about 1e-16 of the
 * size, as bodies placed with floating-point transforms are).  The rows
 * must bound both polytopes (every row's norm nonzero). */
void fam_pair_rest(fam_pair *p, double spin, int exact);

#ifdef __cplusplus
}
#endif

#endif
