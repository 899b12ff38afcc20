/* poly_build.h -- finishing a system built by hand (poly_build.c). */
#ifndef HS_POLY_BUILD_H
#define HS_POLY_BUILD_H

#include "halfspace.h"

/* Last step of every constructor: the once-per-polyhedron data of the fast
 * engine.  Returns 0, or -1 when out of memory. */
int poly_prepare(hs_poly *p);

#endif
