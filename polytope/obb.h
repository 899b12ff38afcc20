/* obb.h -- internal routines behind the oriented boxes of halfspace.h
 * (seed 004: OBB, separating axis theorem), including fast paths for
 * box hierarchies.
 *
 * Rigour.  Every routine is conservative for the numbers exactly as
 * stored: a box is the set {center + sum_k s_k axis[k] : |s_k| <= half[k]}
 * of the stored doubles (a parallelotope when the axes are not exactly
 * orthonormal, which in doubles they never are), and an answer "disjoint"
 * or a distance bound holds for those sets in real arithmetic.  Rounding
 * errors are bounded with the standard model |fl(x op y) - x op y| <=
 * u |x op y| + eta (u = 2^-53, eta = 2^-1075 for underflow) and the usual
 * gamma_k = k u / (1 - k u) bounds on dot products (Higham, "Accuracy and
 * Stability of Numerical Algorithms", ch. 3).  Non-finite intermediate
 * values (overflow) never produce "disjoint": every comparison that
 * certifies is written so that NaN makes it false.
 *
 * Thread-safe: pure functions. */
#ifndef HS_OBB_H
#define HS_OBB_H

#include "halfspace.h"

/* Largest defect max |a_i . a_k - [i == k]| of a frame that the routines
 * accept; frames further from orthonormal make the overlap test answer
 * "may meet" and the enclosing routines re-orthonormalise. */
#define OBB_MAX_DEFECT 0x1p-20

/* Frames are passed as 9 doubles, the three axes as rows (for a box:
 * (const double *)box->axis).
 *
 * Rigorous upper bound on the defect of the frame ax, or +inf when
 * it exceeds OBB_MAX_DEFECT or is not finite. */
double obb_frame_defect(const double *ax);

/* kappa for a frame of defect <= delta: for any vector v, the coordinates
 * s of v in the basis ax (v = sum_k s_k ax[k]) satisfy
 * |s_i| <= |ax[i] . v| + kappa * max_k |ax[k] . v|.
 * (s = G^-1 A v with G = A A^T = I + F, |F_ik| <= delta, so
 * ||G^-1 - I||_inf <= 3 delta / (1 - 3 delta).)  Rounded up. */
double obb_kappa(double delta);

/* Make ax a right-handed orthonormal frame (to rounding) from three
 * approximate directions: Gram-Schmidt on ax[0], ax[1], then ax[2] =
 * ax[0] x ax[1].  Returns 0 on success, -1 when the directions are
 * (numerically) dependent or not finite (ax is then the identity). */
int obb_orthonormalize(double *ax);

/* Eigenvectors of the symmetric 3x3 matrix a (destroyed) as the rows of
 * v (row-major): cyclic Jacobi rotations, at most `sweeps` of them, until
 * the off-diagonal sum is at most tol times the diagonal's.  Steering
 * only (the choice of a frame); no bound depends on it. */
void obb_jacobi3(double a[3][3], double v[9], int sweeps, double tol);

/* The core test, exact for its inputs: the axis-aligned box [-ha, ha]
 * (A) against the parallelotope {t + R s : |s_k| <= hb_k} (B), R any 3x3
 * matrix (row-major; column k is B's k-th edge direction), all finite or
 * not.  The 15 axes are e_i, the face normals of B (cross products of R's
 * columns, computed) and e_i x (column j); each projection has a rigorous
 * error bound, so a (nearly) parallel edge pair, whose axis is (nearly)
 * zero, can never certify.  Returns 0 only when A and B are disjoint, 1
 * otherwise (touching counts as meeting).  About 15-30 ns. */
int obb_overlap_frame(const double ha[3], const double R[9], const double t[3],
                      const double hb[3]);

/* Lower bound on the Euclidean distance between the same two sets: the
 * largest certified gap over the 15 axes (0 when none). */
double obb_gap_frame(const double ha[3], const double R[9], const double t[3],
                     const double hb[3]);

/* The pair (a, b) with b placed by the pose m (b's coordinates -> a's
 * world; NULL = identity), reduced to the core problem in a's frame:
 * y = A (x - a.center) maps a into the axis box [-ha, ha] and the image
 * of b to {t + R s : |s| <= b.half}, with ha inflated by the rounding of
 * t and R and by a's frame defect (so the reduction is conservative).
 * *scale receives an upper bound on ||A||_2 (distances in y are at most
 * scale times distances in x).  Returns 0, or -1 when a's frame is not
 * orthonormal to OBB_MAX_DEFECT or a number is not finite (then nothing
 * can be certified). */
int obb_relative(const hs_obb *a, const hs_obb *b, const double *m, double ha[3], double R[9],
                 double t[3], double *scale);

/* hs_obb_overlap for b placed by the pose m (b's frame -> a's frame;
 * NULL = identity): 0 only when a and m(b) are certainly disjoint. */
int obb_overlap_posed(const hs_obb *a, const hs_obb *b, const double *m);

/* Upper bound, per axis i of `frame`, on |frame.axis[i] . (x - c)| over
 * every x of the set {center + sum_k s_k gen[k] : |s_k| <= half[k]}
 * where center and gen are the exact images under the pose m (NULL =
 * identity) of box->center and box->axis: ext[i] is maxed in. */
void obb_extent_in(const double *fax, const double c[3], const hs_obb *box,
                   const double *m, double ext[3]);

/* Box of frame fax (rows, orthonormal to OBB_MAX_DEFECT) containing a
 * placed by the pose ma and b placed by mb (NULL = identity); the centre
 * is chosen from rough extents.  For box hierarchies whose nodes keep a
 * fixed frame (for example a link's own axes). */
void obb_merge_in_frame(hs_obb *out, const double *fax, const hs_obb *a,
                        const double *ma, const hs_obb *b, const double *mb);

/* Half sizes of the box of frame fax centred at c that contains every
 * set whose extents (as from obb_extent_in) are ext; +inf if fax is not
 * orthonormal to OBB_MAX_DEFECT. */
void obb_halves_from_extents(const double *fax, const double ext[3], double half[3]);

/* An upper bound on the real value of a sum of at most 28 nonnegative
 * terms, each with at most 28 rounding errors, computed as x: every
 * operation contributes a factor (1 + u) and, on underflow, an absolute
 * eta = 2^-1075 (at most 1024 such terms).  If x >= 2^-1014 / (1 + 34u),
 * x (1 + 64u) covers the factors with 34u x >= 2^10 eta to spare; below,
 * the floor 2^-1014 exceeds x (1 + 30u) + 2^10 eta.  Normal constants
 * only: a subnormal operand costs a hundred cycles on x86.  NaN stays
 * NaN (the comparison is false for NaN, and maxsd keeps y), so it never
 * certifies anything. */
static inline double obb_up(double x)
{
    double y = x * (1 + 64 * 0x1p-53); /* u = 2^-53 (FP_U of fp.h) */
    return 0x1p-1014 > y ? 0x1p-1014 : y;
}

/* An error bound that will be multiplied by an arbitrary factor h: its
 * underflow part (a few eta) is covered by flooring it at 2^-1014, since
 * h 2^-1014 >= 2^58 h eta (or h 2^-1014 itself is below eta). */
static inline double obb_err_floor(double e) { return e < 0x1p-1014 ? 0x1p-1014 : e; }

#endif
