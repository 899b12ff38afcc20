/* fuzz_vrml.c -- libFuzzer harness of the VRML reader (src/scene/vrml_*.c
 * through hs_world_add_file_opts): the input written to "in.wrl" in a
 * temporary folder (an Inline can name only files there: itself, a
 * cycle) and loaded with small limits, so that each input stays fast; a
 * world that loads is queried and written back as VRML. */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz/fuzz_util.h"
#include "halfspace.h"

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    hs_scene_options o;
    hs_scene_options_init(&o);
    o.cylinder_sides = 6;
    o.sphere_level = 0;
    o.max_pieces = 32;
    o.max_points = 2000;
    o.max_depth = 50;
    o.max_file_bytes = 1 << 20;
    hs_error err;
    hs_world *w = hs_world_new();
    if (!w)
        abort();
    if (hs_world_add_file_opts(w, fuzz_file("in.wrl", d, n), &o, &err) == HS_OK &&
        hs_world_body_count(w) <= 16) {
        hs_query_options q;
        hs_query_options_init(&q);
        hs_report *rep = hs_report_new();
        hs_world_query(w, &q, rep, &err);
        FILE *null = fopen("/dev/null", "w");
        if (!null)
            abort();
        hs_world_export_vrml(w, rep, null, &err);
        fclose(null);
        hs_report_free(rep);
    }
    hs_world_free(w);
    return 0;
}
