/* rest_profile.c -- a profiling aid for resting contact (not timed by
 * bench-all): N unit boxes standing exactly on a floor in a grid, queried
 * through the public API alone, so that it builds against any version of
 * the library:
 *
 *   build/bench/rest_profile N MODE [QUERIES]
 *
 * MODE moved: one report reused, every box moved by 2^-20 along x on odd
 * queries and back on even ones (still touching: every pair is tested
 * from its hint); cold: a new report for every query.  One untimed query
 * first, then QUERIES (default 6) in profiled_query, whose mean time is
 * printed with the pairs found.  For the instructions of the queries:
 *
 *   valgrind --tool=callgrind --toggle-collect=profiled_query \
 *       build/bench/rest_profile 1000 moved
 *
 * (the total over N times QUERIES: instructions per pair; warm, back to
 * back: for profiles and before/after comparisons, not for the figures of
 * bench/world). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "halfspace.h"

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* One world query.  Not inlined, so that callgrind can collect it alone. */
__attribute__((noinline)) hs_code profiled_query(hs_world *w, const hs_query_options *q,
                                                 hs_report *rep, hs_error *err);
hs_code profiled_query(hs_world *w, const hs_query_options *q, hs_report *rep, hs_error *err)
{
    return hs_world_query(w, q, rep, err);
}

static void die(const char *what, const hs_error *err)
{
    fprintf(stderr, "rest_profile: %s: %s\n", what, err ? err->msg : "failed");
    exit(1);
}

int main(int argc, char **argv)
{
    int n = argc > 2 ? atoi(argv[1]) : 0, queries = argc > 3 ? atoi(argv[3]) : 6;
    int moved = argc > 2 && strcmp(argv[2], "moved") == 0;
    if (n < 1 || queries < 1 || (!moved && (argc < 3 || strcmp(argv[2], "cold") != 0))) {
        fprintf(stderr, "usage: rest_profile N moved|cold [QUERIES]\n");
        return 1;
    }
    static const double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    hs_error err;
    hs_world *w = hs_world_new();
    hs_body **box = malloc(sizeof *box * (size_t)n);
    double *pose = malloc(sizeof(double) * 16 * (size_t)n);
    if (!w || !box || !pose)
        die("out of memory", NULL);
    int side = 1;
    while (side * side < n)
        side++;
    double fs[3] = {3.0 * side + 2, 3.0 * side + 2, 1}, fp[16], s[3] = {1, 1, 1};
    hs_body *floor = hs_world_add_body(w, "floor", 1, &err);
    if (!floor || hs_body_add_box(floor, fs, NULL, &err) != HS_OK)
        die("the floor", &err);
    hs_pose_from_rt(fp, I, (double[3]){1.5 * side, 1.5 * side, -0.5});
    if (hs_body_set_pose(floor, fp, &err) != HS_OK)
        die("the floor's pose", &err);
    for (int i = 0; i < n; i++) {
        char name[32];
        snprintf(name, sizeof name, "box%d", i);
        box[i] = hs_world_add_body(w, name, 0, &err);
        if (!box[i] || hs_body_add_box(box[i], s, NULL, &err) != HS_OK)
            die("a box", &err);
        hs_pose_from_rt(pose + 16 * i, I,
                        (double[3]){3.0 * (i % side) + 1, 3.0 * (i / side) + 1, 0.5});
        if (hs_body_set_pose(box[i], pose + 16 * i, &err) != HS_OK)
            die("a box's pose", &err);
    }
    hs_query_options q;
    hs_query_options_init(&q);
    q.threshold = 0;
    q.contacts = 0;
    hs_report *rep = hs_report_new();
    if (!rep || hs_world_query(w, &q, rep, &err) != HS_OK)
        die("the first query", &err);
    double total = 0;
    for (int k = 0; k < queries; k++) {
        if (moved)
            for (int i = 0; i < n; i++) {
                pose[16 * i + 3] += (k & 1) ? -0x1p-20 : 0x1p-20;
                if (hs_body_set_pose(box[i], pose + 16 * i, &err) != HS_OK)
                    die("a box's pose", &err);
            }
        else {
            hs_report_free(rep);
            if (!(rep = hs_report_new()))
                die("out of memory", NULL);
        }
        double t = now_s();
        if (profiled_query(w, &q, rep, &err) != HS_OK)
            die("a query", &err);
        total += now_s() - t;
    }
    int touching = 0;
    for (int k = 0; k < hs_report_pair_count(rep); k++) {
        hs_status st;
        hs_report_pair(rep, k, NULL, NULL, &st);
        touching += st == HS_TOUCHING;
    }
    printf("N = %d, %s: %.3f ms per query (mean of %d); %d pairs, %d touching\n", n,
           moved ? "moved" : "cold", total * 1e3 / queries, queries, hs_report_pair_count(rep),
           touching);
    hs_report_free(rep);
    hs_world_free(w);
    free(box);
    free(pose);
    return touching == n ? 0 : 1;
}
