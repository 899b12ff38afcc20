/* fast_work.h -- the fast engine's scratch, owned by an hs_result
 * (fast_work.c frees it; engine_fast.c allocates and grows it): allocated
 * at a result's first fast query, grown only when a larger query than ever
 * before arrives. */
#ifndef HS_FAST_WORK_H
#define HS_FAST_WORK_H

#include <stddef.h>
#include <stdint.h>

#include "polytope/predicates.h"
#include "solver/seidel.h"

/* Candidate rows per polyhedron when they come from a scan. */
#define FAST_SCAN_CANDIDATES 16

struct fast_work {
    seidel_work *sw;
    int cap_m;
    int *order;            /* the candidate set of the LP, then the rest */
    unsigned char *in_set; /* rows in the candidate set */
    uint64_t rng;          /* the safety net's row shuffles, seeded from the query
                              when they run (fast_rounds.c: query_seed) */
    pred_stats ps;
    double *lp_tab;        /* packed rows of the dual simplex (fast_lp.c) */
    double *plane_buf;     /* the rows of a plane LP (fast_faces.c: plane_rows): 4 a row */
    int *plane_ids;        /* their ids and the LP's set: 2 a row */
    unsigned char *plane_in; /* 1 a row */
    int plane_cap;         /* rows */
    int cand[2][FAST_SCAN_CANDIDATES]; /* candidate rows found by a scan (no direction map) */
    int lp_tab_cap;        /* doubles */
};

typedef struct fast_work fast_work;

void fast_work_free(fast_work *w);

#endif
