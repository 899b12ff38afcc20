/* urdf_values.c -- the values of URDF attributes: lists of decimal
 * numbers ("0 0 0.333", blanks around and between them), and the pose of
 * an <origin xyz rpy>. */
#include <ctype.h>
#include <math.h>
#include <string.h>

#include "src/robot/urdf.h"
#include "src/scene/mesh.h"

int urdf_parse_reals(const char *text, double *v, int n)
{
    if (!text)
        return 0;
    const char *p = text;
    for (int k = 0; k < n; k++) {
        while (*p && isspace((unsigned char)*p))
            p++;
        const char *s = p;
        while (*p && !isspace((unsigned char)*p))
            p++;
        char tok[64];
        size_t len = (size_t)(p - s);
        if (len == 0 || len >= sizeof tok)
            return 0;
        memcpy(tok, s, len);
        tok[len] = '\0';
        if (!mesh_parse_real(tok, &v[k]))
            return 0;
    }
    while (*p && isspace((unsigned char)*p))
        p++;
    return *p == '\0';
}

/* R = Rz(yaw) Ry(pitch) Rx(roll), as URDF and the chain files write it. */
void urdf_pose_xyz_rpy(const double xyz[3], const double rpy[3], double m[16])
{
    double z[3] = {0, 0, 0};
    const double *a = rpy ? rpy : z;
    double cr = cos(a[0]), sr = sin(a[0]), cp = cos(a[1]), sp = sin(a[1]);
    double cy = cos(a[2]), sy = sin(a[2]);
    double R[9] = {cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr,
                   sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr,
                   -sp,     cp * sr,                cp * cr};
    hs_pose_from_rt(m, R, xyz ? xyz : z);
}
