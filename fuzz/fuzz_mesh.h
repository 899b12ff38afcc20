/* fuzz_mesh.h -- the part of the OFF, OBJ and STL harnesses that makes a
 * parsed polygon soup a piece (fuzz_mesh.c): as a mesh, as a convex piece
 * if the faces bound one, or as the hull of the points, by the input's
 * length modulo 3; soups of more than 2,000 points are only parsed. */
#ifndef HS_FUZZ_MESH_H
#define HS_FUZZ_MESH_H

#include <stddef.h>

#include "halfspace.h"
#include "src/scene/soup.h"

/* Add s (when parsed: rc HS_OK) to a body of a new world, then free s. */
void fuzz_mesh_piece(scene_soup *s, hs_code rc, int line, size_t input_size);

#endif
