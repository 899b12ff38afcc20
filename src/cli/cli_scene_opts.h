/* cli_scene_opts.h -- the options of the commands that load scenes
 * (world, path, chain --scene): how geometry becomes pieces (--sides,
 * --sphere-level, --mesh-as-hull), the limits of hs_scene_options
 * (--max-bytes, --max-depth, --max-pieces, --max-points, --max-sides) and
 * the folders a VRML Inline may read besides the scene's own
 * (--allow-path); and the picture options of the commands that draw a
 * scene (world, path, chain, robot: --draw, --view). */
#ifndef HS_CLI_SCENE_OPTS_H
#define HS_CLI_SCENE_OPTS_H

#include "halfspace.h"
#include "src/cli/cli_common.h"
#include "src/draw/draw.h"

/* The lines of --help describing these options. */
#define CLI_SCENE_HELP                                                                     \
    "  --sides=N                   side facets of VRML Cylinder and Cone (default 24)\n"  \
    "  --sphere-level=L            VRML Sphere: icosahedron subdivided L times (default 2)\n" \
    "  --mesh-as-hull              every mesh piece (OFF, OBJ, STL, non-convex face sets)\n" \
    "                              becomes the convex hull of its points\n"               \
    "  --allow-path=DIR            VRML Inline may also read files below DIR (repeatable;\n" \
    "                              default: only below the scene file's folder)\n"        \
    "  --max-bytes=N               largest file read, in bytes (default 268435456)\n"    \
    "  --max-depth=N               VRML nodes nested within one file (default 200)\n"    \
    "  --max-pieces=N              pieces a scene may make (default 10000)\n"            \
    "  --max-points=N              points of those pieces (default 100000; a Box 8,\n"    \
    "                              a Cylinder 2 * sides, a Sphere 10 * 4^level + 2,\n"    \
    "                              a face set or mesh its points and face corners)\n"    \
    "  --max-sides=N               largest --sides accepted (default 1000)\n"

/* Folders given with --allow-path, at most. */
#define CLI_MAX_ALLOW 16

typedef struct cli_scene {
    hs_scene_options opt;
    const char *allow[CLI_MAX_ALLOW + 1]; /* NULL-terminated; opt.allow_paths */
    int nallow;
} cli_scene;

/* Defaults (hs_scene_options_init). */
void cli_scene_init(cli_scene *s);

/* When `name` is one of the options above: 1, with *code = -1 (go on) or
 * the exit code of a usage error (printed with `usage`); else 0. */
int cli_scene_option(cli_scene *s, cli_args *a, const char *name, const char *value,
                     const char *usage, int *code);

/* After the command line: --sides within --max-sides.  -1 (go on) or an
 * exit code. */
int cli_scene_check(const cli_scene *s, const char *usage);

/* When `name` is draw (--draw OUT: d->out) or view (--view AZ,EL): 1, with
 * *code = -1 (go on) or the exit code of a usage error (printed with
 * `usage`); else 0. */
int cli_draw_option(draw_opts *d, cli_args *a, const char *name, const char *value,
                    const char *usage, int *code);

#endif
