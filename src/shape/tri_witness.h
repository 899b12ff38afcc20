/* tri_witness.h -- a fast path for the witness of two crossing triangles
 * (tri_witness.c), the common case of tri_tri.c's witness. */
#ifndef HS_TRI_WITNESS_H
#define HS_TRI_WITNESS_H

/* One end of the segment p n q of two crossing triangles: the point where
 * the line through a and b meets the plane through plane[0..2] (a strictly
 * off that plane, b on the other side or on it, so the line crosses it). */
typedef struct tri_witness_end {
    const double (*plane)[3];
    const double *a, *b;
} tri_witness_end;

/* The midpoint of the two ends, each coordinate the double nearest to the
 * exact value, into out; 1 when every coordinate is certified, 0 (out
 * unspecified) when the caller must compute it exactly: inputs outside
 * [2^-60, 2^60] in magnitude (zeros allowed), a coordinate within the
 * error bound of a rounding boundary, or one below 2^-900 in magnitude. */
int tri_witness_crossing(const tri_witness_end *lo, const tri_witness_end *hi, double out[3]);

#endif
