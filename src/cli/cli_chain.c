/* cli_chain.c -- `halfspace chain`: load a chain file, skip the pairs in
 * contact at its rest pose, set the angles, report self-collisions,
 * collisions with a scene and (optionally) the distance to it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/grow.h"
#include "src/cli/cli_commands.h"
#include "src/cli/cli_common.h"
#include "src/cli/cli_scene_opts.h"
#include "src/cli/json_emit.h"
#include "src/draw/draw.h"

static const char chain_usage[] =
    "usage: halfspace chain [options] FILE.chain\n"
    "  Loads the chain at its rest pose, adds the pairs of links in contact there to the\n"
    "  skip list (adjacent links are always skipped), moves to --angles, and prints:\n"
    "    free | self-collision | scene-collision | self-and-scene-collision   (first line)\n"
    "    chain FILE: N links, D movable joints\n"
    "    angles Q1 ... QD\n"
    "    skipped A B          (one line per pair skipped for touching at rest)\n"
    "    self A B             (one line per pair of links in collision)\n"
    "    scene LINK BODY      (one line per link in collision with a scene body)\n"
    "    distance D link LINK body BODY at X Y Z to X Y Z      (with --distance)\n"
    "options:\n"
    "  --angles=\"Q1 ... QD\"  one value per movable joint, in file order (radians for\n"
    "                        revolute joints, length for prismatic ones), within limits\n"
    "  --scene=SCENE         a scene (.wrl, .off, .obj, .stl) to test the chain against\n"
    "  --distance            the smallest distance from the chain to the scene, with a\n"
    "                        point on each (needs --scene)\n"
    "  --json                one JSON object\n"
    "  --draw=OUT.png|OUT.svg|OUT.pdf  a picture: links in collision red, with the scene\n"
    "  --view=AZ,EL          the picture's camera in degrees (default: frames the scene)\n"
    "  --help                this text\n"
    "scene options (with --scene):\n"
    CLI_SCENE_HELP
    "exit: 0 answer, 1 usage error, 2 bad input (FILE:LINE: what is wrong, or angles\n"
    "that do not fit the chain)\n";

typedef struct chain_cli {
    const char *file, *angles, *scene;
    int distance, json;
    draw_opts draw; /* --draw, --view (pictures, src/draw/) */
    cli_scene scene_opt;
} chain_cli;

/* One option: -1 to go on, or an exit code. */
static int parse_chain_option(void *ctx, cli_args *a, const char *name, const char *value)
{
    chain_cli *c = ctx;
    if (strcmp(name, "json") == 0 || strcmp(name, "distance") == 0) {
        *(name[0] == 'j' ? &c->json : &c->distance) = 1;
        return -1;
    }
    if (strcmp(name, "angles") == 0 || strcmp(name, "scene") == 0) {
        const char *v = cli_args_value(a, value);
        if (!v)
            return cli_usage_error(chain_usage, "--%s needs a value", name);
        *(name[0] == 'a' ? &c->angles : &c->scene) = v;
        return -1;
    }
    int code;
    if (cli_draw_option(&c->draw, a, name, value, chain_usage, &code) ||
        cli_scene_option(&c->scene_opt, a, name, value, chain_usage, &code))
        return code;
    return cli_usage_error(chain_usage, "unknown option '--%s'", name);
}

/* -1 to go on, or an exit code. */
static int parse_chain_args(int argc, char **argv, chain_cli *c)
{
    memset(c, 0, sizeof *c);
    cli_scene_init(&c->scene_opt);
    int code = cli_scan_args(argc, argv, chain_usage, "chain file", &c->file,
                             parse_chain_option, c);
    if (code >= 0)
        return code;
    if (!c->file)
        return cli_usage_error(chain_usage, "%sa chain file is needed", "");
    if (c->distance && !c->scene)
        return cli_usage_error(chain_usage, "%s--distance needs --scene", "");
    return cli_scene_check(&c->scene_opt, chain_usage);
}

/* The --angles text as numbers ("nan" and "inf" parse: the chain rejects
 * them).  -1 with *bad set to the offending token on a non-number. */
static int parse_angles(const char *text, double **q, char *bad, size_t badsize)
{
    int n = 0, cap = 0;
    double *v = grow_array(NULL, &cap, 8, sizeof *v);
    const char *s = text;
    while (v) {
        while (*s == ' ' || *s == '\t' || *s == ',')
            s++;
        if (!*s)
            break;
        char *end;
        double x = strtod(s, &end);
        if (end == s || (*end && *end != ' ' && *end != '\t' && *end != ',')) {
            size_t k = strcspn(s, " \t,");
            snprintf(bad, badsize, "%.*s", (int)(k < 60 ? k : 60), s);
            free(v);
            return -1;
        }
        double *w = grow_array(v, &cap, n + 1L, sizeof *v);
        if (!w)
            break;
        v = w;
        v[n++] = x;
        s = end;
    }
    *q = v;
    return v ? n : -1;
}

static const char *link_label(const hs_chain *c, int i, char *buf, size_t size)
{
    const char *n = hs_chain_link_name(c, i);
    if (n)
        return n;
    snprintf(buf, size, "link%d", i);
    return buf;
}

/* What the command found. */
typedef struct chain_answer {
    hs_chain *c;
    hs_world *w;
    int *skipped, nskipped;
    int *self, nself;
    int *scene, nscene;
    int have_distance;
    double dist, pa[3], pb[3];
    int dlink;
    const hs_body *dbody;
} chain_answer;

static void answer_free(chain_answer *a)
{
    hs_free(a->skipped);
    hs_free(a->self);
    hs_free(a->scene);
    hs_world_free(a->w);
    hs_chain_free(a->c);
}

static const char *status_of(const chain_answer *a)
{
    if (a->nself && a->nscene)
        return "self-and-scene-collision";
    return a->nself ? "self-collision" : a->nscene ? "scene-collision" : "free";
}

static void print_pairs_text(const chain_answer *a, const char *tag, const int *p, int n)
{
    char b1[32], b2[32];
    for (int k = 0; k < n; k++)
        printf("%s %s %s\n", tag, link_label(a->c, p[2 * k], b1, sizeof b1),
               link_label(a->c, p[2 * k + 1], b2, sizeof b2));
}

static void chain_print_text(const chain_answer *a, const char *file)
{
    char b1[32];
    printf("%s\n", status_of(a));
    printf("chain %s: %d links, %d movable joints\n", file, hs_chain_link_count(a->c),
           hs_chain_dof(a->c));
    printf("angles");
    for (int k = 0; k < hs_chain_dof(a->c); k++) {
        double q;
        hs_chain_joint_limits(a->c, k, NULL, NULL, &q, NULL);
        printf(" %.9g", q);
    }
    printf("\n");
    print_pairs_text(a, "skipped", a->skipped, a->nskipped);
    print_pairs_text(a, "self", a->self, a->nself);
    for (int k = 0; k < a->nscene; k++)
        printf("scene %s %s\n", link_label(a->c, a->scene[2 * k], b1, sizeof b1),
               hs_body_name(hs_world_body(a->w, a->scene[2 * k + 1])));
    if (a->have_distance)
        printf("distance %.9g link %s body %s at %.9g %.9g %.9g to %.9g %.9g %.9g\n", a->dist,
               link_label(a->c, a->dlink, b1, sizeof b1), hs_body_name(a->dbody), a->pa[0],
               a->pa[1], a->pa[2], a->pb[0], a->pb[1], a->pb[2]);
}

/* "key":[[LINK,LINK],...] */
static void chain_json_link_pairs(json_emit *j, const chain_answer *a, const char *key,
                                  const int *p, int n)
{
    char b1[32], b2[32];
    json_key(j, key);
    json_array_open(j);
    for (int k = 0; k < n; k++) {
        json_array_open(j);
        json_string(j, link_label(a->c, p[2 * k], b1, sizeof b1));
        json_string(j, link_label(a->c, p[2 * k + 1], b2, sizeof b2));
        json_array_close(j);
    }
    json_array_close(j);
}

static void chain_json_distance(json_emit *j, const chain_answer *a)
{
    char b1[32];
    json_key(j, "distance");
    json_object_open(j);
    json_key(j, "value");
    json_number(j, a->dist);
    json_key(j, "link");
    json_string(j, link_label(a->c, a->dlink, b1, sizeof b1));
    json_key(j, "body");
    json_string(j, hs_body_name(a->dbody));
    json_key(j, "on_link");
    json_numbers(j, a->pa, 3);
    json_key(j, "on_body");
    json_numbers(j, a->pb, 3);
    json_object_close(j);
}

static void chain_print_json(const chain_answer *a, const char *file)
{
    char b1[32];
    json_emit j;
    json_emit_init(&j, stdout);
    json_object_open(&j);
    json_key(&j, "status");
    json_string(&j, status_of(a));
    json_key(&j, "file");
    json_string(&j, file);
    json_key(&j, "links");
    json_integer(&j, hs_chain_link_count(a->c));
    json_key(&j, "dof");
    json_integer(&j, hs_chain_dof(a->c));
    json_key(&j, "angles");
    json_array_open(&j);
    for (int k = 0; k < hs_chain_dof(a->c); k++) {
        double q;
        hs_chain_joint_limits(a->c, k, NULL, NULL, &q, NULL);
        json_number(&j, q);
    }
    json_array_close(&j);
    chain_json_link_pairs(&j, a, "skipped", a->skipped, a->nskipped);
    chain_json_link_pairs(&j, a, "self", a->self, a->nself);
    json_key(&j, "scene");
    json_array_open(&j);
    for (int k = 0; k < a->nscene; k++) {
        json_array_open(&j);
        json_string(&j, link_label(a->c, a->scene[2 * k], b1, sizeof b1));
        json_string(&j, hs_body_name(hs_world_body(a->w, a->scene[2 * k + 1])));
        json_array_close(&j);
    }
    json_array_close(&j);
    if (a->have_distance)
        chain_json_distance(&j, a);
    json_object_close(&j);
    putchar('\n');
}

static int set_angles(chain_answer *a, const char *text, hs_error *err)
{
    double *q = NULL;
    char bad[64];
    int n = parse_angles(text, &q, bad, sizeof bad);
    if (n < 0)
        return cli_usage_error(chain_usage, "--angles: '%s' is not a number", bad);
    hs_code rc = hs_chain_set_angles(a->c, q, n, err);
    free(q);
    if (rc == HS_OK)
        return -1;
    if (rc != HS_ERR_ARG)
        return cli_fail(err);
    /* angles that do not fit the chain are bad input, not a usage error */
    const char *msg = err->msg, *fn = "hs_chain_set_angles: ";
    if (strncmp(msg, fn, strlen(fn)) == 0)
        msg += strlen(fn);
    fprintf(stderr, "halfspace: --angles: %s\n", msg);
    return EXIT_INPUT;
}

/* A query's error: the chain and scene come from files, so an argument
 * the library refuses (poses whose placed pieces overflow) is bad input
 * too (exit 2), like every file error. */
static int query_fail(const hs_error *err)
{
    int code = cli_fail(err);
    return err->code == HS_ERR_ARG ? EXIT_INPUT : code;
}

static int run_chain(const chain_cli *o, chain_answer *a)
{
    hs_error err;
    if (!(a->c = hs_chain_load(o->file, &err)))
        return cli_fail(&err);
    if (hs_chain_auto_skip(a->c, &a->skipped, &a->nskipped, &err) != HS_OK)
        return query_fail(&err);
    int rc = o->angles ? set_angles(a, o->angles, &err) : -1;
    if (rc >= 0)
        return rc;
    if (hs_chain_self_collision_all(a->c, &a->self, &a->nself, NULL, &err) != HS_OK)
        return query_fail(&err);
    if (!o->scene)
        return -1;
    if (!(a->w = hs_world_new()))
        return EXIT_INTERNAL;
    if (hs_world_add_file_opts(a->w, o->scene, &o->scene_opt.opt, &err) != HS_OK)
        return cli_fail(&err);
    if (hs_chain_world_collision_all(a->c, a->w, &a->scene, &a->nscene, &err) != HS_OK)
        return query_fail(&err);
    if (o->distance) {
        if (hs_chain_world_distance(a->c, a->w, &a->dist, &a->dlink, &a->dbody, a->pa, a->pb,
                                    &err) != HS_OK)
            return query_fail(&err);
        a->have_distance = 1;
    }
    return -1;
}

int cmd_chain(int argc, char **argv)
{
    chain_cli o;
    int rc = parse_chain_args(argc, argv, &o);
    if (rc >= 0)
        return rc;
    chain_answer a;
    memset(&a, 0, sizeof a);
    rc = run_chain(&o, &a);
    if (rc < 0) {
        if (o.json)
            chain_print_json(&a, o.file);
        else
            chain_print_text(&a, o.file);
        rc = EXIT_ANSWER;
    }
    if (rc == EXIT_ANSWER && o.draw.out) {
        hs_error err;
        double near[6];
        memcpy(near, a.pa, sizeof a.pa);
        memcpy(near + 3, a.pb, sizeof a.pb);
        if (draw_chain_picture(a.c, a.w, a.self, a.nself, a.scene, a.nscene,
                               a.have_distance ? near : NULL, &o.draw, &err) != HS_OK)
            rc = cli_fail(&err);
    }
    answer_free(&a);
    return rc;
}
