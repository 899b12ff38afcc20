/* soup.h -- polygon soups, the points and faces every scene reader
 * collects, and how they become a piece of a body (soup.c). */
#ifndef HS_SOUP_H
#define HS_SOUP_H

#include "halfspace.h"

/* Points and polygons collected by a reader before they become a piece.
 * Face f has the corners fidx[fstart[f] .. fstart[f+1]-1] (fstart[0] = 0,
 * fstart[nfaces] = nidx), given as indices into pts. */
typedef struct scene_soup {
    double *pts;
    int npts, pcap;
    int *fidx;
    int nidx, icap;
    int *fstart;
    int nfaces, fcap;
} scene_soup;

typedef enum soup_mode {
    SOUP_MESH,        /* a triangle mesh */
    SOUP_CONVEX_TEST, /* the hull of the points when the faces bound a
                         closed convex solid, a mesh otherwise */
    SOUP_HULL         /* the hull of the points */
} soup_mode;

void soup_init(scene_soup *s);
void soup_free(scene_soup *s);
/* Append a point / a corner of the open face / close the open face.
 * Each returns 0, or -1 when out of memory. */
int soup_point(scene_soup *s, const double p[3]);
int soup_corner(scene_soup *s, int idx);
int soup_end_face(scene_soup *s);

/* Make the soup a piece of b: points mapped by place (NULL: identity),
 * polygons split into fans (P0, Pi, Pi+1), fan triangles of zero area
 * (collinear corners) dropped, unused points left out.  Every corner must
 * be a valid index (the readers check them).  Errors are located at
 * FILE:LINE, e.g. "no face of nonzero area". */
hs_code soup_add_piece(hs_body *b, const scene_soup *s, const double place[16], soup_mode mode,
                       const char *file, int line, hs_error *err);

/* The points soup_add_piece gives the hull in mode SOUP_HULL (place NULL):
 * the corners of the fan triangles of nonzero area, equal points merged,
 * in order of first use.  *pts (free with free()) and *n are set on
 * success only.  Errors as soup_add_piece's. */
hs_code soup_points(const scene_soup *s, const char *file, int line, double **pts, int *n,
                    hs_error *err);

#endif
