/* cli_common.c -- helpers shared by the CLI commands. */
#include "src/cli/cli_common.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cli_fail(const hs_error *err)
{
    fprintf(stderr, "halfspace: %s\n", err->msg[0] ? err->msg : "error");
    switch (err->code) {
    case HS_ERR_INPUT:
    case HS_ERR_IO:
    case HS_ERR_NOMEM:       /* out of memory: the input is too large */
    case HS_ERR_UNSUPPORTED: return EXIT_INPUT; /* (an unknown file type, data too large
                                                   for GLPK, ...) */
    case HS_ERR_ARG: return EXIT_USAGE;
    default: return EXIT_INTERNAL;
    }
}

int cli_usage_error(const char *usage, const char *fmt, const char *arg)
{
    fputs("halfspace: ", stderr);
    fprintf(stderr, fmt, arg ? arg : "");
    fprintf(stderr, "\n%s", usage);
    return EXIT_USAGE;
}

int cli_scan_args(int argc, char **argv, const char *usage, const char *what, const char **file,
                  cli_option_fn option, void *ctx)
{
    cli_args a;
    cli_args_init(&a, argc, argv);
    const char *name, *value;
    while (cli_args_next(&a, &name, &value)) {
        if (!name) {
            if (*file) {
                fprintf(stderr, "halfspace: one %s only ('%s')\n%s", what, value, usage);
                return EXIT_USAGE;
            }
            *file = value;
            continue;
        }
        if (strcmp(name, "help") == 0) {
            fputs(usage, stdout);
            return EXIT_ANSWER;
        }
        int code = option(ctx, &a, name, value);
        if (code >= 0)
            return code;
    }
    return -1;
}

void cli_args_init(cli_args *a, int argc, char **argv)
{
    a->argc = argc;
    a->argv = argv;
    a->pos = 1;
}

int cli_args_next(cli_args *a, const char **name, const char **value)
{
    if (a->pos >= a->argc)
        return 0;
    char *arg = a->argv[a->pos++];
    if (strcmp(arg, "--") == 0) {
        if (a->pos >= a->argc)
            return 0;
        *name = NULL;
        *value = a->argv[a->pos++];
        return 1;
    }
    if (strcmp(arg, "-h") == 0) { /* the usual short form of --help */
        *name = "help";
        *value = NULL;
        return 1;
    }
    if (strncmp(arg, "--", 2) != 0 || arg[2] == '\0') {
        *name = NULL;
        *value = arg;
        return 1;
    }
    char *eq = strchr(arg, '=');
    if (eq) {
        *eq = '\0';
        *value = eq + 1;
    } else {
        *value = NULL;
    }
    *name = arg + 2;
    return 1;
}

const char *cli_args_value(cli_args *a, const char *value)
{
    if (value)
        return value;
    if (a->pos < a->argc)
        return a->argv[a->pos++];
    return NULL;
}

int cli_parse_point(const char *text, double *out, int n)
{
    const char *s = text;
    for (int j = 0; j < n; j++) {
        while (*s == ' ' || *s == ',' || *s == '\t')
            s++;
        char *end;
        errno = 0;
        double v = strtod(s, &end);
        if (end == s || errno || !isfinite(v))
            return -1;
        out[j] = v;
        s = end;
    }
    while (*s == ' ' || *s == ',' || *s == '\t')
        s++;
    return *s ? -1 : 0;
}

int cli_parse_number(const char *text, double *v)
{
    char *end;
    *v = text ? strtod(text, &end) : NAN;
    return text && end != text && *end == '\0' && isfinite(*v); /* ("" is no number) */
}

void cli_print_vec(const double v[3]) { printf(" %.9g %.9g %.9g", v[0], v[1], v[2]); }

void cli_print_report_pair(const hs_report *rep, int k)
{
    const char *a, *b;
    hs_status st;
    hs_report_pair(rep, k, &a, &b, &st);
    printf("%s %s %s", a, b, hs_status_name(st));
    double w[3], d, best = INFINITY, bw[3] = {0, 0, 0};
    for (int j = 0; j < hs_report_piece_count(rep, k); j++) {
        hs_status ps;
        hs_report_piece(rep, k, j, NULL, NULL, &ps, w, &d);
        if (ps == st && d < best) {
            best = d;
            memcpy(bw, w, sizeof w);
        }
    }
    if (st == HS_CONTACT)
        printf(" distance %.9g", best);
    else {
        printf(" at");
        cli_print_vec(bw);
    }
    int nc = hs_report_contact_count(rep, k);
    for (int c = 0; c < nc; c++) {
        double on_a[3], on_b[3], nrm[3];
        hs_report_contact(rep, k, c, on_a, on_b, nrm);
        if (c == 0) {
            printf(" normal");
            cli_print_vec(nrm);
            printf(" contacts %d:", nc);
        }
        printf(" (%.9g %.9g %.9g)", on_a[0], on_a[1], on_a[2]);
    }
    putchar('\n');
}

int cli_report_pair_has_body(const hs_report *rep, int k, const char *body)
{
    const char *a, *b;
    hs_report_pair(rep, k, &a, &b, NULL);
    return strcmp(a, body) == 0 || strcmp(b, body) == 0;
}
