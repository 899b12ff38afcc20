/* path.c -- seed 004's trajectories on the palletizing cell
 * (examples/palletizing/pallet.wrl): a carton in a robot's gripper moved
 * along straight lines and circular arcs among a stacked pallet, a thin
 * light curtain and a conveyor.
 *
 *  1. Time per path step: the four example paths (line and arc, free and
 *     blocked) and the line over the curtain, in the stepped mode with
 *     K = 10, 100, 1000 steps and in the guaranteed mode; queries are the
 *     distance evaluations of the carton against the bodies near it
 *     (hs_path_result.queries), time is CLOCK_MONOTONIC around
 *     hs_path_check, the median of --reps runs.
 *  2. The thin curtain: for K = 1, 2, ..., the first K at which the
 *     stepped mode sees the 1 cm curtain on the line to (39, 95, 19.5),
 *     and the queries the guaranteed mode needs.
 *  3. The seed's answer beside ours at every step pose of the example
 *     paths (K = 100): the seed tests oriented boxes with the separating
 *     axis theorem (15 axes); we test the pieces exactly.  For each pose
 *     and each other body: does the SAT on the pieces' OBBs
 *     (hs_body_piece_obb, hs_obb_transform, hs_obb_overlap) say "may
 *     meet", and do they meet exactly (hs_world_query, threshold 0)?
 *     Counts, and the time per SAT pair test and per exact world query;
 *     once for the carton (a box: its OBB is itself) and once for a drum
 *     (a 24-sided prism of radius 19 in its place: its OBB has corners
 *     the drum has not).
 *  4. The seed's arc recurrence (eqs. (26)-(29)) beside the closed form we
 *     use, on the example arc into the slot: the recurrence advances
 *     atan(F T / R) per step (not the delta = asin(F T / R) of eq. (31)),
 *     stays on the circle, and after ceil(theta / delta) steps ends away
 *     from the end point; the closed form ends on it.  The seed's error
 *     bound F T^2 / 8R (the sagitta of a chord F T) beside the largest gap
 *     between our chords and the arc.
 *
 * Output (stdout): Markdown tables, then a fenced block of lines
 *   RESULT bench=path ... */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "halfspace.h"

#define MAX_REPS 101

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void die(const char *what, const hs_error *err)
{
    fprintf(stderr, "bench/path: %s: %s\n", what, err ? err->msg : "");
    exit(1);
}

/* ------------------------------------------------------------ paths */

typedef struct example {
    const char *name;
    int arc;
    double a[3], b[3]; /* line: target in a; arc: via a, end b */
} example;

static const example examples[] = {
    {"line over the stack (free)", 0, {39, 110, 19.5}, {0, 0, 0}},
    {"line into the slot (curtain)", 0, {39, 61, 19.5}, {0, 0, 0}},
    {"arc over the top (free)", 1, {-30, 140, 19.5}, {39, 110, 19.5}},
    {"arc into the slot (carton 25)", 1, {-30, 145, 19.5}, {39, 61, 19.5}},
    {"line low over the curtain", 0, {39, 95, 19.5}, {0, 0, 0}},
};
#define NEXAMPLES (int)(sizeof examples / sizeof examples[0])

static hs_path *make_path(const hs_body *g, const example *e)
{
    double start[16];
    hs_error err;
    hs_body_get_pose(g, start);
    hs_path *p = e->arc ? hs_path_arc(start, e->a, e->b, 0, &err)
                        : hs_path_line(start, e->a, NULL, &err);
    if (!p)
        die(e->name, &err);
    return p;
}

/* Median time of reps checks; the last result in *r. */
static double time_check(hs_world *w, hs_body *g, const hs_path *p, const hs_path_options *opt,
                         int reps, hs_path_result *r)
{
    double t[MAX_REPS];
    hs_error err;
    for (int i = 0; i < reps; i++) {
        double t0 = now();
        if (hs_path_check(w, g, p, opt, r, NULL, &err) != HS_OK)
            die("hs_path_check", &err);
        t[i] = now() - t0;
    }
    qsort(t, (size_t)reps, sizeof *t, by_value);
    return t[reps / 2];
}

/* RESULT lines of section 1, printed at the end. */
static char step_results[8192];

static void print_check(const char *name, const char *mode, const hs_path_result *r, double s)
{
    char what[64];
    if (r->blocked)
        snprintf(what, sizeof what, "%s at step %d", r->step_collision ? "collision" : "contact",
                 r->step);
    else
        snprintf(what, sizeof what, "free");
    printf("| %s | %s | %d | %s | %ld | %.3f | %.1f |\n", name, mode, r->steps, what, r->queries,
           1e3 * s, 1e6 * s / (double)r->queries);
    size_t len = strlen(step_results);
    snprintf(step_results + len, sizeof step_results - len,
             "RESULT bench=path part=steps path=\"%s\" mode=%s k=%d blocked=%d step=%d "
             "queries=%ld ms=%.4f us_per_query=%.2f\n",
             name, mode, r->steps, r->blocked, r->step, r->queries, 1e3 * s,
             1e6 * s / (double)r->queries);
}

static void section_steps(hs_world *w, hs_body *g, int reps)
{
    static const int ks[] = {10, 100, 1000};
    printf("### 1. Time per path step (palletizing cell, threshold 0.1 cm)\n\n");
    printf("| path | mode | K | answer | queries | ms per path | us per query |\n");
    printf("|---|---|---:|---|---:|---:|---:|\n");
    for (int e = 0; e < NEXAMPLES; e++) {
        hs_path *p = make_path(g, &examples[e]);
        hs_path_options opt;
        hs_path_options_init(&opt);
        hs_path_result r;
        for (int i = 0; i < 3; i++) {
            opt.steps = ks[i];
            double s = time_check(w, g, p, &opt, ks[i] >= 1000 ? (reps + 4) / 5 : reps, &r);
            print_check(examples[e].name, "stepped", &r, s);
        }
        opt.steps = 10;
        opt.guaranteed = 1;
        double s = time_check(w, g, p, &opt, reps, &r);
        print_check(examples[e].name, "guaranteed", &r, s);
        fprintf(stderr, "path: %s done\n", examples[e].name);
        hs_path_free(p);
    }
    printf("\n");
}

/* ---------------------------------------------------- thin curtain */

static void section_curtain(hs_world *w, hs_body *g, char *result, size_t size)
{
    hs_path *p = make_path(g, &examples[4]);
    hs_path_options opt;
    hs_path_options_init(&opt);
    hs_path_result r;
    hs_error err;
    int first = 0, misses = 0;
    long stepped_queries = 0;
    for (int k = 1; k <= 200; k++) {
        opt.steps = k;
        if (hs_path_check(w, g, p, &opt, &r, NULL, &err) != HS_OK)
            die("curtain", &err);
        if (r.blocked && !first) {
            first = k;
            stepped_queries = r.queries;
        }
        misses += !r.blocked;
    }
    opt.steps = 10;
    opt.guaranteed = 1;
    if (hs_path_check(w, g, p, &opt, &r, NULL, &err) != HS_OK)
        die("curtain", &err);
    printf("### 2. The 1 cm curtain on the line to (39, 95, 19.5)\n\n");
    printf("The stepped mode answers `free` for K = 1 .. %d and first sees the curtain at "
           "K = %d (%ld distance queries); of K = 1 .. 200 it misses the curtain for %d.  The "
           "guaranteed mode stops %.4g cm before it after %ld queries, at fraction %.6f of "
           "the path.\n\n",
           first - 1, first, stepped_queries, misses, r.distance, r.queries, r.fraction);
    snprintf(result, size,
             "RESULT bench=path part=curtain first_stepped_k=%d misses_1_200=%d "
             "stepped_queries=%ld guaranteed_queries=%ld guaranteed_fraction=%.9f\n",
             first, misses, stepped_queries, r.queries, r.fraction);
    hs_path_free(p);
}

/* ------------------------------------------------- OBB SAT vs exact */

typedef struct obb_list {
    hs_obb *box;   /* world frame, static bodies; body frame, the carton */
    int *owner;    /* body index */
    int n;
} obb_list;

static void collect_obbs(const hs_world *w, const hs_body *g, obb_list *others, obb_list *mine)
{
    int total = 0;
    for (int i = 0; i < hs_world_body_count(w); i++)
        total += hs_body_piece_count(hs_world_body(w, i));
    others->box = malloc(sizeof(hs_obb) * (size_t)total);
    others->owner = malloc(sizeof(int) * (size_t)total);
    mine->box = malloc(sizeof(hs_obb) * (size_t)total);
    mine->owner = malloc(sizeof(int) * (size_t)total);
    others->n = mine->n = 0;
    hs_error err;
    for (int i = 0; i < hs_world_body_count(w); i++) {
        const hs_body *b = hs_world_body(w, i);
        double m[16];
        hs_body_get_pose(b, m);
        obb_list *l = b == g ? mine : others;
        for (int k = 0; k < hs_body_piece_count(b); k++) {
            hs_obb box;
            if (hs_body_piece_obb(b, k, &box, &err) != HS_OK)
                die("hs_body_piece_obb", &err);
            if (b != g)
                hs_obb_transform(&box, &box, m);
            l->box[l->n] = box;
            l->owner[l->n++] = i;
        }
    }
}

/* Bodies (by index) that the SAT says the carton at pose m may meet. */
static void sat_bodies(const obb_list *others, const obb_list *mine, const double m[16],
                       int *hit, long *tests)
{
    for (int j = 0; j < mine->n; j++) {
        hs_obb posed;
        hs_obb_transform(&posed, &mine->box[j], m);
        for (int i = 0; i < others->n; i++) {
            ++*tests;
            if (hs_obb_overlap(&posed, &others->box[i]))
                hit[others->owner[i]] = 1;
        }
    }
}

/* Bodies that meet the carton exactly (overlap or touching). */
static void exact_bodies(const hs_world *w, hs_report *rep, const hs_body *g, int *hit)
{
    hs_query_options q;
    hs_query_options_init(&q);
    q.threshold = 0;
    hs_error err;
    if (hs_world_query(w, &q, rep, &err) != HS_OK)
        die("hs_world_query", &err);
    for (int k = 0; k < hs_report_pair_count(rep); k++) {
        const char *a, *b;
        hs_report_pair(rep, k, &a, &b, NULL);
        const char *other = strcmp(a, hs_body_name(g)) == 0 ? b : a;
        for (int i = 0; i < hs_world_body_count(w); i++)
            if (strcmp(hs_body_name(hs_world_body(w, i)), other) == 0)
                hit[i] = 1;
    }
}

typedef struct sat_counts {
    long poses, pairs, sat_yes, exact_yes, sat_only, exact_only, sat_tests;
    double sat_s, exact_s;
} sat_counts;

static void compare_at(hs_world *w, hs_body *g, const obb_list *o, const obb_list *mine,
                       const double m[16], hs_report *rep, sat_counts *c)
{
    int nb = hs_world_body_count(w), sat[64] = {0}, exact[64] = {0};
    hs_error err;
    if (hs_body_set_pose(g, m, &err) != HS_OK)
        die("pose", &err);
    double t0 = now();
    sat_bodies(o, mine, m, sat, &c->sat_tests);
    double t1 = now();
    exact_bodies(w, rep, g, exact);
    double t2 = now();
    c->sat_s += t1 - t0;
    c->exact_s += t2 - t1;
    c->poses++;
    for (int i = 0; i < nb; i++) {
        if (hs_world_body(w, i) == g || strcmp(hs_body_name(hs_world_body(w, i)), "gripped") == 0)
            continue;
        c->pairs++;
        c->sat_yes += sat[i];
        c->exact_yes += exact[i];
        c->sat_only += sat[i] && !exact[i];
        c->exact_only += exact[i] && !sat[i];
    }
}

static void sat_along_paths(hs_world *w, hs_body *g, sat_counts *c)
{
    obb_list others, mine;
    collect_obbs(w, g, &others, &mine);
    hs_report *rep = hs_report_new();
    double start[16];
    hs_body_get_pose(g, start);
    for (int e = 0; e < NEXAMPLES; e++) {
        hs_path *p = make_path(g, &examples[e]);
        hs_path_options opt;
        hs_path_options_init(&opt);
        opt.steps = 100;
        double *poses;
        int n;
        hs_error err;
        if (hs_path_step_poses(p, &opt, &poses, &n, &err) != HS_OK)
            die("poses", &err);
        for (int k = 0; k < n; k++)
            compare_at(w, g, &others, &mine, poses + 16 * k, rep, c);
        hs_free(poses);
        hs_path_free(p);
    }
    hs_error err;
    hs_body_set_pose(g, start, &err);
    hs_report_free(rep);
    free(others.box), free(others.owner), free(mine.box), free(mine.owner);
}

/* The same load as a drum: a 24-sided prism of radius 19 and height 30
 * in place of the carton (the carton switched off). */
static hs_body *add_drum(hs_world *w, hs_body *g)
{
    hs_error err;
    hs_body *d = hs_world_add_body(w, "drum", 0, &err);
    double m[16];
    hs_body_get_pose(g, m);
    if (!d || hs_body_add_cylinder(d, 19, 30, 24, NULL, &err) != HS_OK ||
        hs_body_set_pose(d, m, &err) != HS_OK)
        die("drum", &err);
    hs_body_set_enabled(g, 0);
    return d;
}

static void print_sat_row(const char *load, const sat_counts *c, char *result, size_t size)
{
    printf("| %s | %ld | %ld | %ld | %ld | %ld | %ld | %.0f | %.1f |\n", load, c->poses, c->pairs,
           c->sat_yes, c->exact_yes, c->sat_only, c->exact_only, 1e9 * c->sat_s / c->sat_tests,
           1e6 * c->exact_s / c->poses);
    size_t len = strlen(result);
    snprintf(result + len, size - len,
             "RESULT bench=path part=sat load=%s poses=%ld pairs=%ld sat_yes=%ld exact_yes=%ld "
             "sat_only=%ld exact_only=%ld sat_ns=%.1f exact_us=%.2f\n",
             load, c->poses, c->pairs, c->sat_yes, c->exact_yes, c->sat_only, c->exact_only,
             1e9 * c->sat_s / c->sat_tests, 1e6 * c->exact_s / c->poses);
}

static void section_sat(hs_world *w, hs_body *g, char *result, size_t size)
{
    if (hs_world_body_count(w) > 63)
        die("too many bodies for the SAT table", NULL);
    sat_counts carton, drum;
    memset(&carton, 0, sizeof carton);
    memset(&drum, 0, sizeof drum);
    sat_along_paths(w, g, &carton);
    hs_body *d = add_drum(w, g);
    sat_along_paths(w, d, &drum);
    hs_error err;
    hs_world_remove_body(w, d, &err);
    hs_body_set_enabled(g, 1);
    printf("### 3. The seed's OBB test beside the exact test, at every step pose (K = 100)\n\n");
    printf("| load | poses | body pairs | SAT: may meet | exact: meet | SAT only | exact only | "
           "ns per SAT piece pair | us per exact world query |\n");
    printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    result[0] = '\0';
    print_sat_row("carton", &carton, result, size);
    print_sat_row("drum", &drum, result, size);
    printf("\n");
}

/* ------------------------------------------- the seed's recurrence */

static void cross(const double a[3], const double b[3], double o[3])
{
    o[0] = a[1] * b[2] - a[2] * b[1];
    o[1] = a[2] * b[0] - a[0] * b[2];
    o[2] = a[0] * b[1] - a[1] * b[0];
}

static double norm(const double a[3]) { return sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]); }

/* Seed 004, eqs. (26)-(29): P_{i+1} = C + G (P_i + E (n x (P_i - C)) - C)
 * with E = F T / |n x (P_i - C)| and G = 1 / sqrt(1 + (F T / R)^2);
 * k steps from p0.  The largest | |P_i - C| - R | into *radial. */
static void seed_walk(const double p0[3], const double c[3], const double n[3], double R,
                      double ft, int k, double out[3], double *radial)
{
    double p[3] = {p0[0], p0[1], p0[2]}, G = 1 / sqrt(1 + (ft / R) * (ft / R));
    *radial = 0;
    for (int i = 0; i < k; i++) {
        double r[3] = {p[0] - c[0], p[1] - c[1], p[2] - c[2]}, m[3];
        cross(n, r, m);
        double E = ft / norm(m);
        for (int j = 0; j < 3; j++)
            p[j] = c[j] + G * (r[j] + E * m[j]);
        double q[3] = {p[0] - c[0], p[1] - c[1], p[2] - c[2]};
        *radial = fmax(*radial, fabs(norm(q) - R));
    }
    memcpy(out, p, sizeof p);
}

static void section_recurrence(const hs_body *g, char *result, size_t size)
{
    hs_path *p = make_path(g, &examples[3]);
    double c[3], n[3], R, theta, p0[3], start[16];
    hs_error err;
    hs_path_arc_geometry(p, c, n, &R, &theta, &err);
    hs_body_get_pose(g, start);
    p0[0] = start[3], p0[1] = start[7], p0[2] = start[11];
    const double *p2 = examples[3].b;
    printf("### 4. The seed's arc recurrence (eqs. (26)-(29)) beside the closed form\n\n");
    printf("Arc into the slot: R = %.4f cm, theta = %.4f rad (%.1f degrees), length %.2f cm.\n\n",
           R, theta, theta * 180 / M_PI, R * theta);
    printf("| F T (cm) | delta = asin(FT/R) | seed's N = theta/delta + 1 | our K = "
           "ceil(theta/delta) | recurrence step atan(FT/R) | K recurrence steps short of K delta "
           "by (cm) | recurrence off the circle by (cm) | recurrence end off P2 by (cm) | our "
           "end off P2 by (cm) | FT^2/8R (cm) | our largest chord gap (cm) |\n");
    printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    double fts[] = {1, 5, 10, 20};
    result[0] = '\0';
    for (int i = 0; i < 4; i++) {
        double ft = fts[i], delta = asin(fmin(1, ft / R)), q[3], radial, m[16];
        int k = (int)ceil(theta / delta);
        seed_walk(p0, c, n, R, ft, k, q, &radial);
        double off[3] = {q[0] - p2[0], q[1] - p2[1], q[2] - p2[2]};
        double short_by = R * k * (delta - atan(ft / R));
        hs_path_pose(p, 1, m, &err);
        double ours = fabs(m[3] - p2[0]) + fabs(m[7] - p2[1]) + fabs(m[11] - p2[2]);
        double sag = R * (1 - cos(theta / k / 2));
        printf("| %g | %.6f | %.3f | %d | %.6f | %.4f | %.2g | %.4f | %g | %.4f | %.4f |\n", ft,
               delta, theta / delta + 1, k, atan(ft / R), short_by, radial, norm(off), ours,
               ft * ft / (8 * R), sag);
        size_t len = strlen(result);
        snprintf(result + len, size - len,
                 "RESULT bench=path part=recurrence ft=%g k=%d seed_short_cm=%.6f "
                 "seed_end_off=%.6f seed_radial=%.3g ours_end_off=%g sagitta=%.6f\n",
                 ft, k, short_by, norm(off), radial, ours, sag);
    }
    printf("\n");
    hs_path_free(p);
}

/* --------------------------------------------------------------- main */

int main(int argc, char **argv)
{
    const char *scene = "examples/palletizing/pallet.wrl";
    int reps = 11;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--scene") == 0 && i + 1 < argc)
            scene = argv[++i];
        else if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc)
            reps = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: bench/path [--scene FILE.wrl] [--reps N]\n");
            return 1;
        }
    }
    if (reps < 1 || reps > MAX_REPS)
        reps = 11;
    hs_error err;
    hs_world *w = hs_world_load(scene, &err);
    if (!w)
        die(scene, &err);
    hs_body *g = hs_world_find_body(w, "gripped");
    if (!g)
        die("no body named gripped", NULL);
    char curtain[256], sat[1024], rec[1024];
    section_steps(w, g, reps);
    section_curtain(w, g, curtain, sizeof curtain);
    section_sat(w, g, sat, sizeof sat);
    section_recurrence(g, rec, sizeof rec);
    printf("```text\n%s%s%s%s```\n", step_results, curtain, sat, rec);
    hs_world_free(w);
    return 0;
}
