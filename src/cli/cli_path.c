/* cli_path.c -- the path command: load a scene, move one body along a
 * straight line or an arc through three points (seed 004, sections 4-5),
 * stepped or guaranteed, and print the first blocked pose, the contact
 * pose found there and the pairs of bodies at it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/cli/cli_commands.h"
#include "src/cli/cli_common.h"
#include "src/cli/cli_scene_opts.h"
#include "src/cli/report_json.h"
#include "src/draw/draw.h"

static const char path_usage[] =
    "usage: halfspace path [options] SCENE --body NAME --line \"X Y Z [A B G]\"\n"
    "       halfspace path [options] SCENE --body NAME --arc \"X1 Y1 Z1\" \"X2 Y2 Z2\"\n"
    "  Moves body NAME of the scene from its pose along a straight line to X Y Z\n"
    "  (turning to the Z-Y-Z Euler angles A B G in radians, if given), or along the\n"
    "  circular arc from its position through X1 Y1 Z1 to X2 Y2 Z2, cut into equal\n"
    "  steps.  The first line says what happened:\n"
    "    free                       nothing within the threshold along the path\n"
    "    collision at step k of K   step k has a common point with another body\n"
    "    contact at step k of K     step k comes closer than the threshold\n"
    "  then the path, the last free pose, the contact pose (bisection between the\n"
    "  last free and the first blocked step; guaranteed mode: where advancement\n"
    "  stopped) and the pairs of bodies with NAME there.  Poses: X Y Z zyz A B G.\n"
    "options:\n"
    "  --steps K          cut the path into K equal steps (default 10)\n"
    "  --speed F --period T\n"
    "                     steps from a speed and an interpolation period: steps of\n"
    "                     length F*T on a line; on an arc of radius R the step angle\n"
    "                     asin(F*T/R) (seed 004, eq. 31)\n"
    "  --guaranteed       conservative advancement along the curve: cannot miss a thin\n"
    "                     obstacle between steps (the stepped default can)\n"
    "  --threshold D      contact threshold in scene units (default 0.1; 0: only\n"
    "                     collisions block; --guaranteed needs D > 0)\n"
    "  --turn             arc: the body turns with the arc (default: it translates)\n"
    "  --poses            also print every step pose\n"
    "  --json             one JSON object\n"
    "  --draw OUT.png|OUT.svg|OUT.pdf  a picture: the step poses up to the contact pose\n"
    "                     faded, the body there and the pairs coloured (overlap red,\n"
    "                     touching orange, contact yellow)\n"
    "  --view AZ,EL       the picture's camera in degrees (default: frames the scene)\n"
    "  --help             this text\n"
    "scene options:\n"
    CLI_SCENE_HELP
    "exit: 0 answer (free or blocked), 1 usage error, 2 bad input (a scene error,\n"
    "      an unknown body, a start pose in collision)\n";

typedef struct path_cli {
    hs_path_options opt;
    cli_scene scene_opt;
    const char *scene, *body, *line, *via, *end;
    int turn, json, poses, speed_given, period_given;
    draw_opts draw; /* --draw, --view (pictures, src/draw/) */
} path_cli;

static int path_parse_flag(path_cli *c, const char *name)
{
    if (strcmp(name, "guaranteed") == 0)
        c->opt.guaranteed = 1;
    else if (strcmp(name, "turn") == 0)
        c->turn = 1;
    else if (strcmp(name, "json") == 0)
        c->json = 1;
    else if (strcmp(name, "poses") == 0)
        c->poses = 1;
    else
        return 0;
    return 1;
}

static int path_parse_value(path_cli *c, const char *name, const char *v)
{
    double x;
    if (strcmp(name, "steps") == 0) {
        if (!cli_parse_number(v, &x) || x < 1 || x > HS_PATH_MAX_STEPS || x != floor(x))
            return cli_usage_error(path_usage, "--steps needs a whole number 1..1000000, not '%s'",
                                   v);
        c->opt.steps = (int)x;
    } else if (strcmp(name, "speed") == 0 || strcmp(name, "period") == 0) {
        int speed = name[0] == 's';
        if (!cli_parse_number(v, &x) || !(x > 0))
            return cli_usage_error(path_usage, speed ? "--speed needs a number > 0, not '%s'"
                                                     : "--period needs a number > 0, not '%s'", v);
        *(speed ? &c->opt.speed : &c->opt.period) = x;
        *(speed ? &c->speed_given : &c->period_given) = 1;
    } else if (strcmp(name, "threshold") == 0) {
        if (!cli_parse_number(v, &c->opt.threshold) || c->opt.threshold < 0)
            return cli_usage_error(path_usage, "--threshold needs a number >= 0, not '%s'", v);
    } else if (strcmp(name, "body") == 0) {
        c->body = v;
    } else if (strcmp(name, "line") == 0) {
        c->line = v;
    } else {
        return cli_usage_error(path_usage, "unknown option '--%s'", name);
    }
    return -1;
}

static int path_parse_option(void *ctx, cli_args *a, const char *name, const char *value)
{
    path_cli *c = ctx;
    int code;
    if (path_parse_flag(c, name))
        return -1;
    if (cli_scene_option(&c->scene_opt, a, name, value, path_usage, &code) ||
        cli_draw_option(&c->draw, a, name, value, path_usage, &code))
        return code;
    const char *v = cli_args_value(a, value);
    if (!v)
        return cli_usage_error(path_usage, "--%s needs a value", name);
    if (strcmp(name, "arc") == 0) {
        c->via = v;
        c->end = cli_args_value(a, NULL);
        if (!c->end)
            return cli_usage_error(path_usage, "--arc needs two points, \"X1 Y1 Z1\" \"X2 Y2 "
                                               "Z2\"%s", "");
        return -1;
    }
    return path_parse_value(c, name, v);
}

static int path_check_args(path_cli *c)
{
    if (!c->scene)
        return cli_usage_error(path_usage, "expected a scene file%s", "");
    if (!c->body)
        return cli_usage_error(path_usage, "--body NAME is needed%s", "");
    if (!c->line == !c->via)
        return cli_usage_error(path_usage, "give one of --line and --arc%s", "");
    if (c->speed_given != c->period_given)
        return cli_usage_error(path_usage, "--speed and --period go together%s", "");
    if (c->speed_given)
        c->opt.steps = 0;
    return cli_scene_check(&c->scene_opt, path_usage);
}

static int parse_path_args(int argc, char **argv, path_cli *c)
{
    memset(c, 0, sizeof *c);
    hs_path_options_init(&c->opt);
    cli_scene_init(&c->scene_opt);
    int code = cli_scan_args(argc, argv, path_usage, "scene", &c->scene, path_parse_option, c);
    return code >= 0 ? code : path_check_args(c);
}

/* ------------------------------------------------------------ building */

static hs_path *build_path(const path_cli *c, const hs_body *b, int *code)
{
    double start[16], v[6], end[3];
    hs_error err;
    hs_error_clear(&err);
    hs_body_get_pose(b, start);
    hs_path *p = NULL;
    if (c->line) {
        int n = cli_parse_point(c->line, v, 3) == 0   ? 3
                : cli_parse_point(c->line, v, 6) == 0 ? 6
                                                      : 0;
        if (!n) {
            *code = cli_usage_error(path_usage,
                                    "--line needs \"X Y Z\" or \"X Y Z A B G\", not '%s'", c->line);
            return NULL;
        }
        p = hs_path_line(start, v, n == 6 ? v + 3 : NULL, &err);
    } else {
        if (cli_parse_point(c->via, v, 3) != 0 || cli_parse_point(c->end, end, 3) != 0) {
            *code = cli_usage_error(path_usage, "--arc needs two points \"X Y Z\", not '%s'",
                                    cli_parse_point(c->via, v, 3) ? c->via : c->end);
            return NULL;
        }
        p = hs_path_arc(start, v, end, c->turn, &err);
    }
    if (!p)
        *code = cli_fail(&err);
    return p;
}

/* ------------------------------------------------------------ printing */

/* Z-Y-Z Euler angles of a rotation (seed 004, eq. (1)): beta in [0, pi];
 * when sin(beta) is 0 only alpha + gamma is defined, and gamma = 0. */
static void zyz_of(const double m[16], double zyz[3])
{
    double r13 = m[2], r23 = m[6], r33 = m[10];
    zyz[1] = atan2(sqrt(r13 * r13 + r23 * r23), r33);
    if (r13 == 0 && r23 == 0) {
        zyz[0] = r33 > 0 ? atan2(m[4], m[0]) : atan2(-m[1], m[5]);
        zyz[2] = 0;
    } else {
        zyz[0] = atan2(r23, r13);
        zyz[2] = atan2(m[9], -m[8]);
    }
}

static void print_pose(const double m[16])
{
    double zyz[3];
    zyz_of(m, zyz);
    printf("%.9g %.9g %.9g zyz %.9g %.9g %.9g", m[3], m[7], m[11], zyz[0], zyz[1], zyz[2]);
}

static void print_path_line(const path_cli *c, const hs_path *p, const hs_path_result *r)
{
    if (hs_path_is_arc(p)) {
        double centre[3], normal[3], radius, theta;
        hs_path_arc_geometry(p, centre, normal, &radius, &theta, NULL);
        printf("path arc centre");
        cli_print_vec(centre);
        printf(" radius %.9g angle %.9g normal", radius, theta);
        cli_print_vec(normal);
        printf(" length %.9g%s", hs_path_length(p), c->turn ? " turning" : "");
    } else {
        printf("path line length %.9g", hs_path_length(p));
    }
    printf(", %d steps, %s, threshold %.9g, %ld distance queries\n", r->steps,
           c->opt.guaranteed ? "guaranteed" : "stepped", r->threshold, r->queries);
}

static const char *status_word(const hs_path_result *r)
{
    return !r->blocked ? "free" : r->step_collision ? "collision" : "contact";
}

/* The pairs with the body, as `halfspace world` prints them. */
static void path_print_pairs(const hs_report *rep, const char *body)
{
    for (int k = 0; k < hs_report_pair_count(rep); k++)
        if (cli_report_pair_has_body(rep, k, body))
            cli_print_report_pair(rep, k);
}

static void print_step_poses(const double *poses, int count)
{
    for (int k = 0; k < count; k++) {
        printf("step %d fraction %.9g: ", k, (double)k / (count - 1));
        print_pose(poses + 16 * k);
        putchar('\n');
    }
}

static void path_print_text(const path_cli *c, const hs_path *p, const hs_path_result *r,
                            const hs_report *rep)
{
    if (r->blocked)
        printf("%s at step %d of %d\n", status_word(r), r->step, r->steps);
    else
        printf("free\n");
    print_path_line(c, p, r);
    if (r->blocked) {
        printf("last free pose at fraction %.9g: ", r->free_fraction);
        print_pose(r->last_free);
        printf("\ncontact pose at fraction %.9g: ", r->fraction);
        print_pose(r->contact);
        printf(" distance %.9g\n", r->distance);
    } else {
        printf("end pose: ");
        print_pose(r->contact);
        printf(" distance %.9g\n", r->distance);
    }
    path_print_pairs(rep, c->body);
}

/* --------------------------------------------------------------- json */

static void path_json_geometry(json_emit *j, const path_cli *c, const hs_path *p)
{
    json_object_open(j);
    json_key(j, "kind");
    json_string(j, hs_path_is_arc(p) ? "arc" : "line");
    json_key(j, "length");
    json_number(j, hs_path_length(p));
    if (hs_path_is_arc(p)) {
        double centre[3], normal[3], radius, theta;
        hs_path_arc_geometry(p, centre, normal, &radius, &theta, NULL);
        json_key(j, "centre");
        json_numbers(j, centre, 3);
        json_key(j, "normal");
        json_numbers(j, normal, 3);
        json_key(j, "radius");
        json_number(j, radius);
        json_key(j, "theta");
        json_number(j, theta);
        json_key(j, "turn");
        json_boolean(j, c->turn);
    }
    json_object_close(j);
}

/* {"fraction":F[,"distance":D],"pose":[16 numbers]} */
static void path_json_pose(json_emit *j, double fraction, const double *distance,
                           const double pose[16])
{
    json_object_open(j);
    json_key(j, "fraction");
    json_number(j, fraction);
    if (distance) {
        json_key(j, "distance");
        json_number(j, *distance);
    }
    json_key(j, "pose");
    json_numbers(j, pose, 16);
    json_object_close(j);
}

/* The answer as one JSON object; its pairs are those with the moved body,
 * written as `halfspace world --json` writes them (report_json.h). */
static void path_print_json(const path_cli *c, const hs_path *p, const hs_path_result *r,
                            const hs_report *rep)
{
    json_emit j;
    json_emit_init(&j, stdout);
    json_object_open(&j);
    json_key(&j, "status");
    json_string(&j, status_word(r));
    json_key(&j, "step");
    json_integer(&j, r->step);
    json_key(&j, "steps");
    json_integer(&j, r->steps);
    json_key(&j, "mode");
    json_string(&j, c->opt.guaranteed ? "guaranteed" : "stepped");
    json_key(&j, "threshold");
    json_number(&j, r->threshold);
    json_key(&j, "queries");
    json_integer(&j, r->queries);
    json_key(&j, "path");
    path_json_geometry(&j, c, p);
    json_key(&j, "last_free");
    path_json_pose(&j, r->free_fraction, NULL, r->last_free);
    json_key(&j, "contact");
    path_json_pose(&j, r->fraction, &r->distance, r->contact);
    json_key(&j, "pairs");
    report_json_pairs(&j, rep, c->body);
    json_object_close(&j);
    putchar('\n');
}

/* --------------------------------------------------------------- main */

/* Every step pose of the path (--poses). */
static int path_print_steps(const path_cli *c, const hs_path *p)
{
    double *poses;
    int count;
    hs_error err;
    if (hs_path_step_poses(p, &c->opt, &poses, &count, &err) != HS_OK)
        return cli_fail(&err);
    print_step_poses(poses, count);
    hs_free(poses);
    return -1;
}

/* --draw: the step poses up to the blocked step (all when free). */
static int path_draw(const path_cli *c, hs_world *w, hs_body *b, const hs_path *p,
                     const hs_path_result *r, const hs_report *rep)
{
    hs_error err;
    double *poses = NULL;
    int count = 0;
    if (hs_path_step_poses(p, &c->opt, &poses, &count, &err) != HS_OK)
        return cli_fail(&err);
    if (r->blocked && r->step < count)
        count = r->step;
    int code = draw_path_picture(w, b, poses, count, r->contact, rep, &c->draw, &err) == HS_OK
                   ? -1
                   : cli_fail(&err);
    hs_free(poses);
    return code;
}

static int run_path(const path_cli *c, hs_world *w, hs_body *b, const hs_path *p)
{
    hs_error err;
    hs_error_clear(&err);
    hs_path_result r;
    hs_report *rep = hs_report_new();
    if (!rep)
        return EXIT_INTERNAL;
    int code = -1;
    if (hs_path_check(w, b, p, &c->opt, &r, rep, &err) != HS_OK)
        code = cli_fail(&err);
    else if (c->json)
        path_print_json(c, p, &r, rep);
    else
        path_print_text(c, p, &r, rep);
    if (code < 0 && c->poses && !c->json)
        code = path_print_steps(c, p);
    if (code < 0 && c->draw.out)
        code = path_draw(c, w, b, p, &r, rep);
    hs_report_free(rep);
    return code < 0 ? EXIT_ANSWER : code;
}

static int path_in_world(const path_cli *c, hs_world *w)
{
    hs_body *b = hs_world_find_body(w, c->body);
    if (!b) {
        fprintf(stderr, "halfspace: %s: no body named '%s'\n", c->scene, c->body);
        return EXIT_INPUT;
    }
    int code = -1;
    hs_path *p = build_path(c, b, &code);
    if (!p)
        return code;
    code = run_path(c, w, b, p);
    hs_path_free(p);
    return code;
}

int cmd_path(int argc, char **argv)
{
    path_cli c;
    int code = parse_path_args(argc, argv, &c);
    if (code >= 0)
        return code;
    hs_error err;
    hs_error_clear(&err);
    hs_world *w = hs_world_new();
    if (!w)
        return EXIT_INTERNAL;
    if (hs_world_add_file_opts(w, c.scene, &c.scene_opt.opt, &err) != HS_OK)
        code = cli_fail(&err);
    else
        code = path_in_world(&c, w);
    hs_world_free(w);
    return fflush(stdout) == 0 ? code : EXIT_INTERNAL;
}
