/* fuzz_mesh.c -- a parsed soup of the mesh harnesses made a piece (see
 * fuzz_mesh.h). */
#include "fuzz/fuzz_mesh.h"

#include <stdlib.h>

void fuzz_mesh_piece(scene_soup *s, hs_code rc, int line, size_t input_size)
{
    if (rc == HS_OK && s->npts <= 2000) {
        static const soup_mode modes[3] = {SOUP_MESH, SOUP_CONVEX_TEST, SOUP_HULL};
        hs_error err;
        hs_world *w = hs_world_new();
        hs_body *b = w ? hs_world_add_body(w, "mesh", 0, &err) : NULL;
        if (!b)
            abort();
        soup_add_piece(b, s, NULL, modes[input_size % 3], "fuzz", line, &err);
        hs_world_free(w);
    }
    soup_free(s);
}
