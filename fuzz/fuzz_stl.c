/* fuzz_stl.c -- libFuzzer harness of the STL mesh reader, ASCII and
 * binary (src/scene/mesh_stl.c, mesh_parse_stl): any bytes; a mesh that
 * parses becomes a piece (fuzz_mesh.c). */
#include <stdlib.h>

#include "fuzz/fuzz_mesh.h"
#include "fuzz/fuzz_util.h"
#include "src/scene/mesh.h"

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    unsigned char *bytes = (unsigned char *)fuzz_text(d, n);
    scene_soup s;
    int line = 0;
    hs_error err;
    hs_code rc = mesh_parse_stl(bytes, n, "fuzz.stl", &s, &line, &err);
    fuzz_mesh_piece(&s, rc, line, n);
    free(bytes);
    return 0;
}
