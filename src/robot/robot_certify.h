/* robot_certify.h -- certified shortcuts before the narrow phase
 * (robot_certify.c): a proven separating plane, or a proven common
 * interior point. */
#ifndef HS_ROBOT_CERTIFY_H
#define HS_ROBOT_CERTIFY_H

#include "halfspace.h"
#include "src/shape/geom.h"

/* A piece and its pose, with the bound on the rounding of its supports
 * (kept for the next pair that has the same piece at the same pose). */
typedef struct cert_side {
    const geom *g;
    double P[16];
    const double *v; /* its corners, 3 n, in its own frame */
    int n;
    double cen[3];   /* a point among them (GJK's first direction) */
    double e;        /* |support error| <= |d|_1 e */
} cert_side;

/* Scratch of the shortcuts (zero-initialized; robot_cert_free). */
typedef struct robot_cert {
    cert_side side[2];
    double *rows;    /* mapped rows of the mover, 4 doubles each */
    int rows_cap;
    unsigned char *mapped;
    int mapped_cap;
    double tri[2][9]; /* a mesh triangle as a side */
} robot_cert;

void robot_cert_free(robot_cert *c);
/* Forget the placed corners (at the start of every query: a piece freed
 * since may have left its address to another). */
void robot_cert_reset(robot_cert *c);

/* Piece ga placed by PA against gb placed by PB: HS_DISJOINT (a
 * separating plane is proven for the pieces placed exactly by PA and PB),
 * HS_OVERLAP (a point strictly inside both is proven, with the pieces
 * posed as the narrow phase poses them), or -1 (no proof: ask the narrow
 * phase; also when out of memory). */
int robot_certify(robot_cert *c, const geom *ga, const double PA[16], const geom *gb,
                  const double PB[16]);

/* A certified lower bound on the distance between the pieces placed
 * exactly by PA and PB (0 when they may meet): GJK's directions, each
 * support checked with its rounding bound; it stops as soon as the bound
 * reaches `enough`.  A mesh piece: its hull first, then (when that is not
 * enough) triangle by triangle.  dir (may be NULL; 3 doubles): GJK's
 * first direction when nonzero (the last one of the same pair: a warm
 * start), and its last direction on return. */
double robot_cert_lower_bound(robot_cert *c, const geom *ga, const double PA[16],
                              const geom *gb, const double PB[16], double enough,
                              double *dir);

#endif
