/* crosscheck.h -- random instances with known answers, run through every
 * engine and compared: the library side of `halfspace crosscheck` (the
 * generator in crosscheck_gen.c, the runner in crosscheck_run.c; the
 * command's options are parsed in src/cli/cli_crosscheck.c).
 *
 * Every generated number is an integer or a dyadic rational (an integer
 * times a power of two) small enough to be exactly a double, so each
 * engine, GLPK included, sees exactly the same numbers. */
#ifndef HS_CROSSCHECK_H
#define HS_CROSSCHECK_H

#include <stdint.h>
#include <stdio.h>

#include "halfspace.h"

/* The instance families, taken in turn: instance k belongs to family
 * k % CC_FAMILY_COUNT. */
typedef enum cc_family {
    CC_GENERAL = 0, /* random pairs, about half of them overlapping */
    CC_FACE_FACE,   /* A and B share a facet hyperplane from opposite sides */
    CC_VERTEX_FACE, /* a vertex of B lies on a facet of A */
    CC_EDGE_EDGE,   /* two edges cross at a point (3-D; ridges elsewhere) */
    CC_COINCIDENT,  /* a facet hyperplane shared with the same orientation */
    CC_REDUNDANT,   /* known cases plus redundant, duplicate, scaled rows */
    CC_EMPTY,       /* A (or both) empty */
    CC_UNBOUNDED,   /* half-spaces, slabs, uncapped cones and wedges */
    CC_TINY_GAP,    /* contact cases moved by 2^-40 apart or together */
    CC_LOWER_DIM,   /* flat pieces on a face or crossing the other one */
    CC_FAMILY_COUNT
} cc_family;

/* Expected class when the construction does not fix it. */
#define CC_UNKNOWN (-1)

/* Largest dimension the generator accepts. */
#define CC_MAX_DIM 12
/* Largest --rows value. */
#define CC_MAX_ROWS 1000

typedef struct crosscheck_instance {
    cc_family family;
    const char *variant; /* static text naming the construction */
    int n;
    int expected;        /* an hs_status, or CC_UNKNOWN */
    hs_poly *A, *B;
} crosscheck_instance;

/* Name of a family ("face-face", ...). */
const char *crosscheck_family_name(cc_family f);

/* Instance number `index` of the stream for `seed`: family index %
 * CC_FAMILY_COUNT, dimension `dim` or, when dim is 0, 1..5 in turn (each
 * family meets every dimension), `rows` random rows per polyhedron before
 * the family adds its own.  The same arguments give the same instance.
 * Returns HS_OK or an error (bad arguments, out of memory). */
hs_code crosscheck_generate(uint64_t seed, long index, int dim, int rows,
                            crosscheck_instance *inst, hs_error *err);

/* The same with the family and dimension chosen by the caller. */
hs_code crosscheck_generate_family(uint64_t seed, long index, cc_family family, int n, int rows,
                                   crosscheck_instance *inst, hs_error *err);

/* Free the polyhedra of an instance (the struct itself is the caller's). */
void crosscheck_instance_free(crosscheck_instance *inst);

/* Engine selection bits for crosscheck_opts.engines. */
#define CC_ENGINE_BIT(e) (1u << (unsigned)(e))
#define CC_ALL_ENGINES                                                                     \
    (CC_ENGINE_BIT(HS_ENGINE_EXACT) | CC_ENGINE_BIT(HS_ENGINE_FAITHFUL) |                  \
     CC_ENGINE_BIT(HS_ENGINE_GLPK) | CC_ENGINE_BIT(HS_ENGINE_GLPK_EXACT) |                 \
     CC_ENGINE_BIT(HS_ENGINE_FAST))

typedef struct crosscheck_opts {
    long count;       /* instances (default 1000) */
    int dim;          /* 0: dimensions 1..5 in turn (default) */
    int rows;         /* random rows per polyhedron (default 8) */
    uint64_t seed;    /* default 1 */
    int verbose;      /* one line per instance */
    unsigned engines; /* engines to run (default CC_ALL_ENGINES); comparisons
                         that need a missing engine are skipped */
    double time_limit; /* seconds per instance for all its engines together
                          (0: none, the default); with a limit each instance
                          runs in a child process, stopped when the time is
                          up: reported and counted as skipped */
} crosscheck_opts;

void crosscheck_opts_init(crosscheck_opts *o);

/* Counts of one comparison between two answers. */
typedef struct cc_pair_stats {
    long compared;    /* instances where both answers exist */
    long agree;
    long explained;   /* float disagreements on instances near touching */
    long unexplained; /* every other disagreement */
} cc_pair_stats;

/* The comparisons, in the order they are printed. */
typedef enum cc_pair {
    CC_EXACT_VS_GLPK_EXACT = 0, /* three-way status, must agree */
    CC_FAST_VS_EXACT,           /* three-way status, must agree */
    CC_EXACT_VS_EXPECTED,       /* reference engine vs the construction */
    CC_FAITHFUL_VS_GLPK,        /* intersect-or-not, float vs float */
    CC_FAITHFUL_VS_EXACT,       /* intersect-or-not */
    CC_GLPK_VS_EXACT,           /* three-way status */
    CC_PAIR_COUNT
} cc_pair;

typedef struct crosscheck_summary {
    long instances;
    cc_pair_stats pair[CC_PAIR_COUNT];
    long engine_errors;           /* failed engine calls (each a failure) */
    long fast_queries, fast_fallbacks; /* fast engine answers, and how many
                                          came from its exact fallback */
    long skipped;                 /* instances over the time limit */
    long disagreements;           /* D of the last line: unexplained
                                     disagreements of every pair plus
                                     engine errors */
    long family_count[CC_FAMILY_COUNT];
    long family_status[CC_FAMILY_COUNT][3]; /* reference answers per family:
                                               disjoint, touching, overlap */
} crosscheck_summary;

/* Generate o->count instances, run them through the engines, compare, and
 * print per-instance lines (verbose), one line per disagreement or
 * skipped instance, the summary, and last "crosscheck: N instances, D
 * disagreements" (followed by ", K skipped (over the time limit)" when K
 * instances were).  The
 * reference for expected classes and for the float comparisons is the
 * exact engine, or glp_exact when the exact engine is not selected.
 * Returns HS_OK when the run completed (whatever D is), else an error. */
hs_code crosscheck_run(const crosscheck_opts *o, FILE *out, crosscheck_summary *s,
                       hs_error *err);

#endif
