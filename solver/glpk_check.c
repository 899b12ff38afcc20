/* PLACEHOLDER (replaced by the GLPK work before any commit) */
#include "solver/engines.h"
#include "src/error.h"
hs_code glpk_feasible(const hs_poly *P, int x, hs_result *r, hs_error *e)
{ (void)P; (void)x; (void)r; return hs_fail(e, HS_ERR_UNSUPPORTED, "glpk: not yet built"); }
hs_code glpk_intersect(const hs_poly *A, const hs_poly *B, int x, hs_result *r, hs_error *e)
{ (void)A; (void)B; (void)x; (void)r; return hs_fail(e, HS_ERR_UNSUPPORTED, "glpk: not yet built"); }
