/* cli_batch.c -- the batch command: many pairs from a list file, answered
 * with hs_intersect_batch, one output line per pair in the list's order. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/text_lines.h"
#include "src/cli/batch_list.h"
#include "src/cli/cli_commands.h"
#include "src/cli/cli_common.h"
#include "src/cli/json_emit.h"
#include "polytope/error.h"
#include "polytope/mem.h"

static const char batch_usage[] =
    "usage: halfspace batch [options] FILE\n"
    "  FILE lists one pair per line, \"A.ine B.ine\" (paths relative to FILE's folder;\n"
    "  lines starting with '#' or '*' are comments).  Prints one line per pair, in\n"
    "  order: \"A.ine B.ine STATUS\" (disjoint, touching, overlap; faithful: intersect).\n"
    "options:\n"
    "  --threads=N    worker threads (default 1; 0 = one per CPU)\n"
    "  --engine=E     fast (default), exact, faithful, faithful-exact, glpk, glpk-exact\n"
    "  --json         one JSON object per line: {\"a\":..,\"b\":..,\"status\":..}\n"
    "  --help         this text\n"
    "exit: 0 answers printed, 1 usage error, 2 bad input (FILE:LINE: what is wrong)\n";

/* {"a":A,"b":B,"status":S} and a newline. */
static void batch_json_line(const char *a, const char *b, hs_status st)
{
    json_emit j;
    json_emit_init(&j, stdout);
    json_object_open(&j);
    json_key(&j, "a");
    json_string(&j, a);
    json_key(&j, "b");
    json_string(&j, b);
    json_key(&j, "status");
    json_string(&j, hs_status_name(st));
    json_object_close(&j);
    putchar('\n');
}

static void print_answers(const batch_list *bl, const hs_status *st, int json)
{
    for (size_t k = 0; k < bl->count; k++) {
        if (json)
            batch_json_line(bl->name_a[k], bl->name_b[k], st[k]);
        else
            printf("%s %s %s\n", bl->name_a[k], bl->name_b[k], hs_status_name(st[k]));
    }
}

int cmd_batch(int argc, char **argv)
{
    hs_options opt;
    hs_options_init(&opt);
    int threads = 1, json = 0;
    const char *file = NULL;
    cli_args a;
    cli_args_init(&a, argc, argv);
    const char *name, *value;
    while (cli_args_next(&a, &name, &value)) {
        if (!name) {
            if (file)
                return cli_usage_error(batch_usage, "one list file only ('%s')", value);
            file = value;
        } else if (strcmp(name, "help") == 0) {
            fputs(batch_usage, stdout);
            return EXIT_ANSWER;
        } else if (strcmp(name, "json") == 0) {
            json = 1;
        } else if (strcmp(name, "threads") == 0) {
            const char *t = cli_args_value(&a, value);
            char *end = NULL;
            long v = t ? strtol(t, &end, 10) : -1;
            if (!t || *end || v < 0 || v > 1024)
                return cli_usage_error(batch_usage, "--threads needs 0..1024, not '%s'", t);
            threads = (int)v;
        } else if (strcmp(name, "engine") == 0) {
            const char *e = cli_args_value(&a, value);
            if (!e || !hs_engine_from_name(e, &opt.engine))
                return cli_usage_error(batch_usage, "unknown engine '%s'", e);
        } else {
            return cli_usage_error(batch_usage, "unknown option '--%s'", name);
        }
    }
    if (!file)
        return cli_usage_error(batch_usage, "expected a list file%s", "");
    batch_list bl;
    hs_error err;
    hs_error_clear(&err);
    int code;
    hs_status *st = NULL;
    if (batch_list_read(&bl, file, &err) != HS_OK)
        code = cli_fail(&err);
    else if (!(st = calloc(bl.count, sizeof *st)))
        code = EXIT_INTERNAL;
    else if (hs_intersect_batch(bl.A, bl.B, bl.count, &opt, threads, st, NULL, &err) != HS_OK)
        code = cli_fail(&err);
    else {
        print_answers(&bl, st, json);
        code = fflush(stdout) == 0 ? EXIT_ANSWER : EXIT_INTERNAL;
    }
    free(st);
    batch_list_free(&bl);
    return code;
}
