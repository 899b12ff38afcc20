/* cli_crosscheck.c -- `halfspace crosscheck`: compare the engines on
 * generated instances (the work is done in src/crosscheck.c). */
#include <stdio.h>

#include "solver/crosscheck.h"

int cli_crosscheck(int argc, char **argv)
{
    crosscheck_opts o;
    crosscheck_opts_init(&o);
    int parsed = crosscheck_parse_args(argc, argv, &o, stdout, stderr);
    if (parsed != 0)
        return parsed > 0 ? 0 : 1;
    crosscheck_summary s;
    hs_error err;
    hs_error_clear(&err);
    if (crosscheck_run(&o, stdout, &s, &err) != HS_OK) {
        fflush(stdout);
        fprintf(stderr, "halfspace crosscheck: %s\n", err.msg);
        return 2;
    }
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "halfspace crosscheck: write error on standard output\n");
        return 2;
    }
    return s.disagreements == 0 ? 0 : 3;
}
