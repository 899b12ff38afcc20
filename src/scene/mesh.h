/* mesh.h -- internal interface of the mesh-file readers: the OFF, OBJ and
 * STL formats (mesh_off.c, mesh_obj.c, mesh_stl.c), each reading a file
 * into a polygon soup, and the token helpers their text forms share
 * (mesh_text.c).  mesh_file.c chooses the format and makes the body. */
#ifndef HS_MESH_H
#define HS_MESH_H

#include "halfspace.h"
#include "polytope/text_lines.h"
#include "src/scene/soup.h"

/* Read the file (at most max_bytes bytes) into s (initialized here; the
 * caller frees it, also on failure); *line is the line to name in errors
 * about the mesh as a whole (the first face; 0 for binary STL). */
hs_code mesh_read_off(const char *path, size_t max_bytes, scene_soup *s, int *line,
                      hs_error *err);
hs_code mesh_read_obj(const char *path, size_t max_bytes, scene_soup *s, int *line,
                      hs_error *err);
hs_code mesh_read_stl(const char *path, size_t max_bytes, scene_soup *s, int *line,
                      hs_error *err);

/* The same on text (OFF, OBJ) or bytes (STL) held in memory, named `path`
 * in messages; text must end with a NUL (at text[len] for STL).  STL may
 * change the bytes (NUL bytes of an ASCII file become 0x01). */
hs_code mesh_parse_off(const char *text, const char *path, scene_soup *s, int *line,
                       hs_error *err);
hs_code mesh_parse_obj(const char *text, const char *path, scene_soup *s, int *line,
                       hs_error *err);
hs_code mesh_parse_stl(unsigned char *buf, size_t len, const char *path, scene_soup *s,
                       int *line, hs_error *err);

/* A decimal number (digits, sign, point, exponent only), finite: 1, else 0. */
int mesh_parse_real(const char *t, double *v);

/* A decimal integer (digits and sign only) within the range of int32: 1,
 * else 0. */
int mesh_parse_int32(const char *t, long *v);

/* Next line of rd that holds tokens, what follows a '#' removed: 1, or 0
 * at the end of the text and on errors (*rc set: a control byte, located
 * at FILE:LINE, or out of memory). */
int mesh_next_line(text_reader *rd, text_line *ln, const char *file, hs_error *err,
                   hs_code *rc);

#endif
