/* cli_robot.c -- `halfspace robot`: load a URDF robot (its automatic skip
 * list made at the rest configuration), set a configuration, report
 * self-collisions, collisions with a scene, the distance to it, or check
 * a straight joint-space motion (stepped or guaranteed); export the
 * scene with the robot as VRML. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/cli/cli_commands.h"
#include "src/cli/cli_common.h"
#include "src/cli/json_emit.h"
#include "src/cli/cli_scene_opts.h"
#include "src/draw/draw.h"

static const char robot_usage[] =
    "usage: halfspace robot [options] ROBOT.urdf\n"
    "  Loads the robot (meshes as their convex hulls unless --mesh), skips the pairs of\n"
    "  links in collision at the rest configuration, sets --q, and prints:\n"
    "    free | self-collision | scene-collision | self-and-scene-collision   (first line)\n"
    "    robot NAME (FILE): L links, D coordinates\n"
    "    q Q1 ... QD            (in coordinate order: the movable joints, depth first)\n"
    "    coordinates J1 ... JD  (their joints' names)\n"
    "    skipped A B REASON     (adjacent, rest, user: the skip list used)\n"
    "    self A B overlap|touching     (each pair of links in collision)\n"
    "    scene LINK BODY overlap|touching\n"
    "    distance D link LINK body BODY at X Y Z to X Y Z   (with --distance)\n"
    "  With --motion Q1 Q2: the straight motion from Q1 to Q2 instead:\n"
    "    free | collision at fraction F | near at fraction F   (first line)\n"
    "    motion guaranteed|stepped ..., then the pair and the blocked configuration\n"
    "options:\n"
    "  --q=\"Q1 ... QD\"        every coordinate (radians, or metres for prismatic joints)\n"
    "  --q=NAME=VALUE         one coordinate by its joint's name (repeat or join with ','),\n"
    "                         the others at rest\n"
    "  --scene=SCENE          a scene (.wrl, .off, .obj, .stl) to test the robot against\n"
    "  --distance             the smallest distance to the scene (needs --scene)\n"
    "  --motion Q1 Q2         check the straight motion between two configurations\n"
    "  --guaranteed           the guaranteed mode (never misses a collision); default:\n"
    "                         stepped, no coordinate moving more than --resolution per step\n"
    "  --resolution=R         stepped mode's step (default 0.0174532925: 1 degree)\n"
    "  --tolerance=T          guaranteed mode's tolerance (default 1e-6)\n"
    "  --rest=\"Q1 ... QD\"     the rest configuration of the automatic skip list\n"
    "                         (default: 0, or the middle of limits that exclude 0)\n"
    "  --package-path=DIRS    folders (':'-separated) where package://NAME/ is NAME/\n"
    "  --mesh                 keep meshes as triangle meshes, not their hulls\n"
    "  --skip-missing-meshes  a missing mesh file is a warning (its element ignored)\n"
    "  --export=OUT.wrl       write the robot and the scene as VRML (colliding red)\n"
    "  --draw=OUT.png|OUT.svg|OUT.pdf  a picture of the robot and the scene: links in\n"
    "                         overlap red, touching orange (with --distance, the closest\n"
    "                         points in yellow); with --motion, at the blocked\n"
    "                         configuration, or at Q2 when the motion is free\n"
    "  --view=AZ,EL           the picture's camera, degrees (default: framing the scene)\n"
    "  --json                 one JSON object\n"
    "  --help                 this text\n"
    "Warnings (FILE:LINE: what was ignored) go to stderr.\n"
    "exit: 0 answer, 1 usage error, 2 bad input (FILE:LINE: what is wrong, or a\n"
    "configuration that does not fit the robot)\n";

#define ROBOT_MAX_Q 64

typedef struct robot_cli {
    const char *file, *scene, *rest, *package_path, *export_path;
    const char *q[ROBOT_MAX_Q];
    int nq;
    const char *motion[2];
    int distance, json, guaranteed, mesh, skip_missing;
    double resolution, tolerance;
    draw_opts draw; /* --draw, --view (pictures, src/draw/) */
} robot_cli;

static int parse_robot_option(void *ctx, cli_args *a, const char *name, const char *value)
{
    robot_cli *c = ctx;
    static const char *const flags[] = {"json", "distance", "guaranteed", "mesh",
                                        "skip-missing-meshes"};
    int *flag_of[] = {&c->json, &c->distance, &c->guaranteed, &c->mesh, &c->skip_missing};
    for (int k = 0; k < 5; k++)
        if (strcmp(name, flags[k]) == 0) {
            *flag_of[k] = 1;
            return -1;
        }
    if (strcmp(name, "motion") == 0) {
        c->motion[0] = cli_args_value(a, value);
        c->motion[1] = cli_args_value(a, NULL);
        if (!c->motion[0] || !c->motion[1])
            return cli_usage_error(robot_usage, "%s--motion needs two configurations", "");
        return -1;
    }
    int code;
    if (cli_draw_option(&c->draw, a, name, value, robot_usage, &code))
        return code;
    const char *v = cli_args_value(a, value);
    if (!v)
        return cli_usage_error(robot_usage, "--%s needs a value", name);
    if (strcmp(name, "q") == 0) {
        if (c->nq == ROBOT_MAX_Q)
            return cli_usage_error(robot_usage, "%stoo many --q options", "");
        c->q[c->nq++] = v;
    } else if (strcmp(name, "scene") == 0) {
        c->scene = v;
    } else if (strcmp(name, "rest") == 0) {
        c->rest = v;
    } else if (strcmp(name, "package-path") == 0) {
        c->package_path = v;
    } else if (strcmp(name, "export") == 0) {
        c->export_path = v;
    } else if (strcmp(name, "resolution") == 0 || strcmp(name, "tolerance") == 0) {
        double x;
        if (!cli_parse_number(v, &x) || !(x > 0))
            return cli_usage_error(robot_usage, "--%s needs a number > 0", name);
        *(name[0] == 'r' ? &c->resolution : &c->tolerance) = x;
    } else {
        return cli_usage_error(robot_usage, "unknown option '--%s'", name);
    }
    return -1;
}

static int parse_robot_args(int argc, char **argv, robot_cli *c)
{
    memset(c, 0, sizeof *c);
    int code = cli_scan_args(argc, argv, robot_usage, "robot file", &c->file,
                             parse_robot_option, c);
    if (code >= 0)
        return code;
    if (!c->file)
        return cli_usage_error(robot_usage, "%sa URDF file is needed", "");
    if (c->distance && !c->scene)
        return cli_usage_error(robot_usage, "%s--distance needs --scene", "");
    if (c->motion[0] && (c->nq || c->distance))
        return cli_usage_error(robot_usage, "%s--motion goes without --q and --distance", "");
    return -1;
}

/* ------------------------------------------------------------ values */

/* Numbers of text (blank- or comma-separated) into v (at most max); the
 * count, or -1 when a token is not a number. */
static int robot_numbers(const char *text, double *v, int max)
{
    int n = 0;
    const char *s = text;
    for (;;) {
        while (*s == ' ' || *s == '\t' || *s == ',')
            s++;
        if (!*s)
            return n;
        char *end;
        double x = strtod(s, &end);
        if (end == s || n == max)
            return -1;
        v[n++] = x;
        s = end;
    }
}

/* A configuration: every value, or NAME=VALUE items from the rest; the
 * robot is set to it (exit 2 when it does fit).  -1, or an exit code. */
static int config(hs_robot *r, const char *const *texts, int count, double *q,
                  const char *what)
{
    int dof = hs_robot_dof(r);
    hs_robot_rest(r, q, dof, NULL);
    for (int t = 0; t < count; t++) {
        const char *text = texts[t];
        if (!strchr(text, '=')) {
            double v[ROBOT_MAX_Q * 4];
            int n = robot_numbers(text, v, ROBOT_MAX_Q * 4);
            if (n != dof) {
                fprintf(stderr, "halfspace: %s: %s values for %d coordinates\n", what,
                        n < 0 ? "bad" : "wrong number of", dof);
                return EXIT_INPUT;
            }
            memcpy(q, v, sizeof(double) * (size_t)dof);
            continue;
        }
        char *copy = malloc(strlen(text) + 1);
        if (!copy)
            return EXIT_INTERNAL;
        strcpy(copy, text);
        char *save = NULL;
        for (char *item = strtok_r(copy, ", ", &save); item; item = strtok_r(NULL, ", ", &save)) {
            char *eq = strchr(item, '=');
            double x;
            int j = -1, k = -1;
            if (eq) {
                *eq = '\0';
                j = hs_robot_joint_find(r, item);
                k = hs_robot_joint_coordinate(r, j);
            }
            if (!eq || !cli_parse_number(eq + 1, &x) || k < 0) {
                fprintf(stderr, "halfspace: %s: '%s' is not NAME=VALUE for a coordinate's joint\n",
                        what, item);
                free(copy);
                return EXIT_INPUT;
            }
            q[k] = x;
        }
        free(copy);
    }
    hs_error err;
    if (hs_robot_set_q(r, q, dof, &err) != HS_OK) {
        fprintf(stderr, "halfspace: %s: %s\n", what, err.msg);
        return EXIT_INPUT;
    }
    return -1;
}

/* ------------------------------------------------------------ output */

static void print_q(const char *label, const double *q, int n)
{
    printf("%s", label);
    for (int k = 0; k < n; k++)
        printf(" %.9g", q[k]);
    printf("\n");
}

/* The robot, its coordinates and the skip list (text, or JSON members of
 * the open object). */
static void print_header(const hs_robot *r, const robot_cli *c, json_emit *j)
{
    int dof = hs_robot_dof(r);
    if (j) {
        json_key(j, "robot");
        json_string(j, hs_robot_name(r));
        json_key(j, "file");
        json_string(j, c->file);
        json_key(j, "links");
        json_integer(j, hs_robot_link_count(r));
        json_key(j, "dof");
        json_integer(j, dof);
        json_key(j, "coordinates");
        json_array_open(j);
        for (int k = 0; k < dof; k++)
            json_string(j, hs_robot_joint_name(r, hs_robot_coordinate_joint(r, k)));
        json_array_close(j);
        json_key(j, "skipped");
        json_array_open(j);
    } else {
        printf("robot %s (%s): %d links, %d coordinates\ncoordinates", hs_robot_name(r), c->file,
               hs_robot_link_count(r), dof);
        for (int k = 0; k < dof; k++)
            printf(" %s", hs_robot_joint_name(r, hs_robot_coordinate_joint(r, k)));
        printf("\n");
    }
    for (int k = 0; k < hs_robot_skip_count(r); k++) {
        int a, b;
        hs_robot_skip_reason why;
        hs_robot_skip_get(r, k, &a, &b, &why, NULL);
        if (j) {
            json_array_open(j);
            json_string(j, hs_robot_link_name(r, a));
            json_string(j, hs_robot_link_name(r, b));
            json_string(j, hs_robot_skip_reason_name(why));
            json_array_close(j);
        } else {
            printf("skipped %s %s %s\n", hs_robot_link_name(r, a), hs_robot_link_name(r, b),
                   hs_robot_skip_reason_name(why));
        }
    }
    if (j)
        json_array_close(j);
}

/* The second name of a pair: a link, or a body of the world. */
static const char *other_name(const hs_robot *r, const hs_world *w, int b, int body)
{
    return b >= 0 ? hs_robot_link_name(r, b) : hs_body_name(hs_world_body(w, body));
}

static void print_pairs(const hs_robot *r, const hs_world *w, const hs_robot_pair *p, int n,
                        const char *label, json_emit *j)
{
    if (j) {
        json_key(j, label);
        json_array_open(j);
    }
    for (int k = 0; k < n; k++) {
        const char *a = hs_robot_link_name(r, p[k].a), *b = other_name(r, w, p[k].b, p[k].body);
        if (j) {
            json_array_open(j);
            json_string(j, a);
            json_string(j, b);
            json_string(j, hs_status_name(p[k].status));
            json_array_close(j);
        } else {
            printf("%s %s %s %s\n", label, a, b, hs_status_name(p[k].status));
        }
    }
    if (j)
        json_array_close(j);
}

static void print_distance(const hs_robot *r, const hs_world *w, double d, int link, int body,
                           const double pa[3], const double pb[3], json_emit *j)
{
    const char *ln = hs_robot_link_name(r, link), *bn = hs_body_name(hs_world_body(w, body));
    if (j) {
        json_key(j, "distance");
        json_object_open(j);
        json_key(j, "d");
        json_number(j, d);
        json_key(j, "link");
        json_string(j, ln);
        json_key(j, "body");
        json_string(j, bn);
        json_key(j, "on_link");
        json_numbers(j, pa, 3);
        json_key(j, "on_body");
        json_numbers(j, pb, 3);
        json_object_close(j);
        return;
    }
    printf("distance %.9g link %s body %s at", d, ln, bn);
    cli_print_vec(pa);
    printf(" to");
    cli_print_vec(pb);
    printf("\n");
}

/* The configuration's answer. */
static int report_config(hs_robot *r, const hs_world *w, const robot_cli *c, const double *q)
{
    hs_error err;
    int dof = hs_robot_dof(r);
    hs_robot_pair *self = NULL, *scene = NULL;
    int ns = 0, nw = 0;
    if (hs_robot_set_q(r, q, dof, &err) != HS_OK ||
        hs_robot_self_collision_all(r, &self, &ns, &err) != HS_OK ||
        (w && hs_robot_world_collision_all(r, w, &scene, &nw, &err) != HS_OK)) {
        hs_free(self);
        return cli_fail(&err);
    }
    double dist = 0, pa[3], pb[3];
    int dl = -1, db = -1;
    if (c->distance && hs_robot_world_distance(r, w, &dist, &dl, &db, pa, pb, &err) != HS_OK) {
        hs_free(self);
        hs_free(scene);
        return cli_fail(&err);
    }
    const char *status = ns && nw ? "self-and-scene-collision"
                         : ns     ? "self-collision"
                         : nw     ? "scene-collision"
                                  : "free";
    json_emit je, *j = c->json ? &je : NULL;
    if (j) {
        json_emit_init(j, stdout);
        json_object_open(j);
        json_key(j, "status");
        json_string(j, status);
        print_header(r, c, j);
        json_key(j, "q");
        json_numbers(j, q, dof);
    } else {
        printf("%s\n", status);
        print_header(r, c, NULL);
        print_q("q", q, dof);
    }
    print_pairs(r, w, self, ns, "self", j);
    print_pairs(r, w, scene, nw, "scene", j);
    if (c->distance)
        print_distance(r, w, dist, dl, db, pa, pb, j);
    if (j) {
        json_object_close(j);
        printf("\n");
    }
    int code = EXIT_ANSWER;
    if (c->draw.out) {
        double near[6] = {pa[0], pa[1], pa[2], pb[0], pb[1], pb[2]};
        if (draw_robot_picture(r, w, self, ns, scene, nw, c->distance ? near : NULL, &c->draw,
                               &err) != HS_OK)
            code = cli_fail(&err);
    }
    hs_free(self);
    hs_free(scene);
    return code;
}

/* A picture of the robot at q (the end of a motion): its pairs in
 * collision found again there. */
static int draw_at(hs_robot *r, const hs_world *w, const robot_cli *c, const double *q)
{
    hs_error err;
    hs_robot_pair *self = NULL, *scene = NULL;
    int ns = 0, nw = 0, code = EXIT_ANSWER;
    if (hs_robot_set_q(r, q, hs_robot_dof(r), &err) != HS_OK ||
        hs_robot_self_collision_all(r, &self, &ns, &err) != HS_OK ||
        (w && hs_robot_world_collision_all(r, w, &scene, &nw, &err) != HS_OK) ||
        draw_robot_picture(r, w, self, ns, scene, nw, NULL, &c->draw, &err) != HS_OK)
        code = cli_fail(&err);
    hs_free(self);
    hs_free(scene);
    return code;
}

static void motion_json(const hs_robot *r, const hs_world *w, const robot_cli *c,
                        const hs_robot_motion_result *res, const char *status, const double *qa,
                        const double *qb, const double *hit)
{
    int dof = hs_robot_dof(r);
    json_emit je, *j = &je;
    json_emit_init(j, stdout);
    json_object_open(j);
    json_key(j, "status");
    json_string(j, status);
    print_header(r, c, j);
    json_key(j, "mode");
    json_string(j, c->guaranteed ? "guaranteed" : "stepped");
    json_key(j, "fraction");
    json_number(j, res->fraction);
    json_key(j, "free_fraction");
    json_number(j, res->free_fraction);
    if (res->a >= 0) {
        json_key(j, "pair");
        json_array_open(j);
        json_string(j, hs_robot_link_name(r, res->a));
        json_string(j, other_name(r, w, res->b, res->body));
        json_string(j, res->b >= 0 ? "self" : "scene");
        json_string(j, hs_status_name(res->status));
        json_array_close(j);
    }
    json_key(j, "steps");
    json_integer(j, res->steps);
    json_key(j, "configurations");
    json_integer(j, res->configurations);
    json_key(j, "bounds");
    json_integer(j, res->bounds);
    json_key(j, "exact_tests");
    json_integer(j, res->exact_tests);
    json_key(j, "from");
    json_numbers(j, qa, dof);
    json_key(j, "to");
    json_numbers(j, qb, dof);
    json_key(j, "q_blocked");
    json_numbers(j, hit, dof);
    json_object_close(j);
    printf("\n");
}

/* The motion's answer. */
static int report_motion(hs_robot *r, const hs_world *w, const robot_cli *c, const double *qa,
                         const double *qb)
{
    hs_error err;
    int dof = hs_robot_dof(r);
    hs_robot_motion_options o;
    hs_robot_motion_options_init(&o);
    o.guaranteed = c->guaranteed;
    if (c->resolution > 0)
        o.resolution = c->resolution;
    if (c->tolerance > 0)
        o.tolerance = c->tolerance;
    hs_robot_motion_result res;
    double *hit = malloc(sizeof(double) * (size_t)(dof + 1));
    if (!hit)
        return EXIT_INTERNAL;
    if (hs_robot_check_motion(r, w, qa, qb, dof, &o, &res, hit, &err) != HS_OK) {
        free(hit);
        return cli_fail(&err);
    }
    const char *status = res.blocked == 1 ? "collision" : res.blocked == 2 ? "near" : "free";
    if (c->json) {
        motion_json(r, w, c, &res, status, qa, qb, hit);
        int code = c->draw.out ? draw_at(r, w, c, res.blocked ? hit : qb) : EXIT_ANSWER;
        free(hit);
        return code;
    }
    if (res.blocked)
        printf("%s at fraction %.9g\n", status, res.fraction);
    else
        printf("free\n");
    print_header(r, c, NULL);
    print_q("from", qa, dof);
    print_q("to", qb, dof);
    if (c->guaranteed)
        printf("motion guaranteed, tolerance %g: %ld configurations, %ld distance bounds, "
               "%ld exact tests\n", o.tolerance, res.configurations, res.bounds,
               res.exact_tests);
    else
        printf("motion stepped, resolution %g: %d steps, %ld configurations\n", o.resolution,
               res.steps, res.configurations);
    if (res.blocked) {
        printf("%s %s %s %s\n", res.b >= 0 ? "self" : "scene", hs_robot_link_name(r, res.a),
               other_name(r, w, res.b, res.body), hs_status_name(res.status));
        print_q("blocked q", hit, dof);
        printf("free before fraction %.9g\n", res.free_fraction);
    }
    int code = c->draw.out ? draw_at(r, w, c, res.blocked ? hit : qb) : EXIT_ANSWER;
    free(hit);
    return code;
}

static int export_scene(const hs_robot *r, const hs_world *w, const char *path)
{
    FILE *f = fopen(path, "w");
    hs_error err;
    if (!f) {
        fprintf(stderr, "halfspace: %s: cannot write the file\n", path);
        return EXIT_INPUT;
    }
    hs_code rc = hs_robot_export_vrml(r, w, f, &err);
    if (fclose(f) != 0 && rc == HS_OK) {
        fprintf(stderr, "halfspace: %s: write error\n", path);
        return EXIT_INPUT;
    }
    return rc == HS_OK ? -1 : cli_fail(&err);
}

int cmd_robot(int argc, char **argv)
{
    robot_cli c;
    int code = parse_robot_args(argc, argv, &c);
    if (code >= 0)
        return code;
    hs_error err;
    hs_robot_options o;
    hs_robot_options_init(&o);
    o.mesh_as_hull = !c.mesh;
    o.missing_mesh_warns = c.skip_missing;
    o.package_path = c.package_path;
    o.auto_skip = 0; /* made below, at --rest */
    hs_robot *r = hs_robot_load(c.file, &o, &err);
    if (!r)
        return cli_fail(&err);
    for (int k = 0; k < hs_robot_warning_count(r); k++)
        fprintf(stderr, "halfspace: warning: %s\n", hs_robot_warning(r, k));
    int dof = hs_robot_dof(r);
    double *q = malloc(sizeof(double) * (size_t)(dof + 1));
    double *qb = malloc(sizeof(double) * (size_t)(dof + 1));
    hs_world *w = NULL;
    code = q && qb ? -1 : EXIT_INTERNAL;
    if (code < 0 && c.rest) {
        const char *rest[1] = {c.rest};
        code = config(r, rest, 1, q, "--rest");
    }
    if (code < 0 && hs_robot_auto_skip(r, NULL, NULL, &err) != HS_OK)
        code = cli_fail(&err);
    if (code < 0 && c.scene && !(w = hs_world_load(c.scene, &err)))
        code = cli_fail(&err);
    if (code < 0 && c.motion[0]) {
        code = config(r, &c.motion[0], 1, q, "--motion (from)");
        if (code < 0)
            code = config(r, &c.motion[1], 1, qb, "--motion (to)");
        if (code < 0)
            code = report_motion(r, w, &c, q, qb);
        if (code == EXIT_ANSWER && c.export_path && hs_robot_set_q(r, q, dof, &err) == HS_OK)
            code = export_scene(r, w, c.export_path) < 0 ? EXIT_ANSWER : EXIT_INPUT;
    } else if (code < 0) {
        code = config(r, c.q, c.nq, q, "--q");
        if (code < 0)
            code = report_config(r, w, &c, q);
        if (code == EXIT_ANSWER && c.export_path) {
            int e = export_scene(r, w, c.export_path);
            code = e < 0 ? EXIT_ANSWER : e;
        }
    }
    free(q);
    free(qb);
    hs_world_free(w);
    hs_robot_free(r);
    return code;
}
