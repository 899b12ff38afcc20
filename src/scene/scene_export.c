/* scene_export.c -- hs_world_export_vrml: a world as a VRML 2.0 file that
 * hs_world_load reads back into the same bodies.
 *
 * Each body is a DEF'd Transform named after the body, holding its pose:
 * translation, and rotation (axis and angle) when the linear part of the
 * pose is a rotation; a pose whose linear part is not a rotation (scaled
 * or sheared) is written as its translation alone, with the linear part
 * applied to the points.  Each piece is a Shape whose geometry is an
 * IndexedFaceSet of the piece's boundary in the body frame: the polygons
 * of a convex piece with "convex TRUE" (read back as the hull of its
 * points), the triangles of a mesh piece with "convex FALSE".  Numbers are
 * written with 17 significant digits, so they read back exactly.  Pieces
 * that overlap or touch a piece of another body in the report are red
 * (diffuseColor 1 0 0), the others grey.  Body names must be VRML
 * identifiers (names made by the loaders are); a static body reads back
 * as static when its name starts with "static_". */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/error.h"
#include "polytope/fp.h"
#include "polytope/mem.h"
#include "src/scene/scene.h"

/* ----------------------------------------------------- collision marks */

typedef struct name_index {
    const char *name;
    int k;
} name_index;

static int by_name(const void *a, const void *b)
{
    return strcmp(((const name_index *)a)->name, ((const name_index *)b)->name);
}

static int body_index(const name_index *idx, int n, const char *name)
{
    name_index key = {name, 0};
    const name_index *hit = bsearch(&key, idx, (size_t)n, sizeof *idx, by_name);
    return hit ? hit->k : -1;
}

static void mark(unsigned char **marks, const hs_world *w, int k, int piece)
{
    if (k >= 0 && piece >= 0 && piece < hs_body_piece_count(hs_world_body(w, k)))
        marks[k][piece] = 1;
}

/* marks[k][j] = 1 when piece j of body k overlaps or touches in rep. */
static void mark_pairs(unsigned char **marks, const hs_world *w, const name_index *idx, int n,
                       const hs_report *rep)
{
    for (int p = 0; p < hs_report_pair_count(rep); p++) {
        const char *a, *b;
        hs_status st;
        if (hs_report_pair(rep, p, &a, &b, &st) != HS_OK)
            continue;
        int ka = body_index(idx, n, a), kb = body_index(idx, n, b);
        for (int j = 0; j < hs_report_piece_count(rep, p); j++) {
            int pa, pb;
            double wit[3], dist;
            if (hs_report_piece(rep, p, j, &pa, &pb, &st, wit, &dist) != HS_OK ||
                (st != HS_OVERLAP && st != HS_TOUCHING && st != HS_INTERSECT))
                continue;
            mark(marks, w, ka, pa);
            mark(marks, w, kb, pb);
        }
    }
}

static void free_marks(unsigned char **marks, int n)
{
    for (int k = 0; marks && k < n; k++)
        free(marks[k]);
    free(marks);
}

static unsigned char **collision_marks(const hs_world *w, const hs_report *rep)
{
    int n = hs_world_body_count(w);
    unsigned char **marks = mem_calloc((size_t)n, sizeof *marks);
    name_index *idx = mem_alloc((size_t)n, sizeof *idx);
    int ok = marks && idx;
    for (int k = 0; ok && k < n; k++) {
        hs_body *b = hs_world_body(w, k);
        idx[k].name = hs_body_name(b);
        idx[k].k = k;
        ok = (marks[k] = mem_calloc((size_t)hs_body_piece_count(b) + 1, 1)) != NULL;
    }
    if (ok && rep) {
        qsort(idx, (size_t)n, sizeof *idx, by_name);
        mark_pairs(marks, w, idx, n, rep);
    }
    free(idx);
    if (!ok) {
        free_marks(marks, n);
        return NULL;
    }
    return marks;
}

/* ------------------------------------------------------------- poses */

/* Is the linear part of m a rotation (orthonormal, determinant +1, up
 * to rounding)? */
static int is_rotation(const double m[16])
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            if (fabs(dot3(m + 4 * i, m + 4 * j) - (i == j)) > 1e-9)
                return 0;
    double det = m[0] * (m[5] * m[10] - m[6] * m[9]) - m[1] * (m[4] * m[10] - m[6] * m[8]) +
                 m[2] * (m[4] * m[9] - m[5] * m[8]);
    return det > 0;
}

/* Unit quaternion (w, x, y, z) of the rotation in m, from its largest
 * component for accuracy. */
static void rotation_quat(const double m[16], double q[4])
{
    double r00 = m[0], r11 = m[5], r22 = m[10], tr = r00 + r11 + r22;
    double d[4] = {1 + tr, 1 + r00 - r11 - r22, 1 - r00 + r11 - r22, 1 - r00 - r11 + r22};
    int big = 0;
    for (int k = 1; k < 4; k++)
        if (d[k] > d[big])
            big = k;
    double s = 2 * sqrt(d[big]);
    double wx = m[9] - m[6], wy = m[2] - m[8], wz = m[4] - m[1];
    double xy = m[1] + m[4], xz = m[2] + m[8], yz = m[6] + m[9];
    double rows[4][4] = {{s / 4, wx / s, wy / s, wz / s},
                         {wx / s, s / 4, xy / s, xz / s},
                         {wy / s, xy / s, s / 4, yz / s},
                         {wz / s, xz / s, yz / s, s / 4}};
    memcpy(q, rows[big], sizeof rows[big]);
}

static void write_pose(FILE *out, const double m[16], int rigid)
{
    fprintf(out, "  translation %.17g %.17g %.17g\n", m[3], m[7], m[11]);
    if (!rigid)
        return;
    double q[4];
    rotation_quat(m, q);
    double len = sqrt(dot3(q + 1, q + 1));
    if (len == 0)
        return;
    fprintf(out, "  rotation %.17g %.17g %.17g %.17g\n", q[1] / len, q[2] / len, q[3] / len,
            2 * atan2(len, q[0]));
}

/* ------------------------------------------------------------ pieces */

static void write_points(FILE *out, const double *v, int n, const double *linear)
{
    fputs("        coord Coordinate { point [\n", out);
    for (int i = 0; i < n; i++) {
        double p[3] = {v[3 * i], v[3 * i + 1], v[3 * i + 2]};
        if (linear)
            for (int r = 0; r < 3; r++)
                p[r] = linear[4 * r] * v[3 * i] + linear[4 * r + 1] * v[3 * i + 1] +
                       linear[4 * r + 2] * v[3 * i + 2];
        fprintf(out, "          %.17g %.17g %.17g,\n", p[0], p[1], p[2]);
    }
    fputs("        ] }\n", out);
}

static void write_faces(FILE *out, const int *start, const int *vert, int nfaces)
{
    fputs("        coordIndex [\n", out);
    for (int f = 0; f < nfaces; f++) {
        fputs("         ", out);
        for (int c = start[f]; c < start[f + 1]; c++)
            fprintf(out, " %d", vert[c]);
        fputs(" -1,\n", out);
    }
    fputs("        ]\n", out);
}

static hs_code write_piece(FILE *out, const hs_body *b, int j, int red, const double *linear,
                           hs_error *err)
{
    int convex, nverts, nfaces, *start = NULL, *vert = NULL;
    double *verts = NULL;
    hs_code rc = hs_body_piece_boundary(b, j, &convex, &verts, &nverts, &start, &vert, &nfaces,
                                        err);
    if (rc != HS_OK)
        return rc;
    fprintf(out, "    Shape {\n      appearance Appearance { material Material { "
                 "diffuseColor %s } }\n      geometry IndexedFaceSet {\n        convex %s\n",
            red ? "1 0 0" : "0.6 0.6 0.6", convex ? "TRUE" : "FALSE");
    write_points(out, verts, nverts, linear);
    write_faces(out, start, vert, nfaces);
    fputs("      }\n    }\n", out);
    hs_free(verts);
    hs_free(start);
    hs_free(vert);
    return HS_OK;
}

static hs_code write_body(FILE *out, const hs_body *b, const unsigned char *marks, hs_error *err)
{
    double m[16];
    hs_body_get_pose(b, m);
    int rigid = is_rotation(m);
    const char *name = hs_body_name(b);
    if (hs_body_is_static(b))
        fprintf(out, "# static body%s\n", scene_name_is_static(name)
                                              ? ""
                                              : " (reads back as moving: the name does not "
                                                "start with static_)");
    fprintf(out, "DEF %s Transform {\n", name);
    write_pose(out, m, rigid);
    fputs("  children [\n", out);
    hs_code rc = HS_OK;
    for (int j = 0; rc == HS_OK && j < hs_body_piece_count(b); j++)
        rc = write_piece(out, b, j, marks[j], rigid ? NULL : m, err);
    fputs("  ]\n}\n", out);
    return rc;
}

hs_code hs_world_export_vrml(const hs_world *w, const hs_report *rep, FILE *out, hs_error *err)
{
    if (!w || !out)
        return err_set(err, HS_ERR_ARG, "export needs a world and an output file");
    int n = hs_world_body_count(w);
    for (int k = 0; k < n; k++)
        if (!scene_is_vrml_id(hs_body_name(hs_world_body(w, k))))
            return err_set(err, HS_ERR_ARG, "body name '%s' is not a VRML identifier",
                           hs_body_name(hs_world_body(w, k)));
    unsigned char **marks = collision_marks(w, rep);
    if (!marks)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    fprintf(out, "#VRML V2.0 utf8\n# written by halfspace %s: %d bodies; red pieces overlap "
                 "or touch another body\n",
            hs_version(), n);
    hs_code rc = HS_OK;
    for (int k = 0; rc == HS_OK && k < n; k++)
        rc = write_body(out, hs_world_body(w, k), marks[k], err);
    free_marks(marks, n);
    if (rc == HS_OK && (fflush(out) != 0 || ferror(out)))
        rc = err_set(err, HS_ERR_IO, "cannot write the VRML file");
    return rc;
}
