/* fuzz_chain.c -- libFuzzer harness of the chain file reader
 * (hs_chain_load, src/chain/chain_load.c): the input written to
 * "in.chain" in a temporary folder (mesh lines can name only files
 * there, none of them meshes) and loaded; a chain that loads and has at
 * most 64 links is then tested for self-collision at its rest pose. */
#include <stdlib.h>

#include "fuzz/fuzz_util.h"
#include "halfspace.h"

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    hs_error err;
    hs_chain *c = hs_chain_load(fuzz_file("in.chain", d, n), &err);
    if (c && hs_chain_link_count(c) <= 64) {
        int i, j;
        hs_chain_self_collision(c, &i, &j, NULL, &err);
    }
    hs_chain_free(c);
    return 0;
}
