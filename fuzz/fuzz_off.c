/* fuzz_off.c -- libFuzzer harness of the OFF mesh reader
 * (src/scene/mesh_off.c, mesh_parse_off): any text; a mesh that parses
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
    hs_code rc = mesh_parse_off(text, "fuzz.off", &s, &line, &err);
    fuzz_mesh_piece(&s, rc, line, n);
    free(text);
    return 0;
}
