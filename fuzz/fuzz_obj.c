/* fuzz_obj.c -- libFuzzer harness of the OBJ mesh reader
 * (src/scene/mesh_obj.c, mesh_parse_obj): any text; a mesh that parses
 * becomes a piece (fuzz_mesh.c). */
#include <stdlib.h>

#include "fuzz/fuzz_mesh.h"
#include "fuzz/fuzz_util.h"
#include "src/scene/mesh.h"

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    char *text = fuzz_text(d, n);
    scene_soup s;
    int line = 0;
    hs_error err;
    hs_code rc = mesh_parse_obj(text, "fuzz.obj", &s, &line, &err);
    fuzz_mesh_piece(&s, rc, line, n);
    free(text);
    return 0;
}
