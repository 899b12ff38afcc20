/* cli_common.h -- pieces shared by the commands of the halfspace CLI:
 * exit codes, error printing and a small option scanner. */
#ifndef HS_CLI_COMMON_H
#define HS_CLI_COMMON_H

#include <stdio.h>

#include "halfspace.h"

/* Exit codes of every command. */
enum {
    EXIT_ANSWER = 0,   /* an answer was printed */
    EXIT_USAGE = 1,    /* bad command line */
    EXIT_INPUT = 2,    /* bad input file: "FILE:LINE: what is wrong" on stderr;
                          also an input too large for the memory */
    EXIT_REJECTED = 3, /* verify: the certificate does not prove its claim;
                          crosscheck: disagreements found */
    EXIT_INTERNAL = 4  /* a self-check failed (a bug: please report) */
};

/* Print "halfspace: msg" for err and return the exit code for its code. */
int cli_fail(const hs_error *err);

/* Print a usage error (with the command's usage text) and return EXIT_USAGE. */
int cli_usage_error(const char *usage, const char *fmt, const char *arg);

/* Option scanner over argv[1..]: "--name=value", "--name value", "--flag",
 * "-h" (read as --help) and positional arguments ("--" ends options). */
typedef struct cli_args {
    int argc;
    char **argv;
    int pos;
} cli_args;

void cli_args_init(cli_args *a, int argc, char **argv);
/* Next item: returns 1 and sets *name (without "--", NULL for a positional)
 * and *value (the positional, the "=value" part, or NULL); 0 at the end. */
int cli_args_next(cli_args *a, const char **name, const char **value);
/* Value of an option that needs one: the "=value" or the next argument. */
const char *cli_args_value(cli_args *a, const char *value);

/* The command line of a command taking one file and options: the
 * positional argument into *file (a second one is a usage error naming
 * `what`), --help printed, every other option handed to option(ctx, a,
 * name, value), which returns -1 to go on or an exit code.  Returns -1
 * when the whole line was read, or an exit code. */
typedef int (*cli_option_fn)(void *ctx, cli_args *a, const char *name, const char *value);
int cli_scan_args(int argc, char **argv, const char *usage, const char *what, const char **file,
                  cli_option_fn option, void *ctx);

/* Parse "x,y,z" or "x y z" into n doubles; returns 0 or -1. */
int cli_parse_point(const char *text, double *out, int n);

/* An option's number: 1 when text (NULL: none) is a finite number with
 * nothing after it, 0 otherwise. */
int cli_parse_number(const char *text, double *v);

/* " x y z" with 9 significant digits, to stdout. */
void cli_print_vec(const double v[3]);

/* Pair k of a world report as one text line, as `halfspace world` prints
 * it: names, status, the witness of the strongest piece pair (or the
 * distance of a contact), then the contact normal and points. */
void cli_print_report_pair(const hs_report *rep, int k);

/* Is `body` one of the two bodies of pair k of the report? */
int cli_report_pair_has_body(const hs_report *rep, int k, const char *body);

#endif
