/* PLACEHOLDER (replaced by the faithful-engine work before any commit) */
#include "solver/engines.h"
#include "src/error.h"
hs_code faithful_feasible(const hs_poly *P, const hs_options *o, hs_result *r, hs_error *e)
{ (void)P; (void)o; (void)r; return hs_fail(e, HS_ERR_UNSUPPORTED, "faithful: not yet built"); }
hs_code faithful_intersect(const hs_poly *A, const hs_poly *B, const hs_options *o, hs_result *r, hs_error *e)
{ (void)A; (void)B; (void)o; (void)r; return hs_fail(e, HS_ERR_UNSUPPORTED, "faithful: not yet built"); }
