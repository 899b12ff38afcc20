/* soak.c -- the soak test (make soak, run by make check): 10^6 queries
 * through the public API in one process, checking that the resident
 * memory stays flat.  The queries mix what a long-running planner does:
 * pair queries on the fast engine with one reused hs_result (disjoint,
 * touching, overlap), some on the exact engine, exact witness strings
 * freed with hs_free, world queries with a reused report on a world whose
 * bodies move, and now and then a polyhedron parsed and freed.  The
 * resident set is read from /proc/self/statm after each tenth of the run;
 * after the first tenth (warm-up: workspaces, caches) it may not grow by
 * more than 1 MB, which a leak of 2 bytes a query would exceed.
 * Usage: soak [QUERIES] (default 1000000).  Exit 0 when flat, 1 if not,
 * 2 on an API error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "halfspace.h"

static long resident_kb(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    long size = 0, pages = 0;
    if (f) {
        if (fscanf(f, "%ld %ld", &size, &pages) != 2)
            pages = 0;
        fclose(f);
    }
    return pages * (sysconf(_SC_PAGESIZE) / 1024);
}

static void die(const char *what, const hs_error *err)
{
    fprintf(stderr, "soak: %s: %s\n", what, err->msg);
    exit(2);
}

/* [lo, lo + size]^3 as .ine text, parsed. */
static hs_poly *cube(double lo, double size)
{
    char text[512];
    snprintf(text, sizeof text,
             "begin\n6 4 real\n%.17g -1 0 0\n%.17g 0 -1 0\n%.17g 0 0 -1\n"
             "%.17g 1 0 0\n%.17g 0 1 0\n%.17g 0 0 1\nend\n",
             lo + size, lo + size, lo + size, -lo, -lo, -lo);
    hs_error err;
    hs_poly *p = hs_poly_parse(text, "cube", &err);
    if (!p)
        die("parse", &err);
    return p;
}

/* A world of a static floor and 20 boxes standing on it or near it. */
static hs_world *small_world(hs_body **moving)
{
    hs_error err;
    hs_world *w = hs_world_new();
    hs_body *floor = w ? hs_world_add_body(w, "static_floor", 1, &err) : NULL;
    double big[3] = {40, 1, 40}, box[3] = {1, 1, 1}, pose[16];
    if (!floor || hs_body_add_box(floor, big, NULL, &err) != HS_OK)
        die("world", &err);
    for (int i = 0; i < 20; i++) {
        char name[16];
        snprintf(name, sizeof name, "box%d", i);
        hs_body *b = hs_world_add_body(w, name, 0, &err);
        if (!b || hs_body_add_box(b, box, NULL, &err) != HS_OK)
            die("world", &err);
        hs_pose_identity(pose);
        pose[3] = 1.5 * i - 15;
        pose[7] = 1.0 + 0.02 * (i % 3);
        if (hs_body_set_pose(b, pose, &err) != HS_OK)
            die("pose", &err);
        if (i == 0)
            *moving = b;
    }
    return w;
}

int main(int argc, char **argv)
{
    long total = argc > 1 ? atol(argv[1]) : 1000000L;
    if (total < 10) {
        fprintf(stderr, "usage: soak [QUERIES >= 10]\n");
        return 2;
    }
    hs_poly *P[4] = {cube(0, 1), cube(2, 1), cube(1, 1), cube(0.5, 1)};
    hs_options fast, exact;
    hs_options_init(&fast);
    hs_options_init(&exact);
    exact.engine = HS_ENGINE_EXACT;
    hs_result *r = hs_result_new();
    hs_report *rep = hs_report_new();
    hs_body *moving = NULL;
    hs_world *w = small_world(&moving);
    hs_query_options q;
    hs_query_options_init(&q);
    hs_error err;
    long rss[10];
    clock_t t0 = clock();
    for (long i = 0; i < total; i++) {
        const hs_poly *A = P[0], *B = P[1 + i % 3]; /* disjoint, touching, overlap */
        if (i % 1000 == 999) { /* a world query, the moving box a little further */
            double pose[16];
            hs_body_get_pose(moving, pose);
            pose[7] = 1.0 + 0.001 * (double)(i / 1000 % 50);
            if (hs_body_set_pose(moving, pose, &err) != HS_OK ||
                hs_world_query(w, &q, rep, &err) != HS_OK)
                die("world query", &err);
        } else if (i % 1000 == 500) { /* a polyhedron read and freed */
            hs_poly *p = cube(0.25 * (double)(i % 7), 1);
            if (hs_intersect(A, p, &fast, r, &err) != HS_OK)
                die("intersect", &err);
            hs_poly_free(p);
        } else if (i % 100 == 7) { /* the exact engine, an exact string */
            if (hs_intersect(A, B, &exact, r, &err) != HS_OK)
                die("exact intersect", &err);
            char *s = hs_result_point_str(r, 0);
            hs_free(s);
        } else if (hs_intersect(A, B, &fast, r, &err) != HS_OK) {
            die("intersect", &err);
        }
        if ((i + 1) % (total / 10) == 0 && (i + 1) / (total / 10) <= 10)
            rss[(i + 1) / (total / 10) - 1] = resident_kb();
    }
    double seconds = (double)(clock() - t0) / CLOCKS_PER_SEC;
    long growth = 0;
    for (int k = 1; k < 10; k++)
        growth = rss[k] - rss[0] > growth ? rss[k] - rss[0] : growth;
    printf("soak: %ld queries in %.1f s; resident KB after each tenth:", total, seconds);
    for (int k = 0; k < 10; k++)
        printf(" %ld", rss[k]);
    printf("; growth after the first tenth %ld KB\n", growth);
    hs_world_free(w);
    hs_report_free(rep);
    hs_result_free(r);
    for (int k = 0; k < 4; k++)
        hs_poly_free(P[k]);
    if (rss[0] <= 0) {
        fprintf(stderr, "soak: cannot read /proc/self/statm\n");
        return 2;
    }
    if (growth > 1024) {
        fprintf(stderr, "soak: FAILED: the resident set grew by %ld KB\n", growth);
        return 1;
    }
    return 0;
}
