/* solids.c -- the points whose convex hulls are the primitive solids
 * (solids.h): boxes, cylinders and cones (rings of points), icospheres. */
#include "src/shape/solids.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/mem.h"

void solid_box_points(const double size[3], double pts[24])
{
    for (int c = 0; c < 8; c++)
        for (int j = 0; j < 3; j++)
            pts[3 * c + j] = ((c >> j) & 1 ? 0.5 : -0.5) * size[j];
}

/* Ring of `sides` points on the circle of radius r in the plane y = h. */
static void ring(double *pts, int sides, double r, double h)
{
    for (int k = 0; k < sides; k++) {
        double th = 2 * M_PI * k / sides;
        pts[3 * k] = r * cos(th);
        pts[3 * k + 1] = h;
        pts[3 * k + 2] = -r * sin(th);
    }
}

double *solid_cylinder_points(double radius, double height, int sides)
{
    double *pts = mem_alloc((size_t)sides * 6, sizeof(double));
    if (!pts)
        return NULL;
    ring(pts, sides, radius, -height / 2);
    ring(pts + 3 * sides, sides, radius, height / 2);
    return pts;
}

double *solid_cone_points(double radius, double height, int sides)
{
    double *pts = mem_alloc((size_t)sides * 3 + 3, sizeof(double));
    if (!pts)
        return NULL;
    ring(pts, sides, radius, -height / 2);
    pts[3 * sides] = 0;
    pts[3 * sides + 1] = height / 2;
    pts[3 * sides + 2] = 0;
    return pts;
}

/* Midpoint of the edge (i, j), pushed onto the unit sphere; points are
 * kept in a small open-addressing table so each edge splits once. */
typedef struct sphere_build {
    double *pts;
    int npts, cap;
    long long *key;
    int *val;
    int kcap;
} sphere_build;

static int edge_mid(sphere_build *sb, int i, int j)
{
    long long k = (long long)(i < j ? i : j) * 1000003LL + (i < j ? j : i) + 1;
    size_t h = (size_t)((unsigned long long)k * 0x9e3779b97f4a7c15ULL) % (size_t)sb->kcap;
    while (sb->key[h] && sb->key[h] != k)
        h = (h + 1) % (size_t)sb->kcap;
    if (sb->key[h])
        return sb->val[h];
    double *p = sb->pts + 3 * sb->npts, len = 0;
    for (int d = 0; d < 3; d++) {
        p[d] = (sb->pts[3 * i + d] + sb->pts[3 * j + d]) / 2;
        len += p[d] * p[d];
    }
    for (int d = 0; d < 3; d++)
        p[d] /= sqrt(len);
    sb->key[h] = k;
    sb->val[h] = sb->npts;
    return sb->npts++;
}

static const int icosa_faces[20][3] = {
    {0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11}, {1, 5, 9}, {5, 11, 4},
    {11, 10, 2}, {10, 7, 6}, {7, 1, 8},  {3, 9, 4},  {3, 4, 2},   {3, 2, 6}, {3, 6, 8},
    {3, 8, 9},  {4, 9, 5},  {2, 4, 11},  {6, 2, 10}, {8, 6, 7},   {9, 8, 1}};

static void icosa_vertices(double *pts)
{
    double t = (1 + sqrt(5.0)) / 2, s = sqrt(1 + t * t);
    const double raw[12][3] = {{-1, t, 0}, {1, t, 0}, {-1, -t, 0}, {1, -t, 0},
                               {0, -1, t}, {0, 1, t}, {0, -1, -t}, {0, 1, -t},
                               {t, 0, -1}, {t, 0, 1}, {-t, 0, -1}, {-t, 0, 1}};
    for (int i = 0; i < 12; i++)
        for (int d = 0; d < 3; d++)
            pts[3 * i + d] = raw[i][d] / s;
}

/* Points of the icosphere of `level` subdivisions on the unit sphere. */
int solid_icosphere_points(int level, double **out_pts, int *out_n)
{
    int nf = 20 << (2 * level), np = 10 * (1 << (2 * level)) + 2;
    sphere_build sb = {0};
    sb.cap = np;
    sb.kcap = 4 * np + 7;
    sb.pts = malloc(sizeof(double) * 3 * (size_t)np);
    sb.key = calloc((size_t)sb.kcap, sizeof(long long));
    sb.val = malloc(sizeof(int) * (size_t)sb.kcap);
    int *faces = malloc(sizeof(int) * 3 * (size_t)nf), *next = malloc(sizeof(int) * 3 * (size_t)nf);
    if (!sb.pts || !sb.key || !sb.val || !faces || !next) {
        free(sb.pts), free(sb.key), free(sb.val), free(faces), free(next);
        return -1;
    }
    icosa_vertices(sb.pts);
    sb.npts = 12;
    memcpy(faces, icosa_faces, sizeof icosa_faces);
    for (int lv = 0, count = 20; lv < level; lv++, count *= 4) {
        for (int f = 0; f < count; f++) {
            int a = faces[3 * f], b = faces[3 * f + 1], c = faces[3 * f + 2];
            int ab = edge_mid(&sb, a, b), bc = edge_mid(&sb, b, c), ca = edge_mid(&sb, c, a);
            int tri[12] = {a, ab, ca, b, bc, ab, c, ca, bc, ab, bc, ca};
            memcpy(next + 12 * f, tri, sizeof tri);
        }
        int *t = faces;
        faces = next;
        next = t;
    }
    free(sb.key), free(sb.val), free(faces), free(next);
    *out_pts = sb.pts;
    *out_n = sb.npts;
    return 0;
}
