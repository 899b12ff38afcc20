/* cli_crosscheck.c -- `halfspace crosscheck`: its options and usage text,
 * and the run (the instances and the comparisons are the library's:
 * solver/crosscheck_gen.c and solver/crosscheck_run.c).
 *
 * Exit status: 0 when there is no disagreement, 3 when there are some,
 * 1 for bad options, 2 when the run itself failed. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solver/crosscheck.h"
#include "src/cli/cli_commands.h"
#include "src/cli/cli_common.h"

/* The run itself failed (out of memory, an instance that could not be
 * drawn). */
#define CROSSCHECK_EXIT_FAILED 2

static void crosscheck_usage(FILE *f)
{
    fprintf(f,
            "usage: halfspace crosscheck [--count N] [--dim n] [--rows m] [--seed s] "
            "[--engines LIST]\n"
            "                            [--time-limit SECONDS] [--verbose]\n"
            "\n"
            "Generate random pairs of polyhedra, many with a known answer, and compare\n"
            "the engines exact, glpk-exact, fast, faithful and glpk on them.\n"
            "\n"
            "  --count N   number of instances (default 1000)\n"
            "  --dim n     dimension of every instance, 1..%d (default: 1..5 in turn)\n"
            "  --rows m    random rows per polyhedron before the family adds its own,\n"
            "              1..%d (default 8)\n"
            "  --seed s    seed of the instance stream (default 1)\n"
            "  --engines LIST\n"
            "              the engines to run, comma-separated, among exact, glpk-exact,\n"
            "              fast, faithful, glpk (default: all five; the faithful engine\n"
            "              takes exponential time in the dimension: leave it out for\n"
            "              large --dim or --rows); comparisons needing a missing one are\n"
            "              left out\n"
            "  --time-limit SECONDS\n"
            "              stop an instance's engines after this long (each instance then\n"
            "              runs in a child process); such instances are reported\n"
            "              (\"skipped: instance ...\") and counted as skipped\n"
            "  --verbose   one line per instance\n"
            "  -h, --help  show this text\n"
            "\n"
            "The last line reads \"crosscheck: N instances, D disagreements\", followed\n"
            "by \", K skipped (over the time limit)\" when some were.\n"
            "Exit status: 0 no disagreement, 3 disagreements, 1 bad options, 2 failure.\n",
            CC_MAX_DIM, CC_MAX_ROWS);
}

/* A decimal integer in [lo, hi]; -1 when text is not one. */
static int parse_bounded_long(const char *text, long lo, long hi, long *out)
{
    if (!text || !*text)
        return -1;
    char *end = NULL;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno != 0 || *end != '\0' || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

/* A seed: an unsigned decimal integer below 2^64, no sign. */
static int parse_seed(const char *text, uint64_t *out)
{
    if (!text || !*text || *text == '-' || *text == '+')
        return -1;
    char *end = NULL;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno != 0 || *end != '\0')
        return -1;
    *out = (uint64_t)v;
    return 0;
}

/* "exact,glpk-exact,fast": engine bits (CC_ENGINE_BIT) into *mask; -1
 * when a name is unknown, not run by the cross-check, or none is given. */
static int parse_engines(const char *text, unsigned *mask)
{
    *mask = 0;
    char name[32];
    for (const char *p = text; *p;) {
        size_t len = strcspn(p, ",");
        hs_engine e;
        if (len == 0 || len >= sizeof name)
            return -1;
        memcpy(name, p, len);
        name[len] = '\0';
        if (!hs_engine_from_name(name, &e) || !(CC_ALL_ENGINES & CC_ENGINE_BIT(e)))
            return -1;
        *mask |= CC_ENGINE_BIT(e);
        p += len + (p[len] == ',');
    }
    return *mask ? 0 : -1;
}

/* A time limit: a positive finite number of seconds, at most a day. */
static int parse_seconds(const char *text, double *out)
{
    char *end = NULL;
    errno = 0;
    double v = strtod(text, &end);
    if (end == text || *end != '\0' || errno != 0 || !(v > 0 && v <= 86400))
        return -1;
    *out = v;
    return 0;
}

/* Apply option `name` with `value`; -1 with a message when bad. */
static int apply_crosscheck_option(crosscheck_opts *o, const char *name, const char *value,
                                   FILE *errout)
{
    long v = 0;
    int ok;
    if (strcmp(name, "--seed") == 0) {
        ok = parse_seed(value, &o->seed) == 0;
    } else if (strcmp(name, "--engines") == 0) {
        ok = parse_engines(value, &o->engines) == 0;
    } else if (strcmp(name, "--time-limit") == 0) {
        ok = parse_seconds(value, &o->time_limit) == 0;
    } else if (strcmp(name, "--count") == 0) {
        ok = parse_bounded_long(value, 0, 1000000000L, &v) == 0;
        if (ok)
            o->count = v;
    } else if (strcmp(name, "--dim") == 0) {
        ok = parse_bounded_long(value, 1, CC_MAX_DIM, &v) == 0;
        if (ok)
            o->dim = (int)v;
    } else {
        ok = parse_bounded_long(value, 1, CC_MAX_ROWS, &v) == 0;
        if (ok)
            o->rows = (int)v;
    }
    if (!ok)
        fprintf(errout, "halfspace crosscheck: bad value '%s' for %s\n", value, name);
    return ok ? 0 : -1;
}

static int crosscheck_takes_value(const char *name)
{
    return strcmp(name, "--count") == 0 || strcmp(name, "--dim") == 0 ||
           strcmp(name, "--rows") == 0 || strcmp(name, "--seed") == 0 ||
           strcmp(name, "--engines") == 0 || strcmp(name, "--time-limit") == 0;
}

/* The options after argv[0] into *o.  Returns 0 to run, 1 when --help was
 * given (usage printed on out), -1 on a bad option (message and usage
 * printed on errout). */
static int parse_crosscheck_args(int argc, char **argv, crosscheck_opts *o, FILE *out,
                                 FILE *errout)
{
    for (int i = 1; i < argc; i++) {
        char name[32];
        const char *arg = argv[i], *eq = strchr(arg, '=');
        size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
        snprintf(name, sizeof name, "%.*s", (int)(len < sizeof name ? len : sizeof name - 1),
                 arg);
        if (!eq && (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0)) {
            crosscheck_usage(out);
            return 1;
        }
        if (!eq && strcmp(arg, "--verbose") == 0) {
            o->verbose = 1;
            continue;
        }
        if (len >= sizeof name || !crosscheck_takes_value(name)) {
            fprintf(errout, "halfspace crosscheck: unknown option '%s'\n", arg);
        } else {
            const char *value = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
            if (value && apply_crosscheck_option(o, name, value, errout) == 0)
                continue;
            if (!value)
                fprintf(errout, "halfspace crosscheck: %s needs a value\n", name);
        }
        crosscheck_usage(errout);
        return -1;
    }
    return 0;
}

int cmd_crosscheck(int argc, char **argv)
{
    crosscheck_opts o;
    crosscheck_opts_init(&o);
    int parsed = parse_crosscheck_args(argc, argv, &o, stdout, stderr);
    if (parsed != 0)
        return parsed > 0 ? EXIT_ANSWER : EXIT_USAGE;
    crosscheck_summary s;
    hs_error err;
    hs_error_clear(&err);
    if (crosscheck_run(&o, stdout, &s, &err) != HS_OK) {
        fflush(stdout);
        fprintf(stderr, "halfspace crosscheck: %s\n", err.msg);
        return CROSSCHECK_EXIT_FAILED;
    }
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "halfspace crosscheck: write error on standard output\n");
        return CROSSCHECK_EXIT_FAILED;
    }
    return s.disagreements == 0 ? EXIT_ANSWER : EXIT_REJECTED;
}
