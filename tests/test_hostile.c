/* test_hostile.c -- hostile and extreme input of the .ine, STL and chain
 * readers and the world report (issue 14, "Unbounded time or memory from
 * small files"): each reproducer of the issue rebuilt, written by the test
 * into a temporary folder, must end quickly with "FILE:LINE: what", and
 * memory must follow the input's real size, not its declared counts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "polytope/text_lines.h"
#include "tests/helpers.h"

#if defined(__SANITIZE_ADDRESS__)
#define HOSTILE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HOSTILE_ASAN 1
#endif
#endif
#ifndef HOSTILE_ASAN
#define HOSTILE_ASAN 0
#endif

/* A fresh temporary folder; hostile_path names files in it. */
static char hostile_dir[64];

static void hostile_setup(void)
{
    t_temp_dir(hostile_dir, sizeof hostile_dir, "hs-hostile-");
}

static void hostile_teardown(void)
{
    t_remove_dir(hostile_dir);
}

static const char *hostile_path(const char *name)
{
    static char path[4][256];
    static int turn;
    char *p = path[turn++ % 4];
    snprintf(p, sizeof path[0], "%s/%s", hostile_dir, name);
    return p;
}

static void write_file(const char *name, const void *data, size_t n)
{
    FILE *f = fopen(hostile_path(name), "wb");
    ck_assert(f != NULL);
    ck_assert_uint_eq(fwrite(data, 1, n, f), n);
    ck_assert_int_eq(fclose(f), 0);
}

/* ------------------------------------------------------------ .ine */

/* A 48-byte file declaring 10^8 rows took 7.3 s and 881 MB before its
 * error: rows are now allocated as they arrive. */
START_TEST(ine_declared_rows_fail_fast)
{
    const char *text = "begin\n100000000 4 rational\n0 1 0 0\nend\n";
    hs_error err;
    double t0 = t_seconds();
    ck_assert(hs_poly_parse(text, "rows.ine", &err) == NULL);
    ck_assert_int_eq(err.code, HS_ERR_INPUT);
    ck_assert_str_eq(err.msg, "rows.ine:4: expected 100000000 rows, found 1");
    EXPECT(t_seconds() - t0 < 3.0, "took %.2f s", t_seconds() - t0);
    /* the same through hs_poly_read, from a file */
    write_file("rows.ine", text, strlen(text));
    ck_assert(hs_poly_read(hostile_path("rows.ine"), &err) == NULL);
    EXPECT(strstr(err.msg, "rows.ine:4: expected 100000000 rows") != NULL, "%s", err.msg);
}
END_TEST

/* 10^8 x 10^6 gave "out of memory", exit 4, no FILE:LINE. */
START_TEST(ine_declared_columns_located)
{
    hs_error err;
    ck_assert(hs_poly_parse("begin\n100000000 1000000 rational\n0 1 0 0\nend\n", "wide.ine",
                            &err) == NULL);
    ck_assert_int_eq(err.code, HS_ERR_INPUT);
    ck_assert_str_eq(err.msg, "wide.ine:3: row 1 has 4 entries, expected 1000000");
    /* the largest counts the format allows are accepted as declarations */
    ck_assert(hs_poly_parse("begin\n100000001 3 rational\n", "x.ine", &err) == NULL);
    EXPECT(strstr(err.msg, "x.ine:2: row count") != NULL, "%s", err.msg);
}
END_TEST

/* Rows arriving one by one make the same system as before: counts,
 * values, exact rationals, source lines and linearity. */
START_TEST(ine_rows_arrive_one_by_one)
{
    int m = 1000;
    size_t cap = 64 + (size_t)m * 40;
    char *text = malloc(cap);
    ck_assert(text != NULL);
    int at = snprintf(text, cap, "linearity 1 %d\nbegin\n%d 3 rational\n", m, m);
    for (int i = 0; i < m; i++)
        at += snprintf(text + at, cap - (size_t)at, "%d/3 %d %d\n", i + 1, i % 7 - 3, -i);
    snprintf(text + at, cap - (size_t)at, "end\n");
    hs_poly *p = t_poly(text);
    ck_assert_int_eq(hs_poly_rows(p), m);
    ck_assert_int_eq(hs_poly_dim(p), 2);
    for (int i = 0; i < m; i += 97) {
        double a[2], b;
        ck_assert_int_eq(hs_poly_row(p, i, a, &b) != 0, (i + 1) % 3 == 0); /* exact? */
        ck_assert(a[0] == -(double)(i % 7 - 3) && a[1] == (double)i);
        ck_assert(b == (double)(i + 1) / 3.0);
        ck_assert_int_eq(hs_poly_row_is_eq(p, i), i == m - 1);
    }
    hs_poly_free(p);
    free(text);
}
END_TEST

/* ------------------------------------------------------------ reading */

/* File reads had no size cap: /dev/zero read until memory ran out. */
START_TEST(file_reads_are_capped)
{
    hs_error err;
    double t0 = t_seconds();
    ck_assert(text_read_file_max("/dev/zero", 4096, 0, NULL, &err) == NULL);
    ck_assert_int_eq(err.code, HS_ERR_INPUT);
    ck_assert_str_eq(err.msg, "/dev/zero: larger than the limit of 4096 bytes");
    EXPECT(t_seconds() - t0 < 3.0, "took %.2f s", t_seconds() - t0);
    /* a regular file: refused from its size, before reading */
    char big[10000];
    memset(big, '*', sizeof big);
    write_file("big.ine", big, sizeof big);
    ck_assert(text_read_file_max(hostile_path("big.ine"), 1000, 0, NULL, &err) == NULL);
    EXPECT(strstr(err.msg, "big.ine: larger than the limit of 1000 bytes (10000 bytes)") != NULL,
           "%s", err.msg);
    /* at the limit exactly: read, NUL bytes kept or replaced */
    big[5] = '\0';
    write_file("exact.bin", big, 1000);
    size_t len = 0;
    char *t = text_read_file_max(hostile_path("exact.bin"), 1000, 1, &len, &err);
    ck_assert(t != NULL);
    ck_assert_uint_eq(len, 1000);
    ck_assert(t[5] == '\0' && t[1000] == '\0');
    free(t);
    t = text_read_file_max(hostile_path("exact.bin"), 1000, 0, NULL, &err);
    ck_assert(t != NULL && t[5] == '\x01' && strlen(t) == 1000);
    free(t);
}
END_TEST

/* ------------------------------------------------------------ STL */

static void le32_put(unsigned char *p, unsigned v)
{
    for (int k = 0; k < 4; k++)
        p[k] = (unsigned char)(v >> (8 * k));
}

/* A sparse file claiming 2^32 - 1 triangles was read whole into memory:
 * it is now refused from its size (214 GB) before anything is read. */
START_TEST(stl_claiming_4g_triangles)
{
    unsigned char head[84];
    memset(head, 0, sizeof head);
    memcpy(head, "binary", 6);
    le32_put(head + 80, 0xFFFFFFFFu);
    write_file("huge.stl", head, sizeof head);
    hs_error err;
    FILE *f = fopen(hostile_path("huge.stl"), "r+b");
    ck_assert(f != NULL);
    int sparse = ftruncate(fileno(f), (off_t)(84 + 50 * 4294967295.0)) == 0;
    fclose(f);
    if (sparse) {
        double t0 = t_seconds();
        ck_assert(hs_world_load(hostile_path("huge.stl"), &err) == NULL);
        ck_assert_int_eq(err.code, HS_ERR_INPUT);
        EXPECT(strstr(err.msg, "huge.stl: larger than the limit of 268435456 bytes") != NULL,
               "%s", err.msg);
        EXPECT(t_seconds() - t0 < 3.0, "took %.2f s", t_seconds() - t0);
    } else {
        t_skip("stl_claiming_4g_triangles", "no sparse files in /tmp");
    }
    /* a short file with the same claim: the count is checked against the size */
    unsigned char one[84 + 50];
    memset(one, 0, sizeof one);
    memcpy(one, head, sizeof head);
    write_file("claim.stl", one, sizeof one);
    ck_assert(hs_world_load(hostile_path("claim.stl"), &err) == NULL);
    EXPECT(strstr(err.msg, "claim.stl: binary STL of 4294967295 triangles must have "
                           "214748364834 bytes, the file has 134") != NULL, "%s", err.msg);
}
END_TEST

/* ------------------------------------------------------------ chains */

static double chain_load_seconds(int links)
{
    size_t cap = (size_t)links * 90 + 64;
    char *text = malloc(cap);
    ck_assert(text != NULL);
    size_t at = 0;
    for (int i = 0; i < links; i++) {
        if (i)
            at += (size_t)snprintf(text + at, cap - at, "joint j%d %s\norigin 0 0 1 0 0 0\n%s", i,
                                   i % 3 ? "revolute" : "fixed", i % 3 ? "axis 0 0 1\n" : "");
        at += (size_t)snprintf(text + at, cap - at, "link l%d\nsphere 0 0 0 0.4\n", i);
    }
    if (links > 2)
        at += (size_t)snprintf(text + at, cap - at, "skip l0 l%d\n", links - 1);
    char name[32];
    snprintf(name, sizeof name, "c%d.chain", links);
    write_file(name, text, at);
    free(text);
    hs_error err;
    double t0 = t_seconds();
    hs_chain *c = hs_chain_load(hostile_path(name), &err);
    ck_assert_msg(c != NULL, "%s", err.msg);
    int dof = hs_chain_dof(c);
    for (int k = 0; k < dof; k++) /* every movable joint, as the CLI lists them */
        ck_assert_int_eq(hs_chain_movable_joint(c, k), 3 * (k / 2) + 1 + k % 2);
    double t = t_seconds() - t0;
    ck_assert_int_eq(dof, (links - 1) - (links - 1) / 3);
    ck_assert_int_eq(hs_chain_movable_joint(c, dof), -1);
    hs_chain_free(c);
    return t;
}

/* Chains loaded in quadratic time (42.8 s for 100,000 links against 0.83
 * s for 10,000): hs_chain_define_joint recounted the movable joints, link
 * names were found by linear scans, the k-th movable joint too. */
START_TEST(chain_loading_is_near_linear)
{
    double small = chain_load_seconds(5000), large = chain_load_seconds(50000);
    EXPECT(large < 25 * small + 0.5, "5,000 links: %.3f s, 50,000 links: %.3f s", small,
           large);
}
END_TEST

/* Skip lines were inserted one by one into the sorted skip list (a
 * memmove each): 10^6 of them took 20 s.  They are now sorted first. */
START_TEST(chain_skip_lines_near_linear)
{
    int links = 3000, pairs = 200000;
    size_t cap = (size_t)links * 40 + (size_t)pairs * 24 + 64;
    char *text = malloc(cap);
    ck_assert(text != NULL);
    size_t at = 0;
    for (int i = 0; i < links; i++)
        at += (size_t)snprintf(text + at, cap - at, "%slink l%d\n", i ? "joint j fixed\n" : "",
                               i);
    uint64_t rng = 3;
    for (int k = 0; k < pairs; k++) {
        int a = (int)(t_rng_next(&rng) % (uint64_t)links), b = (a + 1 +
                (int)(t_rng_next(&rng) % (uint64_t)(links - 1))) % links;
        at += (size_t)snprintf(text + at, cap - at, "skip l%d l%d\n", a, b);
    }
    write_file("skips.chain", text, at);
    free(text);
    hs_error err;
    double t0 = t_seconds();
    hs_chain *c = hs_chain_load(hostile_path("skips.chain"), &err);
    double t = t_seconds() - t0;
    ck_assert_msg(c != NULL, "%s", err.msg);
    EXPECT(t < 3.0, "%d skip lines: %.2f s", pairs, t);
    hs_chain_free(c);
}
END_TEST

/* Mesh lines of a chain (each a hull, about 0.2 ms a point, the same file
 * possibly named on many lines): their points together are bounded. */
START_TEST(chain_mesh_points_bounded)
{
    int n = 200001;
    FILE *f = fopen(hostile_path("big.off"), "w");
    ck_assert(f != NULL);
    fprintf(f, "OFF\n%d %d 0\n", n + 2, n);
    for (int i = 0; i < n + 2; i++)
        fprintf(f, "%d %d %d\n", i, (int)((long)i * i % 1009), i % 2);
    for (int i = 0; i < n; i++)
        fprintf(f, "3 %d %d %d\n", i, i + 1, i + 2);
    ck_assert_int_eq(fclose(f), 0);
    const char *text = "link a\nsphere 0 0 0 1\njoint j fixed\nlink b\nmesh big.off\n";
    write_file("m.chain", text, strlen(text));
    hs_error err;
    double t0 = t_seconds();
    ck_assert(hs_chain_load(hostile_path("m.chain"), &err) == NULL);
    EXPECT(strstr(err.msg, "m.chain:5: mesh: the meshes of this chain have more than 200000 "
                           "points in all") != NULL, "%s", err.msg);
    EXPECT(t_seconds() - t0 < 5.0, "took %.2f s", t_seconds() - t0);
}
END_TEST

/* Defining joints in any order keeps the count of movable joints and the
 * k-th one right (a joint turned fixed, a fixed one turned movable). */
START_TEST(movable_joints_follow_definitions)
{
    hs_error err;
    int n = 40;
    hs_chain *c = hs_chain_new(n, &err);
    ck_assert(c != NULL);
    double axis[3] = {0, 0, 1};
    unsigned char movable[40] = {0};
    uint64_t rng = 7;
    for (int step = 0; step < 400; step++) {
        int i = 1 + (int)(t_rng_next(&rng) % (uint64_t)(n - 1));
        int m = (int)(t_rng_next(&rng) % 2);
        ck_assert_int_eq(hs_chain_define_joint(c, i, m ? HS_JOINT_REVOLUTE : HS_JOINT_FIXED,
                                               NULL, axis, -1, 1, 0, &err), HS_OK);
        movable[i] = (unsigned char)m;
        int k = 0;
        for (int j = 1; j < n; j++)
            if (movable[j])
                ck_assert_int_eq(hs_chain_movable_joint(c, k++), j);
        ck_assert_int_eq(hs_chain_dof(c), k);
        ck_assert_int_eq(hs_chain_movable_joint(c, k), -1);
    }
    ck_assert_int_eq(hs_chain_movable_joint(c, -1), -1);
    hs_chain_free(c);
}
END_TEST

/* ------------------------------------------------------------ reports */

/* Address space in use now (bytes), from /proc/self/statm; 0 if unknown. */
static long address_space(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    long pages = 0;
    if (f) {
        if (fscanf(f, "%ld", &pages) != 1)
            pages = 0;
        fclose(f);
    }
    return pages * sysconf(_SC_PAGESIZE);
}

/* n boxes overlapping one another: n (n - 1) / 2 reported pairs. */
static hs_world *overlapping_boxes(int n)
{
    hs_error err;
    hs_world *w = hs_world_new();
    for (int i = 0; i < n; i++) {
        char name[16];
        snprintf(name, sizeof name, "b%d", i);
        hs_body *b = hs_world_add_body(w, name, 0, &err);
        double size[3] = {2, 2, 2}, pose[16];
        ck_assert(b != NULL && hs_body_add_box(b, size, NULL, &err) == HS_OK);
        hs_pose_identity(pose);
        pose[3] = 0.001 * i;
        ck_assert_int_eq(hs_body_set_pose(b, pose, &err), HS_OK);
    }
    return w;
}

/* 1,000 mutually overlapping boxes took 2 GB for 15.8 MB of output, about
 * 4 KB a reported pair: the query's memory, at its peak too, now follows
 * the report's content.  The query runs in a child process whose address
 * space may grow by 64 MB only (about 1.4 KB a pair for 300 boxes). */
START_TEST(report_memory_follows_content)
{
    if (HOSTILE_ASAN) { /* ASan reserves address space of its own */
        t_skip("report_memory_follows_content", "address-space limit under AddressSanitizer");
        return;
    }
    int n = 300;
    hs_world *w = overlapping_boxes(n);
    hs_query_options q;
    hs_query_options_init(&q);
    hs_error err;
    hs_report *rep = hs_report_new();
    ck_assert_int_eq(hs_world_query(w, &q, rep, &err), HS_OK); /* warm: the pieces' data */
    ck_assert_int_eq(hs_report_pair_count(rep), n * (n - 1) / 2);
    hs_report_free(rep);
    fflush(NULL);
    pid_t pid = fork();
    ck_assert(pid >= 0);
    if (pid == 0) {
        long used = address_space();
        struct rlimit lim = {(rlim_t)(used + (64L << 20)), (rlim_t)(used + (64L << 20))};
        if (used == 0 || setrlimit(RLIMIT_AS, &lim) != 0)
            _exit(2);
        hs_report *r = hs_report_new();
        int ok = r && hs_world_query(w, &q, r, &err) == HS_OK &&
                 hs_report_pair_count(r) == n * (n - 1) / 2;
        _exit(ok ? 0 : 1);
    }
    int status = 0;
    ck_assert(waitpid(pid, &status, 0) == pid);
    EXPECT(WIFEXITED(status) && WEXITSTATUS(status) == 0,
           "the query of %d overlapping boxes needs more than 64 MB (status %d)", n, status);
    hs_world_free(w);
}
END_TEST

Suite *suite_hostile(void)
{
    Suite *s = suite_create("hostile");
    TCase *tc = tcase_create("hostile");
    tcase_set_timeout(tc, 120);
    tcase_add_checked_fixture(tc, hostile_setup, hostile_teardown);
    tcase_add_test(tc, ine_declared_rows_fail_fast);
    tcase_add_test(tc, ine_declared_columns_located);
    tcase_add_test(tc, ine_rows_arrive_one_by_one);
    tcase_add_test(tc, file_reads_are_capped);
    tcase_add_test(tc, stl_claiming_4g_triangles);
    tcase_add_test(tc, chain_loading_is_near_linear);
    tcase_add_test(tc, movable_joints_follow_definitions);
    tcase_add_test(tc, chain_mesh_points_bounded);
    tcase_add_test(tc, chain_skip_lines_near_linear);
    tcase_add_test(tc, report_memory_follows_content);
    suite_add_tcase(s, tc);
    return s;
}
