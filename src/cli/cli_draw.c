/* cli_draw.c -- `halfspace draw`: a picture of one system or a pair
 * (src/draw/draw_pair.c), or with --trace the walk of the seed's
 * recursion as one frame per step and a page to step through them
 * (src/draw/draw_trace.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/cli/cli_commands.h"
#include "src/cli/cli_common.h"
#include "src/draw/draw.h"

static const char draw_usage[] =
    "usage: halfspace draw [options] A.ine [B.ine] -o OUT.svg|OUT.png|OUT.pdf\n"
    "       halfspace draw --trace [options] A.ine B.ine -o DIR/\n"
    "  A picture of one system or of a pair of 1, 2 or 3 variables: the polygons\n"
    "  (2-D; unbounded ones cut by the frame, open sides dotted) or polyhedra (3-D,\n"
    "  from their exact vertices; translucent faces, hidden edges dashed), the\n"
    "  common region, the witness point of the answer, each row's number on its\n"
    "  edge or face, and for disjoint and touching pairs the separating line or\n"
    "  plane of the certificate.  The format is the file's extension.\n"
    "  With --trace: the walk of the engine, one frame per step, into DIR as\n"
    "  frame-NNN.svg and index.html (a page with previous/next buttons and the\n"
    "  arrow keys; the trace lines and the depth of each step beside its frame).\n"
    "options:\n"
    "  -o, --output=OUT      the picture, or the directory (--trace)\n"
    "  --engine=E            the query: fast (default), exact, faithful, faithful-exact,\n"
    "                        glpk, glpk-exact; --trace: faithful (default),\n"
    "                        faithful-exact (the seed's recursion) or fast (its steps)\n"
    "  --view=AZ,EL          3-D: azimuth and elevation of the viewer in degrees\n"
    "                        (default -60,25; z up)\n"
    "  --trace               the walk, step by step (needs A and B)\n"
    "  --replay-s=P --replay-t=P\n"
    "                        --trace, faithful engines: start from these s and t\n"
    "                        (\"x,y,z\"), as the paper's worked examples do\n"
    "  --tol=T               faithful engine: relative zero tolerance (default 1e-12)\n"
    "  --png                 --trace: also write frame-NNN.png\n"
    "  --help                this text\n"
    "exit: 0 picture written, 1 usage error, 2 bad input or a file that cannot be\n"
    "written, 4 internal error\n";

typedef struct draw_cli {
    draw_opts o;
    hs_options q;
    const char *files[2];
    int nfiles, trace, engine_given;
    const char *replay_s, *replay_t;
} draw_cli;

static int draw_option(draw_cli *c, cli_args *a, const char *name, const char *value)
{
    if (strcmp(name, "trace") == 0 || strcmp(name, "png") == 0) {
        *(name[0] == 't' ? &c->trace : &c->o.png_frames) = 1;
        return -1;
    }
    const char *v = cli_args_value(a, value);
    if (!v)
        return cli_usage_error(draw_usage, "--%s needs a value", name);
    if (strcmp(name, "output") == 0) {
        c->o.out = v;
    } else if (strcmp(name, "engine") == 0) {
        if (!hs_engine_from_name(v, &c->q.engine))
            return cli_usage_error(draw_usage, "unknown engine '%s'", v);
        c->engine_given = 1;
    } else if (strcmp(name, "view") == 0) {
        if (draw_parse_view(v, &c->o) != 0)
            return cli_usage_error(draw_usage,
                                   "--view needs AZ,EL in degrees (EL in -90..90), not '%s'", v);
    } else if (strcmp(name, "tol") == 0) {
        double tol;
        if (!cli_parse_number(v, &tol) || !(tol >= 0 && tol < 1))
            return cli_usage_error(draw_usage, "--tol needs a number in [0, 1), not '%s'", v);
        c->q.faithful_tol = tol;
    } else if (strcmp(name, "replay-s") == 0 || strcmp(name, "replay-t") == 0) {
        *(name[7] == 's' ? &c->replay_s : &c->replay_t) = v;
    } else {
        return cli_usage_error(draw_usage, "unknown option '--%s'", name);
    }
    return -1;
}

static int parse_draw_args(int argc, char **argv, draw_cli *c)
{
    memset(c, 0, sizeof *c);
    hs_options_init(&c->q);
    cli_args a;
    cli_args_init(&a, argc, argv);
    const char *name, *value;
    while (cli_args_next(&a, &name, &value)) {
        if (!name && strcmp(value, "-o") == 0) {
            c->o.out = cli_args_value(&a, NULL);
            if (!c->o.out)
                return cli_usage_error(draw_usage, "-o needs a file or directory%s", "");
        } else if (!name) {
            if (c->nfiles == 2)
                return cli_usage_error(draw_usage, "too many files ('%s')", value);
            c->files[c->nfiles++] = value;
        } else if (strcmp(name, "help") == 0) {
            fputs(draw_usage, stdout);
            return EXIT_ANSWER;
        } else {
            int code = draw_option(c, &a, name, value);
            if (code >= 0)
                return code;
        }
    }
    if (c->nfiles == 0)
        return cli_usage_error(draw_usage, "expected A.ine [B.ine]%s", "");
    if (!c->o.out)
        return cli_usage_error(draw_usage, "-o OUT is needed%s", "");
    if (c->trace && c->nfiles != 2)
        return cli_usage_error(draw_usage, "--trace needs two systems, A.ine and B.ine%s", "");
    if (!c->replay_s != !c->replay_t)
        return cli_usage_error(draw_usage, "--replay-s and --replay-t go together%s", "");
    if (c->replay_s && !c->trace)
        return cli_usage_error(draw_usage, "--replay-s and --replay-t need --trace%s", "");
    if (c->trace && !c->engine_given)
        c->q.engine = HS_ENGINE_FAITHFUL;
    if (c->trace && c->q.engine != HS_ENGINE_FAITHFUL &&
        c->q.engine != HS_ENGINE_FAITHFUL_EXACT && c->q.engine != HS_ENGINE_FAST)
        return cli_usage_error(draw_usage, "--trace draws the engines faithful, faithful-exact "
                                           "and fast, not '%s'", hs_engine_name(c->q.engine));
    return -1;
}

static int run_draw(draw_cli *c, hs_poly *A, hs_poly *B)
{
    hs_error err;
    hs_error_clear(&err);
    double s[3], t[3];
    int n = hs_poly_dim(A);
    if (c->replay_s) {
        if (n > 3 || cli_parse_point(c->replay_s, s, n) != 0 ||
            cli_parse_point(c->replay_t, t, n) != 0)
            return cli_usage_error(draw_usage, "--replay-s/--replay-t need %s coordinates each",
                                   n == 1 ? "1" : n == 2 ? "2" : "3");
        c->q.replay_s = s;
        c->q.replay_t = t;
    }
    if (!c->trace) {
        if (draw_pair_picture(A, B, &c->q, &c->o, &err) != HS_OK)
            return cli_fail(&err);
        printf("wrote %s\n", c->o.out);
        return EXIT_ANSWER;
    }
    int frames = 0;
    if (draw_trace_pages(A, B, &c->q, &c->o, &frames, &err) != HS_OK)
        return cli_fail(&err);
    size_t len = strlen(c->o.out);
    while (len > 1 && c->o.out[len - 1] == '/')
        len--;
    printf("wrote %d frames and %.*s/index.html\n", frames, (int)len, c->o.out);
    return EXIT_ANSWER;
}

int cmd_draw(int argc, char **argv)
{
    draw_cli c;
    int code = parse_draw_args(argc, argv, &c);
    if (code >= 0)
        return code;
    hs_error err;
    hs_error_clear(&err);
    hs_poly *A = hs_poly_read(c.files[0], &err), *B = NULL;
    if (!A)
        return cli_fail(&err);
    if (c.nfiles == 2 && !(B = hs_poly_read(c.files[1], &err))) {
        hs_poly_free(A);
        return cli_fail(&err);
    }
    code = run_draw(&c, A, B);
    hs_poly_free(A);
    hs_poly_free(B);
    return fflush(stdout) == 0 ? code : EXIT_INTERNAL;
}
