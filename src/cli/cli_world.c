/* cli_world.c -- the world command: load a scene, query it, print the
 * pairs of bodies in collision or contact (sorted by name), optionally
 * after moving one body until contact, and export the scene coloured. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/fp.h"
#include "src/cli/cli_commands.h"
#include "src/cli/cli_common.h"
#include "src/cli/cli_scene_opts.h"
#include "src/cli/report_json.h"
#include "src/draw/draw.h"

static const char world_usage[] =
    "usage: halfspace world [options] SCENE\n"
    "  SCENE: .wrl (VRML 2.0 subset), .off, .obj or .stl.  Prints one line per pair\n"
    "  of bodies in collision or contact, sorted by name:\n"
    "    A B overlap at X Y Z          (interpenetrating; a common interior point)\n"
    "    A B touching at X Y Z         (in contact without interpenetration)\n"
    "    A B contact distance D ...    (closer than the threshold)\n"
    "  followed by the contacts (normal and points on A) when there are any.\n"
    "options:\n"
    "  --broadphase=tree|grid|raw  which pairs of bodies are tested (default grid)\n"
    "  --triangles=bvh|grid|raw    pairing of mesh triangles (default bvh)\n"
    "  --threshold=D               contact threshold in scene units (default 0.1; 0: none)\n"
    "  --threads=N                 worker threads (default 1; 0: one per CPU)\n"
    "  --engine=fast|exact         convex pairs: certified fast engine (default) or the\n"
    "                              exact LP engine on the same systems (a cross-check)\n"
    "  --move=BODY --to=\"TX TY TZ [AX AY AZ ANGLE]\"\n"
    "                              move BODY from its pose towards this pose (translation,\n"
    "                              rotation about axis AX AY AZ by ANGLE radians) until it\n"
    "                              comes within the threshold of another body (checked\n"
    "                              conservatively: no passing through); report there\n"
    "  --export=OUT.wrl            write the scene, pieces in collision in red\n"
    "  --draw=OUT.png|OUT.svg|OUT.pdf  a picture: pieces in overlap red, touching orange,\n"
    "                              contact yellow, contact points and normals\n"
    "  --view=AZ,EL                the picture's camera in degrees (default: frames the scene)\n"
    CLI_SCENE_HELP
    "  --json                      one JSON object\n"
    "  --stats                     counters of the query on stderr\n"
    "  --help                      this text\n"
    "exit: 0 answer, 1 usage error, 2 bad input (FILE:LINE: what is wrong)\n";

typedef struct world_cli {
    hs_query_options q;
    cli_scene scene_opt;
    hs_broadphase broad;
    const char *scene, *move, *to, *export_path;
    int json, stats;
    draw_opts draw; /* --draw, --view (pictures, src/draw/) */
} world_cli;

static int parse_world_option(void *ctx, cli_args *a, const char *name, const char *value)
{
    world_cli *c = ctx;
    const char *v = NULL;
    if (strcmp(name, "json") == 0 || strcmp(name, "stats") == 0) {
        *(name[0] == 'j' ? &c->json : &c->stats) = 1;
        return -1;
    }
    int code;
    if (cli_scene_option(&c->scene_opt, a, name, value, world_usage, &code) ||
        cli_draw_option(&c->draw, a, name, value, world_usage, &code))
        return code;
    v = cli_args_value(a, value);
    if (!v)
        return cli_usage_error(world_usage, "--%s needs a value", name);
    if (strcmp(name, "broadphase") == 0) {
        if (strcmp(v, "tree") == 0)
            c->broad = HS_BROAD_TREE;
        else if (strcmp(v, "grid") == 0)
            c->broad = HS_BROAD_GRID;
        else if (strcmp(v, "raw") == 0)
            c->broad = HS_BROAD_RAW;
        else
            return cli_usage_error(world_usage, "unknown broad phase '%s'", v);
    } else if (strcmp(name, "triangles") == 0) {
        if (strcmp(v, "bvh") == 0)
            c->q.triangles = HS_TRI_BVH;
        else if (strcmp(v, "grid") == 0)
            c->q.triangles = HS_TRI_GRID;
        else if (strcmp(v, "raw") == 0)
            c->q.triangles = HS_TRI_RAW;
        else
            return cli_usage_error(world_usage, "unknown triangle method '%s'", v);
    } else if (strcmp(name, "threshold") == 0) {
        if (!cli_parse_number(v, &c->q.threshold) || c->q.threshold < 0)
            return cli_usage_error(world_usage, "--threshold needs a number >= 0, not '%s'", v);
    } else if (strcmp(name, "threads") == 0) {
        double t;
        if (!cli_parse_number(v, &t) || t < 0 || t > 1024 || t != floor(t))
            return cli_usage_error(world_usage, "--threads needs 0..1024, not '%s'", v);
        c->q.threads = (int)t;
    } else if (strcmp(name, "engine") == 0) {
        if (strcmp(v, "fast") != 0 && strcmp(v, "exact") != 0)
            return cli_usage_error(world_usage, "--engine is fast or exact, not '%s'", v);
        c->q.engine = v[0] == 'f' ? HS_ENGINE_FAST : HS_ENGINE_EXACT;
    } else if (strcmp(name, "move") == 0) {
        c->move = v;
    } else if (strcmp(name, "to") == 0) {
        c->to = v;
    } else if (strcmp(name, "export") == 0) {
        c->export_path = v;
    } else {
        return cli_usage_error(world_usage, "unknown option '--%s'", name);
    }
    return -1;
}

static int parse_world_args(int argc, char **argv, world_cli *c)
{
    memset(c, 0, sizeof *c);
    hs_query_options_init(&c->q);
    cli_scene_init(&c->scene_opt);
    c->broad = HS_BROAD_GRID;
    int code = cli_scan_args(argc, argv, world_usage, "scene", &c->scene, parse_world_option, c);
    if (code >= 0)
        return code;
    if (!c->scene)
        return cli_usage_error(world_usage, "expected a scene file%s", "");
    if (!c->move != !c->to)
        return cli_usage_error(world_usage, "--move and --to go together%s", "");
    return cli_scene_check(&c->scene_opt, world_usage);
}

/* "TX TY TZ [AX AY AZ ANGLE]" as a pose. */
static int parse_goal(const char *text, double m[16])
{
    double v[7];
    int n = 0;
    const char *s = text;
    while (n < 7) {
        char *end;
        while (*s == ' ' || *s == ',' || *s == '\t')
            s++;
        if (!*s)
            break;
        v[n] = strtod(s, &end);
        if (end == s || !isfinite(v[n]))
            return -1;
        s = end;
        n++;
    }
    while (*s == ' ' || *s == ',' || *s == '\t')
        s++;
    if (*s || (n != 3 && n != 7))
        return -1;
    if (n == 3) {
        hs_pose_identity(m);
        m[3] = v[0], m[7] = v[1], m[11] = v[2];
        return 0;
    }
    return hs_pose_from_axis_angle(m, v + 3, v[6], v, NULL) == HS_OK ? 0 : -1;
}

/* ------------------------------------------------------------ printing */

static void world_print_text(const hs_report *rep)
{
    for (int k = 0; k < hs_report_pair_count(rep); k++)
        cli_print_report_pair(rep, k);
}

/* The answer as one JSON object: with --move, the moved body, the fraction
 * of the way it went and its pose (row-major 4x4); then the pairs
 * (report_json.h). */
static void world_print_json(const hs_report *rep, const hs_body *moved, double fraction)
{
    json_emit j;
    json_emit_init(&j, stdout);
    json_object_open(&j);
    if (moved) {
        double m[16];
        hs_body_get_pose(moved, m);
        json_key(&j, "moved");
        json_string(&j, hs_body_name(moved));
        json_key(&j, "fraction");
        json_number(&j, fraction);
        json_key(&j, "pose");
        json_numbers(&j, m, 16);
    }
    json_key(&j, "pairs");
    report_json_pairs(&j, rep, NULL);
    json_object_close(&j);
    putchar('\n');
}

static void world_print_stats(const hs_report *rep)
{
    hs_report_stats st;
    hs_report_get_stats(rep, &st);
    fprintf(stderr,
            "stats: %ld body pairs tested, %ld piece pairs, %ld triangle tests, %ld exact "
            "fallbacks\n",
            st.body_pairs, st.piece_pairs, st.triangle_tests, st.fallbacks);
}

/* --------------------------------------------------------------- main */

/* Rotation part of a pose as axis and angle in [0, pi] (axis 0 0 1 for
 * no rotation), the form --to takes. */
static void axis_angle_of(const double m[16], double axis[3], double *angle)
{
    double c = (m[0] + m[5] + m[10] - 1) / 2;
    *angle = acos(fmax(-1, fmin(1, c)));
    double v[3] = {m[9] - m[6], m[2] - m[8], m[4] - m[1]};
    if (*angle > 3.1) { /* near pi: the axis from the symmetric part */
        int i = m[0] >= m[5] && m[0] >= m[10] ? 0 : m[5] >= m[10] ? 1 : 2;
        for (int j = 0; j < 3; j++)
            v[j] = j == i ? m[5 * i] + 1 : (m[4 * i + j] + m[4 * j + i]) / 2;
        if ((m[9] - m[6]) * v[0] + (m[2] - m[8]) * v[1] + (m[4] - m[1]) * v[2] < 0)
            for (int j = 0; j < 3; j++)
                v[j] = -v[j];
    }
    double len = sqrt(dot3(v, v));
    for (int j = 0; j < 3; j++)
        axis[j] = len > 0 ? v[j] / len : j == 2;
    if (!(len > 0))
        *angle = 0;
}

static int do_move(world_cli *c, hs_world *w, hs_report *rep, double *fraction, hs_error *err)
{
    hs_body *b = hs_world_find_body(w, c->move);
    double goal[16];
    if (!b) {
        fprintf(stderr, "halfspace: %s: no body named '%s'\n", c->scene, c->move);
        return EXIT_INPUT;
    }
    if (parse_goal(c->to, goal) != 0)
        return cli_usage_error(world_usage, "--to needs \"TX TY TZ\" or \"TX TY TZ AX AY AZ "
                                            "ANGLE\", not '%s'", c->to);
    if (hs_world_move_until_contact(w, b, goal, &c->q, rep, fraction, err) != HS_OK)
        return cli_fail(err);
    if (!c->json) {
        double m[16], axis[3], angle;
        hs_body_get_pose(b, m);
        axis_angle_of(m, axis, &angle);
        printf("moved %s %.9g of the way, to %.9g %.9g %.9g rotation %.9g %.9g %.9g %.9g\n",
               c->move, *fraction, m[3], m[7], m[11], axis[0], axis[1], axis[2], angle);
    }
    return -1;
}

static int run_world(world_cli *c, hs_world *w)
{
    hs_error err;
    hs_error_clear(&err);
    hs_report *rep = hs_report_new();
    double fraction = 1;
    int code = -1;
    if (!rep)
        return EXIT_INTERNAL;
    if (hs_world_set_broadphase(w, c->broad, &err) != HS_OK)
        code = cli_fail(&err);
    if (code < 0 && c->move)
        code = do_move(c, w, rep, &fraction, &err);
    else if (code < 0 && hs_world_query(w, &c->q, rep, &err) != HS_OK)
        code = cli_fail(&err);
    if (code < 0) {
        if (c->json)
            world_print_json(rep, c->move ? hs_world_find_body(w, c->move) : NULL, fraction);
        else
            world_print_text(rep);
        if (c->stats)
            world_print_stats(rep);
        code = EXIT_ANSWER;
    }
    if (code == EXIT_ANSWER && c->export_path) {
        FILE *f = fopen(c->export_path, "w");
        if (!f) {
            fprintf(stderr, "halfspace: %s: cannot write\n", c->export_path);
            code = EXIT_INPUT;
        } else {
            if (hs_world_export_vrml(w, rep, f, &err) != HS_OK)
                code = cli_fail(&err);
            if (fclose(f) != 0 && code == EXIT_ANSWER)
                code = EXIT_INPUT;
        }
    }
    if (code == EXIT_ANSWER && c->draw.out && draw_world_picture(w, rep, &c->draw, &err) != HS_OK)
        code = cli_fail(&err);
    hs_report_free(rep);
    return code;
}

int cmd_world(int argc, char **argv)
{
    world_cli c;
    int code = parse_world_args(argc, argv, &c);
    if (code >= 0)
        return code;
    hs_error err;
    hs_error_clear(&err);
    hs_world *w = hs_world_new();
    if (!w)
        return EXIT_INTERNAL;
    if (hs_world_add_file_opts(w, c.scene, &c.scene_opt.opt, &err) != HS_OK) {
        hs_world_free(w);
        return cli_fail(&err);
    }
    code = run_world(&c, w);
    hs_world_free(w);
    return fflush(stdout) == 0 ? code : EXIT_INTERNAL;
}
