/* lpd.c -- stub */
#include "solver/lpd.h"
int lpd_interior_point(const hs_poly *p, double *x, double *radius) { (void)p; (void)x; (void)radius; return -1; }
int lpd_box_hint(const hs_poly *p, double *lo, double *hi) { (void)p; (void)lo; (void)hi; return -1; }
