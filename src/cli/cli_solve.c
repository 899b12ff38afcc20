/* cli_solve.c -- the commands feasible, intersect and verify. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/grow.h"
#include "polytope/mem.h"
#include "src/cli/cli_common.h"
#include "src/cli/cli_commands.h"

static const char feasible_usage[] =
    "usage: halfspace feasible [options] A.ine\n"
    "  Is {x : A x <= b} empty?  Prints 'feasible' with a point, or 'infeasible'\n"
    "  with Farkas multipliers (fast and exact engines) that sum to 0.x <= negative.\n";

static const char intersect_usage[] =
    "usage: halfspace intersect [options] A.ine B.ine\n"
    "  How do A and B meet?  Prints 'disjoint', 'touching' or 'overlap' (faithful\n"
    "  engine: 'intersect' or 'disjoint'), then the witness point and certificate.\n";

static const char solve_options[] =
    "options:\n"
    "  --engine=E     fast (default: certified doubles, exact when in doubt), exact\n"
    "                 (rational simplex), faithful (the seed-002 routines in doubles),\n"
    "                 faithful-exact (the same over rationals), glpk, glpk-exact\n"
    "                 (GLPK's LP, for cross-checks; no certificate)\n"
    "  --json         one JSON object: status, point, certificate (exact strings)\n"
    "  --trace        how the engine decided, step by step (fast, exact; faithful and\n"
    "                 faithful-exact: the seed-002 recursion); printed after the\n"
    "                 answer as '#' comment lines (stderr with --json)\n"
    "  --tol=T        faithful engine: relative zero tolerance (default 1e-12, 0 = none)\n"
    "  --replay-s=P --replay-t=P\n"
    "                 intersect, faithful/exact: start the s->t routine from these\n"
    "                 points (\"x,y,z\") instead of computing them, as the paper's\n"
    "                 worked examples do\n"
    "  -h, --help     this text\n"
    "exit: 0 answer, 1 usage error, 2 bad input (FILE:LINE: what is wrong), 4 internal error\n";

static const char verify_usage[] =
    "usage: halfspace verify A.ine [B.ine] CERT\n"
    "  Checks, in exact arithmetic and independently of how it was produced, the\n"
    "  answer and certificate in CERT (the text or the --json object printed by\n"
    "  feasible/intersect).\n"
    "exit: 0 valid, 1 usage error, 2 bad input, 3 the certificate does not prove its claim\n";

typedef struct trace_buffer {
    char **lines;
    int count, cap;
    int failed;
} trace_buffer;

static void trace_collect(void *user, const char *line)
{
    trace_buffer *tb = user;
    if (tb->failed)
        return;
    char **nl = grow_array(tb->lines, &tb->cap, tb->count + 1L, sizeof *nl);
    if (!nl) {
        tb->failed = 1;
        return;
    }
    tb->lines = nl;
    char *copy = mem_strdup(line);
    if (!copy) {
        tb->failed = 1;
        return;
    }
    tb->lines[tb->count++] = copy;
}

static void trace_flush(trace_buffer *tb, FILE *out)
{
    for (int i = 0; i < tb->count; i++) {
        fprintf(out, "# %s\n", tb->lines[i]);
        free(tb->lines[i]);
    }
    if (tb->failed)
        fprintf(out, "# (trace truncated: out of memory)\n");
    free(tb->lines);
}

typedef struct solve_cli {
    hs_options opt;
    int json, trace, help;
    const char *files[3];
    int nfiles;
    const char *replay_s, *replay_t;
} solve_cli;

/* Returns -1 on success, else the exit code of a usage error. */
static int parse_solve_args(int argc, char **argv, solve_cli *c, const char *usage)
{
    memset(c, 0, sizeof *c);
    hs_options_init(&c->opt);
    cli_args a;
    cli_args_init(&a, argc, argv);
    const char *name, *value;
    while (cli_args_next(&a, &name, &value)) {
        if (!name) {
            if (c->nfiles == 3)
                return cli_usage_error(usage, "too many arguments ('%s')", value);
            c->files[c->nfiles++] = value;
        } else if (strcmp(name, "help") == 0) {
            c->help = 1;
        } else if (strcmp(name, "json") == 0) {
            c->json = 1;
        } else if (strcmp(name, "trace") == 0) {
            c->trace = 1;
        } else if (strcmp(name, "engine") == 0) {
            const char *e = cli_args_value(&a, value);
            if (!e || !hs_engine_from_name(e, &c->opt.engine))
                return cli_usage_error(usage, "unknown engine '%s'", e);
        } else if (strcmp(name, "tol") == 0) {
            const char *t = cli_args_value(&a, value);
            double tol;
            if (!cli_parse_number(t, &tol) || !(tol >= 0 && tol < 1))
                return cli_usage_error(usage, "--tol needs a number in [0, 1), not '%s'", t);
            c->opt.faithful_tol = tol;
        } else if (strcmp(name, "replay-s") == 0 || strcmp(name, "replay-t") == 0) {
            const char *p = cli_args_value(&a, value);
            if (!p)
                return cli_usage_error(usage, "--%s needs a point", name);
            *(name[7] == 's' ? &c->replay_s : &c->replay_t) = p;
        } else {
            return cli_usage_error(usage, "unknown option '--%s'", name);
        }
    }
    return -1;
}

/* The answer printed with the simplest numbers that still verify (the
 * fast engine's doubles make 16-digit fractions otherwise). */
static int print_result(const solve_cli *c, hs_result *r, const hs_poly *A, const hs_poly *B,
                        trace_buffer *tb)
{
    hs_error err;
    hs_error_clear(&err);
    hs_result_simplify(r, A, B, NULL);
    hs_code rc = c->json ? hs_result_write_json(r, stdout, &err)
                         : hs_result_write_text(r, stdout, &err);
    if (c->trace)
        trace_flush(tb, c->json ? stderr : stdout);
    if (rc != HS_OK)
        return cli_fail(&err);
    return fflush(stdout) == 0 ? EXIT_ANSWER : EXIT_INTERNAL;
}

static int set_replay(solve_cli *c, int n, double *s, double *t, const char *usage)
{
    if (!c->replay_s && !c->replay_t)
        return -1;
    if (!c->replay_s || !c->replay_t)
        return cli_usage_error(usage, "--replay-s and --replay-t go together%s", "");
    char count[32];
    snprintf(count, sizeof count, "%d", n);
    if (cli_parse_point(c->replay_s, s, n) != 0)
        return cli_usage_error(usage, "--replay-s: expected %s finite coordinates", count);
    if (cli_parse_point(c->replay_t, t, n) != 0)
        return cli_usage_error(usage, "--replay-t: expected %s finite coordinates", count);
    c->opt.replay_s = s;
    c->opt.replay_t = t;
    return -1;
}

static int run_query(solve_cli *c, hs_poly *A, hs_poly *B, const char *usage)
{
    trace_buffer tb;
    memset(&tb, 0, sizeof tb);
    if (c->trace) {
        c->opt.trace = trace_collect;
        c->opt.trace_user = &tb;
    }
    int n = hs_poly_dim(A);
    double *s = calloc((size_t)n, sizeof *s), *t = calloc((size_t)n, sizeof *t);
    hs_result *r = hs_result_new();
    hs_error err;
    hs_error_clear(&err);
    int code = (!s || !t || !r) ? EXIT_INTERNAL : set_replay(c, n, s, t, usage);
    if (code < 0) {
        hs_code rc = B ? hs_intersect(A, B, &c->opt, r, &err) : hs_feasible(A, &c->opt, r, &err);
        if (rc == HS_ERR_NOMEM) { /* name the input that was too large */
            fprintf(stderr, "halfspace: %s%s%s: out of memory while solving (%s)\n",
                    c->files[0], B ? " and " : "", B ? c->files[1] : "", err.msg);
            code = EXIT_INPUT;
        } else {
            code = rc == HS_OK ? print_result(c, r, A, B, &tb) : cli_fail(&err);
        }
        if (rc != HS_OK && c->trace)
            trace_flush(&tb, stderr);
    } else if (c->trace) {
        trace_flush(&tb, stderr);
    }
    hs_result_free(r);
    free(s);
    free(t);
    return code;
}

static int load_and_run(solve_cli *c, int nfiles, const char *usage)
{
    hs_poly *P[2] = {NULL, NULL};
    hs_error err;
    hs_error_clear(&err);
    int code = -1;
    for (int i = 0; i < nfiles && code < 0; i++)
        if (!(P[i] = hs_poly_read(c->files[i], &err)))
            code = cli_fail(&err);
    if (code < 0)
        code = run_query(c, P[0], P[1], usage);
    hs_poly_free(P[0]);
    hs_poly_free(P[1]);
    return code;
}

int cmd_feasible(int argc, char **argv)
{
    solve_cli c;
    int code = parse_solve_args(argc, argv, &c, feasible_usage);
    if (code >= 0)
        return code;
    if (c.help) {
        printf("%s%s", feasible_usage, solve_options);
        return EXIT_ANSWER;
    }
    if (c.nfiles != 1)
        return cli_usage_error(feasible_usage, "expected one file, got %s",
                               c.nfiles ? "more" : "none");
    if (c.replay_s || c.replay_t)
        return cli_usage_error(feasible_usage, "--replay-s/--replay-t apply to intersect%s", "");
    return load_and_run(&c, 1, feasible_usage);
}

int cmd_intersect(int argc, char **argv)
{
    solve_cli c;
    int code = parse_solve_args(argc, argv, &c, intersect_usage);
    if (code >= 0)
        return code;
    if (c.help) {
        printf("%s%s", intersect_usage, solve_options);
        return EXIT_ANSWER;
    }
    if (c.nfiles != 2)
        return cli_usage_error(intersect_usage, "expected two files, got %s",
                               c.nfiles < 2 ? "fewer" : "more");
    return load_and_run(&c, 2, intersect_usage);
}

/* ---------------------------------------------------------------- verify */

static int verify_files(const char *fa, const char *fb, const char *fc)
{
    hs_error err;
    hs_error_clear(&err);
    hs_poly *A = hs_poly_read(fa, &err);
    hs_poly *B = (A && fb) ? hs_poly_read(fb, &err) : NULL;
    hs_result *r = NULL;
    int code;
    if (!A || (fb && !B)) {
        code = cli_fail(&err);
    } else if (B && hs_poly_dim(B) != hs_poly_dim(A)) {
        fprintf(stderr, "halfspace: %s: dimension %d differs from %s's %d\n", fb,
                hs_poly_dim(B), fa, hs_poly_dim(A));
        code = EXIT_INPUT;
    } else if (!(r = hs_result_read(fc, hs_poly_dim(A), &err))) {
        code = cli_fail(&err);
    } else if (hs_result_verify(r, A, B, &err) != HS_OK) {
        printf("invalid: %s\n", err.msg);
        code = err.code == HS_ERR_INPUT ? EXIT_REJECTED : cli_fail(&err);
    } else {
        printf("valid: %s, checked in exact arithmetic\n", hs_status_name(hs_result_status(r)));
        code = EXIT_ANSWER;
    }
    hs_result_free(r);
    hs_poly_free(A);
    hs_poly_free(B);
    return code;
}

int cmd_verify(int argc, char **argv)
{
    cli_args a;
    cli_args_init(&a, argc, argv);
    const char *name, *value, *files[4];
    int nfiles = 0;
    while (cli_args_next(&a, &name, &value)) {
        if (name && strcmp(name, "help") == 0) {
            fputs(verify_usage, stdout);
            return EXIT_ANSWER;
        }
        if (name)
            return cli_usage_error(verify_usage, "unknown option '--%s'", name);
        if (nfiles == 3)
            return cli_usage_error(verify_usage, "too many arguments ('%s')", value);
        files[nfiles++] = value;
    }
    if (nfiles < 2)
        return cli_usage_error(verify_usage, "expected A.ine [B.ine] CERT%s", "");
    return verify_files(files[0], nfiles == 3 ? files[1] : NULL, files[nfiles - 1]);
}
