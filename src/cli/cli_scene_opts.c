/* cli_scene_opts.c -- the scene options shared by the commands that load
 * scenes (see cli_scene_opts.h): parsed into an hs_scene_options. */
#include "src/cli/cli_scene_opts.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

void cli_scene_init(cli_scene *s)
{
    memset(s, 0, sizeof *s);
    hs_scene_options_init(&s->opt);
    s->opt.allow_paths = s->allow;
}

/* A whole number in lo..hi: 1, else 0. */
static int whole_number(const char *v, long long lo, long long hi, long long *out)
{
    char *end;
    errno = 0;
    long long x = v ? strtoll(v, &end, 10) : 0;
    if (!v || end == v || *end || errno || x < lo || x > hi)
        return 0;
    *out = x;
    return 1;
}

int cli_scene_option(cli_scene *s, cli_args *a, const char *name, const char *value,
                     const char *usage, int *code)
{
    static const struct {
        const char *name;
        long long lo, hi;
    } numeric[] = {{"sides", 3, 100000},          {"sphere-level", 0, 6},
                   {"max-bytes", 1, 1LL << 50},   {"max-depth", 1, 10000},
                   {"max-pieces", 1, LONG_MAX},   {"max-points", 1, LONG_MAX},
                   {"max-sides", 3, 100000}};
    *code = -1;
    if (strcmp(name, "mesh-as-hull") == 0) {
        s->opt.mesh_as_hull = 1;
        return 1;
    }
    if (strcmp(name, "allow-path") == 0) {
        const char *v = cli_args_value(a, value);
        if (!v || !*v)
            *code = cli_usage_error(usage, "--allow-path needs a folder%s", "");
        else if (s->nallow == CLI_MAX_ALLOW)
            *code = cli_usage_error(usage, "at most 16 --allow-path folders%s", "");
        else
            s->allow[s->nallow++] = v;
        return 1;
    }
    for (size_t k = 0; k < sizeof numeric / sizeof numeric[0]; k++) {
        if (strcmp(name, numeric[k].name) != 0)
            continue;
        const char *v = cli_args_value(a, value);
        long long x;
        if (!whole_number(v, numeric[k].lo, numeric[k].hi, &x)) {
            fprintf(stderr, "halfspace: --%s needs a whole number in %lld..%lld, not '%s'\n%s",
                    name, numeric[k].lo, numeric[k].hi, v ? v : "", usage);
            *code = EXIT_USAGE;
            return 1;
        }
        switch (k) {
        case 0: s->opt.cylinder_sides = (int)x; break;
        case 1: s->opt.sphere_level = (int)x; break;
        case 2: s->opt.max_file_bytes = (size_t)x; break;
        case 3: s->opt.max_depth = (int)x; break;
        case 4: s->opt.max_pieces = (long)x; break;
        case 5: s->opt.max_points = (long)x; break;
        default: s->opt.max_sides = (int)x; break;
        }
        return 1;
    }
    return 0;
}

int cli_scene_check(const cli_scene *s, const char *usage)
{
    if (s->opt.cylinder_sides > s->opt.max_sides) {
        fprintf(stderr, "halfspace: --sides=%d exceeds the limit %d (raise --max-sides)\n%s",
                s->opt.cylinder_sides, s->opt.max_sides, usage);
        return EXIT_USAGE;
    }
    return -1;
}

int cli_draw_option(draw_opts *d, cli_args *a, const char *name, const char *value,
                    const char *usage, int *code)
{
    if (strcmp(name, "draw") != 0 && strcmp(name, "view") != 0)
        return 0;
    const char *v = cli_args_value(a, value);
    *code = -1;
    if (!v)
        *code = cli_usage_error(usage, "--%s needs a value", name);
    else if (name[0] == 'd')
        d->out = v;
    else if (draw_parse_view(v, d) != 0)
        *code = cli_usage_error(usage, "--view needs AZ,EL in degrees, not '%s'", v);
    return 1;
}
