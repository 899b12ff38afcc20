/* robot_assimp.c -- mesh files in the formats of Assimp (Collada .dae,
 * .ply, glTF .gltf / .glb, and every other format it reads), for URDF
 * collision meshes.  Assimp keeps coordinates as 32-bit floats (ai_real
 * is float in Debian's build), so these meshes are exact only to float
 * precision; the transforms of the file's nodes are applied in doubles.
 * As ROS does, Collada's up axis is ignored (Assimp would rotate Z_UP
 * files to Y_UP); its unit is applied (Assimp scales the root node).
 * Polygons are triangulated by Assimp; identical vertices are joined. */
#include <assimp/cimport.h>
#include <assimp/config.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/error.h"
#include "polytope/grow.h"
#include "polytope/mem.h"
#include "src/robot/robot_mesh.h"

/* Deepest node hierarchy followed. */
#define ASSIMP_MAX_DEPTH 1000

typedef struct gather {
    robot_mesh *out;
    int pcap, tcap;
    int want_tris;
    int failed;
} gather;

static void matrix_of(const struct aiMatrix4x4 *a, double m[16])
{
    const float v[16] = {a->a1, a->a2, a->a3, a->a4, a->b1, a->b2, a->b3, a->b4,
                         a->c1, a->c2, a->c3, a->c4, a->d1, a->d2, a->d3, a->d4};
    for (int k = 0; k < 16; k++)
        m[k] = v[k];
}

static void mul4(double out[16], const double a[16], const double b[16])
{
    double t[16];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            t[4 * i + j] = a[4 * i] * b[j] + a[4 * i + 1] * b[4 + j] + a[4 * i + 2] * b[8 + j] +
                           a[4 * i + 3] * b[12 + j];
    memcpy(out, t, sizeof t);
}

/* The faces of mesh mh placed by T. */
static void add_mesh(gather *g, const struct aiMesh *mh, const double T[16])
{
    robot_mesh *o = g->out;
    int base = o->npts;
    double *p = grow_array(o->pts, &g->pcap, 3L * ((long)o->npts + mh->mNumVertices), sizeof *p);
    if (!p) {
        g->failed = 1;
        return;
    }
    o->pts = p;
    for (unsigned v = 0; v < mh->mNumVertices; v++) {
        double x[3] = {mh->mVertices[v].x, mh->mVertices[v].y, mh->mVertices[v].z};
        double *q = o->pts + 3 * (o->npts++);
        for (int i = 0; i < 3; i++)
            q[i] = T[4 * i] * x[0] + T[4 * i + 1] * x[1] + T[4 * i + 2] * x[2] + T[4 * i + 3];
    }
    if (!g->want_tris)
        return;
    for (unsigned f = 0; f < mh->mNumFaces; f++) {
        const struct aiFace *fc = &mh->mFaces[f];
        if (fc->mNumIndices != 3)
            continue; /* points and lines bound no solid */
        int *t = grow_array(o->tris, &g->tcap, 3L * ((long)o->ntris + 1), sizeof *t);
        if (!t) {
            g->failed = 1;
            return;
        }
        o->tris = t;
        for (int k = 0; k < 3; k++)
            t[3 * o->ntris + k] = base + (int)fc->mIndices[k];
        o->ntris++;
    }
}

typedef struct frame {
    const struct aiNode *node;
    double T[16];
} frame;

/* Every node's meshes under its accumulated transform (an explicit
 * stack: no recursion on the file's nesting). */
static hs_code walk(gather *g, const struct aiScene *sc, const char *path, hs_error *err)
{
    frame *stack = NULL;
    int cap = 0, n = 0;
    int *depth = NULL, dcap = 0;
    if (!(stack = grow_array(stack, &cap, 1, sizeof *stack)) ||
        !(depth = grow_array(depth, &dcap, 1, sizeof *depth))) {
        free(stack);
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    }
    stack[0].node = sc->mRootNode;
    matrix_of(&sc->mRootNode->mTransformation, stack[0].T);
    depth[0] = 0;
    n = 1;
    hs_code rc = HS_OK;
    while (n > 0 && rc == HS_OK && !g->failed) {
        frame f = stack[--n];
        int d = depth[n];
        for (unsigned k = 0; k < f.node->mNumMeshes && !g->failed; k++)
            if (f.node->mMeshes[k] < sc->mNumMeshes)
                add_mesh(g, sc->mMeshes[f.node->mMeshes[k]], f.T);
        if (f.node->mNumChildren > 0 && d >= ASSIMP_MAX_DEPTH) {
            rc = err_at(err, path, 0, "nodes nested more than %d deep", ASSIMP_MAX_DEPTH);
            break;
        }
        for (unsigned k = 0; k < f.node->mNumChildren; k++) {
            frame *s2 = grow_array(stack, &cap, (long)n + 1, sizeof *stack);
            int *d2 = s2 ? grow_array(depth, &dcap, (long)n + 1, sizeof *depth) : NULL;
            if (s2)
                stack = s2;
            if (d2)
                depth = d2;
            if (!s2 || !d2) {
                g->failed = 1;
                break;
            }
            double C[16];
            matrix_of(&f.node->mChildren[k]->mTransformation, C);
            stack[n].node = f.node->mChildren[k];
            mul4(stack[n].T, f.T, C);
            depth[n] = d + 1;
            n++;
        }
    }
    free(stack);
    free(depth);
    if (rc == HS_OK && g->failed)
        rc = err_set(err, HS_ERR_NOMEM, "out of memory");
    return rc;
}

hs_code robot_assimp_read(const char *path, int tris, robot_mesh *out, hs_error *err)
{
    memset(out, 0, sizeof *out);
    struct aiPropertyStore *props = aiCreatePropertyStore();
    if (!props)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    aiSetImportPropertyInteger(props, AI_CONFIG_IMPORT_COLLADA_IGNORE_UP_DIRECTION, 1);
    const struct aiScene *sc = aiImportFileExWithProperties(
        path, aiProcess_Triangulate | aiProcess_JoinIdenticalVertices, NULL, props);
    aiReleasePropertyStore(props);
    if (!sc || !sc->mRootNode) {
        const char *why = aiGetErrorString();
        if (sc)
            aiReleaseImport(sc);
        return err_at(err, path, 0, "Assimp cannot read it: %s",
                      why && *why ? why : "unknown format or damaged file");
    }
    gather g = {out, 0, 0, tris, 0};
    hs_code rc = walk(&g, sc, path, err);
    aiReleaseImport(sc);
    for (int i = 0; rc == HS_OK && i < 3 * out->npts; i++)
        if (!isfinite(out->pts[i]))
            rc = err_at(err, path, 0, "a point is not finite");
    if (rc == HS_OK && tris && out->ntris == 0)
        rc = err_at(err, path, 0, "no triangle");
    if (rc == HS_OK && !tris && out->npts == 0)
        rc = err_at(err, path, 0, "no point");
    if (rc != HS_OK) { /* freed here: robot_mesh_free is robot_meshes.c's, above */
        free(out->pts);
        free(out->tris);
        memset(out, 0, sizeof *out);
    }
    return rc;
}
