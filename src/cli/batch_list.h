/* batch_list.h -- the list file of `halfspace batch` (batch_list.c): pairs
 * of polyhedron files, each file loaded once. */
#ifndef HS_BATCH_LIST_H
#define HS_BATCH_LIST_H

#include <stddef.h>

#include "halfspace.h"

/* Loads the member at `path` (the name as written, resolved against the
 * list's folder): the polyhedron (kept by the loader), or NULL with err. */
typedef const hs_poly *(*batch_load_fn)(void *user, const char *path, hs_error *err);

struct poly_table;

typedef struct batch_list {
    const char *file;
    char *dir;               /* folder of the list file, with a trailing '/' */
    batch_load_fn load;
    void *load_user;
    struct poly_table *table; /* batch_list_read's loader: the files read */
    const hs_poly **A, **B;  /* the pairs */
    char **name_a, **name_b; /* as written in the list */
    size_t count, cap;
} batch_list;

/* Read the list file `file`, every member read from disk once.  Errors:
 * "LIST:LINE: what" (a member that cannot be read or parsed: its own
 * message after the list's FILE:LINE).  Free with batch_list_free, also
 * on failure. */
hs_code batch_list_read(batch_list *bl, const char *file, hs_error *err);

/* The same on the text of a list named `file`, members through load. */
hs_code batch_list_parse(batch_list *bl, const char *text, const char *file,
                         batch_load_fn load, void *user, hs_error *err);

void batch_list_free(batch_list *bl);

#endif
