/* contact.h -- contacts between two pieces (seed 001): closest points,
 * normal, and the contact region pruned to the corners of its convex
 * hull.  Measured in floating point (contacts are measurements); whether
 * the pieces meet is decided exactly elsewhere. */
#ifndef HS_CONTACT_H
#define HS_CONTACT_H

#include "src/narrow/narrow.h"

#define CONTACT_MAX 16 /* contact points kept per piece pair */

typedef struct contact_pt {
    double on_a[3], on_b[3]; /* world frame */
} contact_pt;

typedef struct contact_set {
    double distance;         /* smallest distance between the pieces */
    double normal[3];        /* unit, from the first piece towards the second */
    int count;
    contact_pt pt[CONTACT_MAX];
} contact_set;

/* Distance between the pieces a and b (world frame), closest points in
 * pa, pb.  For meshes, the smallest over their triangles. */
double contact_distance(narrow_ws *ws, const narrow_piece *a, const narrow_piece *b,
                        double pa[3], double pb[3]);

/* Contacts of two pieces that do not overlap and are closer than
 * `threshold` (hit: their exact status, with its normal when touching).
 * Returns the number of points (0: not in contact). */
int contact_points(narrow_ws *ws, const narrow_piece *a, const narrow_piece *b,
                   const piece_hit *hit, double threshold, contact_set *out);

#endif
