/* pairs.h -- what bench/pairs.c (instances, methods, the timing loop) and
 * bench/pairs_report.c (figures, tables, RESULT lines) share: the
 * options, the methods, the answers and the figures of one row. */
#ifndef HS_BENCH_PAIRS_H
#define HS_BENCH_PAIRS_H

#include <stdint.h>

#include "bench/families.h"

#define MAX_SIZES 16
#define GLPK_TOL 1e-9 /* |tau*| below this is "touching" for GLPK */
#define CCD_ITERATIONS 100
#define SKIP_MAX 1000 /* pairs skipped (unbounded draws) before giving up */
#define PREEMPT_TRIES 3 /* attempts of a query that was switched out */
#define LONG_QUERY_S 100e-6 /* longer queries: CPU time when switched out */

enum { M_FAST, M_EXACT, M_GLPK, M_MPR, M_MPR_HILL, M_GJK, M_GJK_HILL, METHODS };
/* "fast", "exact", "glpk", "mpr", "mpr-hill", "gjk", "gjk-hill" */
extern const char *const method_label[METHODS];

typedef enum answer { ANS_DISJOINT, ANS_OVERLAP, ANS_TOUCHING, ANS_INTERSECT, ANS_ERROR } answer;
enum { CLASSES = 3 }; /* disjoint, overlap, touching */

/* Index of an exact class: disjoint 0, overlap 1, touching 2. */
static inline int class_index(answer a) { return a == ANS_DISJOINT ? 0 : a == ANS_OVERLAP ? 1 : 2; }

/* Command-line options. */
typedef struct bench_opts {
    int fam[FAM_COUNT];
    int sizes[MAX_SIZES];
    int nsizes;
    long pairs;
    int repeat;
    uint64_t seed;
    long exact_pairs;
    int run[METHODS]; /* methods timed (--methods); fast always */
    const char *data;
    int verbose;
} bench_opts;

/* Figures of one row (family and m). */
typedef struct row_stats {
    fam_id fam;
    int m;             /* the family's m; hull: rounded mean */
    int m_min, m_max;
    double m_mean;
    long pairs, skipped;
    long count[CLASSES];
    answer *cls;       /* per pair */
    double *t[METHODS]; /* [r * pairs + i] seconds; NAN when not run */
    double *first[METHODS];
    long wrong[METHODS];
    long preempted[METHODS]; /* attempts switched out and run again */
    long by_cpu[METHODS];    /* long queries switched out: CPU time taken */
    double cpu_cost;         /* one cpu_now reading */
    long fallbacks, not_ready;
    double build_s;    /* hs_poly_from_doubles, all polytopes */
    double ready_s;    /* the same + hs_poly_fast_ready, on copies */
    long vertices;     /* libccd's vertices, all polytopes */
    long builds;
    double setup_s, run_s;
} row_stats;

/* Print the tables, the notes and the RESULT lines of nst rows. */
void pairs_report(const bench_opts *o, const row_stats *st, int nst, const fam_meshes *meshes,
                  const char *mesh_note);

#endif
