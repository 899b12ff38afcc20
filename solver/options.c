/* options.c -- the names of statuses and engines, and the defaults of a
 * query's options. */
#include <string.h>

#include "halfspace.h"

const char *hs_status_name(hs_status s)
{
    switch (s) {
    case HS_INFEASIBLE: return "infeasible";
    case HS_FEASIBLE: return "feasible";
    case HS_DISJOINT: return "disjoint";
    case HS_TOUCHING: return "touching";
    case HS_OVERLAP: return "overlap";
    case HS_INTERSECT: return "intersect";
    case HS_CONTACT: return "contact";
    }
    return "unknown";
}

static const char *const engine_names[] = {"exact", "faithful",  "glpk",
                                           "glpk-exact", "fast", "faithful-exact"};

const char *hs_engine_name(hs_engine e)
{
    if ((int)e < 0 || (size_t)e >= sizeof engine_names / sizeof engine_names[0])
        return "unknown";
    return engine_names[e];
}

int hs_engine_from_name(const char *name, hs_engine *e)
{
    for (size_t i = 0; i < sizeof engine_names / sizeof engine_names[0]; i++)
        if (name && strcmp(name, engine_names[i]) == 0) {
            *e = (hs_engine)i;
            return 1;
        }
    return 0;
}

void hs_options_init(hs_options *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->engine = HS_ENGINE_FAST;
    opt->faithful_tol = 1e-12;
}
