/* fuzz_urdf.c -- libFuzzer harness of the URDF reader (hs_robot_load_string,
 * src/robot/urdf_read.c with libxml2): the input as URDF text whose mesh
 * paths resolve in a temporary folder that holds no mesh (a <mesh> is an
 * error, or with the second option byte a warning); file and link limits
 * kept small so that one input stays cheap.  A robot that loads is tested
 * for self-collision at its rest configuration, with the automatic skip
 * list when the first byte is odd. */
#include <stdlib.h>

#include "fuzz/fuzz_util.h"
#include "halfspace.h"

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    hs_robot_options o;
    hs_robot_options_init(&o);
    o.auto_skip = n > 0 && (d[0] & 1);
    o.missing_mesh_warns = n > 1 && (d[1] & 1);
    o.ros_package_path = 0;
    o.max_links = 64;
    o.max_file_bytes = 1 << 16;
    char *text = fuzz_text(d, n);
    hs_error err;
    hs_robot *r = hs_robot_load_string(text, "in.urdf", fuzz_dir(), &o, &err);
    if (r) {
        int a, b;
        hs_robot_self_collision(r, &a, &b, &err);
    }
    hs_robot_free(r);
    free(text);
    return 0;
}
