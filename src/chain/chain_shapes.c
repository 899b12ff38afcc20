/* chain_shapes.c -- pieces of chain files that become convex hulls of
 * points: capsules (two scaled icospheres), boxes (8 corners), hulls and
 * meshes (their points), each placed by a rigid pose. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "src/chain/chain_shapes.h"
#include "polytope/error.h"
#include "polytope/fp.h"
#include "polytope/mem.h"
#include "src/scene/scene.h"
#include "src/shape/pose.h"

static void scale_to_unit(double v[3])
{
    double l = sqrt(dot3(v, v));
    for (int j = 0; j < 3; j++)
        v[j] /= l;
}

/* The icosahedron: 12 corners (0, +-1, +-phi) and cyclic shifts, its 20
 * faces the triples of corners pairwise 2 apart. */
static int icosahedron(double v[12][3], int f[20][3])
{
    const double phi = (1 + sqrt(5.0)) / 2;
    int n = 0;
    for (int s = 0; s < 4; s++) {
        double a = s & 1 ? -1 : 1, b = s & 2 ? -phi : phi;
        double p[3][3] = {{0, a, b}, {a, b, 0}, {b, 0, a}};
        for (int k = 0; k < 3; k++)
            memcpy(v[n++], p[k], sizeof p[k]);
    }
    int nf = 0;
    for (int i = 0; i < 12; i++)
        for (int j = i + 1; j < 12; j++)
            for (int k = j + 1; k < 12; k++) {
                double dij = 0, djk = 0, dik = 0;
                for (int d = 0; d < 3; d++) {
                    dij += (v[i][d] - v[j][d]) * (v[i][d] - v[j][d]);
                    djk += (v[j][d] - v[k][d]) * (v[j][d] - v[k][d]);
                    dik += (v[i][d] - v[k][d]) * (v[i][d] - v[k][d]);
                }
                if (fabs(dij - 4) < 1e-9 && fabs(djk - 4) < 1e-9 && fabs(dik - 4) < 1e-9 &&
                    nf < 20) {
                    f[nf][0] = i, f[nf][1] = j, f[nf][2] = k;
                    nf++;
                }
            }
    for (int i = 0; i < 12; i++)
        scale_to_unit(v[i]);
    return nf;
}

/* Corner index of the unit midpoint of p and q, added if new. */
static int unit_midpoint(double pts[42][3], int *n, const double p[3], const double q[3])
{
    double m[3] = {p[0] + q[0], p[1] + q[1], p[2] + q[2]};
    scale_to_unit(m);
    for (int k = 0; k < *n; k++)
        if (pts[k][0] == m[0] && pts[k][1] == m[1] && pts[k][2] == m[2])
            return k;
    memcpy(pts[*n], m, sizeof m);
    return (*n)++;
}

/* Level 1: each face split in four at its unit edge midpoints. */
static void icosphere1(double pts[42][3], int faces[80][3])
{
    double v[12][3];
    int f[20][3], n = 12, nf = 0;
    icosahedron(v, f);
    memcpy(pts, v, sizeof v);
    for (int k = 0; k < 20; k++) {
        int a = f[k][0], b = f[k][1], c = f[k][2];
        int ab = unit_midpoint(pts, &n, pts[a], pts[b]);
        int bc = unit_midpoint(pts, &n, pts[b], pts[c]);
        int ca = unit_midpoint(pts, &n, pts[c], pts[a]);
        int sub[4][3] = {{a, ab, ca}, {b, bc, ab}, {c, ca, bc}, {ab, bc, ca}};
        memcpy(faces[nf], sub, sizeof sub);
        nf += 4;
    }
}

void chain_icosphere_points(double out[42 * 3])
{
    double pts[42][3];
    int faces[80][3];
    icosphere1(pts, faces);
    memcpy(out, pts, sizeof pts);
}

/* The smallest distance from the centre to a face plane is the inradius
 * (the polyhedron is star-shaped about the centre, so it contains that
 * ball); its inverse, rounded up by 2^-30 (far more than the rounding of
 * these few operations and of the scaled corners), scales the unit
 * corners so the ball of radius 1 lies inside. */
double chain_icosphere_scale(void)
{
    double pts[42][3];
    int faces[80][3];
    icosphere1(pts, faces);
    double rho = INFINITY;
    for (int k = 0; k < 80; k++) {
        const double *a = pts[faces[k][0]], *b = pts[faces[k][1]], *c = pts[faces[k][2]];
        double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
        double w[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
        double nrm[3] = {u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2],
                         u[0] * w[1] - u[1] * w[0]};
        double d = fabs(dot3(nrm, a)) / sqrt(dot3(nrm, nrm));
        rho = d < rho ? d : rho;
    }
    return (1 / rho) * (1 + 0x1p-30);
}

hs_code chain_add_points(hs_chain *c, int link, const double *pts, int n, const double *m,
                         hs_error *err)
{
    if (!m)
        return hs_chain_add_hull(c, link, pts, n, err);
    double *q = mem_alloc((size_t)n, 3 * sizeof(double));
    if (!q)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    for (int k = 0; k < n; k++)
        pose_apply(m, pts + 3 * k, q + 3 * k);
    hs_code rc = hs_chain_add_hull(c, link, q, n, err);
    free(q);
    return rc;
}

hs_code chain_add_capsule(hs_chain *c, int link, const double a[3], const double b[3], double r,
                          hs_error *err)
{
    double unit[42 * 3], pts[84 * 3], s = chain_icosphere_scale() * r;
    chain_icosphere_points(unit);
    for (int k = 0; k < 42; k++)
        for (int j = 0; j < 3; j++) {
            pts[3 * k + j] = a[j] + s * unit[3 * k + j];
            pts[3 * (42 + k) + j] = b[j] + s * unit[3 * k + j];
        }
    return hs_chain_add_hull(c, link, pts, 84, err);
}

hs_code chain_add_box(hs_chain *c, int link, const double size[3], const double *m,
                      hs_error *err)
{
    double pts[8 * 3];
    for (int k = 0; k < 8; k++)
        for (int j = 0; j < 3; j++)
            pts[3 * k + j] = (k >> j & 1 ? 0.5 : -0.5) * size[j];
    return chain_add_points(c, link, pts, 8, m, err);
}

static int mesh_extension(const char *path)
{
    const char *dot = strrchr(path, '.');
    if (!dot)
        return 0;
    const char *ok[] = {".stl", ".STL", ".obj", ".OBJ", ".off", ".OFF"};
    for (int k = 0; k < 6; k++)
        if (strcmp(dot, ok[k]) == 0)
            return 1;
    return 0;
}

/* The file is read by the scene readers into the points whose hull is the
 * convex piece the file makes with mesh_as_hull (the corners of its faces
 * of nonzero area); placed by m, their hull becomes the chain's piece.
 * Errors about the hull are located in the mesh file, as a scene's are. */
hs_code chain_add_mesh_hull(hs_chain *c, int link, const char *path, const double *m,
                            hs_error *err)
{
    if (!mesh_extension(path))
        return err_set(err, HS_ERR_INPUT, "'%s' is not a mesh file (.stl, .obj or .off)", path);
    double *pts = NULL;
    int n = 0, line = 0;
    hs_code rc = scene_mesh_points(path, &pts, &n, &line, err);
    if (rc == HS_OK && n < 4)
        rc = err_at(err, path, line, "a hull needs at least 4 points");
    else if (rc == HS_OK && (rc = chain_add_points(c, link, pts, n, m, err)) != HS_OK)
        rc = scene_locate(err, rc, path, line);
    free(pts);
    return rc;
}
