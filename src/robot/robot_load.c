/* robot_load.c -- hs_robot_load and hs_robot_load_string: the options
 * checked, the file read (at most max_file_bytes), the URDF read
 * (urdf_read.c), the robot built (robot_build.c) and, at its rest
 * configuration, the automatic skip list made. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/error.h"
#include "polytope/mem.h"
#include "src/robot/robot_build.h"

static hs_code check_options(const hs_robot_options *o, hs_error *err)
{
    if (o->cylinder_sides < 3 || o->cylinder_sides > 1000)
        return err_set(err, HS_ERR_ARG, "robot options: cylinder_sides %d is not in 3..1000",
                       o->cylinder_sides);
    if (o->sphere_level < 0 || o->sphere_level > 4)
        return err_set(err, HS_ERR_ARG, "robot options: sphere_level %d is not in 0..4",
                       o->sphere_level);
    if (o->max_file_bytes < 1 || o->max_file_bytes > 0x7fffffffL)
        return err_set(err, HS_ERR_ARG, "robot options: max_file_bytes %ld is not in "
                                        "1..2^31-1", o->max_file_bytes);
    if (o->max_links < 1 || o->max_links > (1 << 26))
        return err_set(err, HS_ERR_ARG, "robot options: max_links %d is not in 1..2^26",
                       o->max_links);
    return HS_OK;
}

static hs_robot *from_text(const char *xml, long len, const char *name, const char *dir,
                           const hs_robot_options *o, hs_error *err)
{
    urdf_model m;
    hs_robot *r = NULL;
    if (urdf_read(xml, len, name, dir, o->max_links, &m, err) == HS_OK)
        r = robot_build(&m, o, err);
    urdf_model_free(&m);
    if (r && o->auto_skip && hs_robot_auto_skip(r, NULL, NULL, err) != HS_OK) {
        hs_robot_free(r);
        r = NULL;
    }
    return r;
}

hs_robot *hs_robot_load_string(const char *xml, const char *name, const char *dir,
                               const hs_robot_options *o, hs_error *err)
{
    hs_robot_options def;
    if (!o) {
        hs_robot_options_init(&def);
        o = &def;
    }
    if (!xml) {
        err_set(err, HS_ERR_ARG, "hs_robot_load_string: NULL text");
        return NULL;
    }
    if (check_options(o, err) != HS_OK)
        return NULL;
    size_t len = strlen(xml);
    if (len > (size_t)o->max_file_bytes) {
        err_at(err, name ? name : "<urdf>", 0, "%zu bytes, more than the limit of %ld", len,
               o->max_file_bytes);
        return NULL;
    }
    return from_text(xml, (long)len, name ? name : "<urdf>", dir ? dir : ".", o, err);
}

/* The folder of path ("." when it has none); NULL when out of memory. */
static char *urdf_folder_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return mem_strdup(".");
    if (slash == path)
        return mem_strdup("/");
    char *d = malloc((size_t)(slash - path) + 1);
    if (d) {
        memcpy(d, path, (size_t)(slash - path));
        d[slash - path] = '\0';
    }
    return d;
}

/* The whole file, at most max bytes: a new buffer (free()) with *len. */
static char *read_file(const char *path, long max, long *len, hs_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        err_set(err, HS_ERR_IO, "%s: cannot open the file", path);
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    int bad = !buf;
    if (bad)
        err_set(err, HS_ERR_NOMEM, "out of memory");
    while (!bad) {
        if (n == cap) {
            if ((long)cap > max) {
                err_at(err, path, 0, "the file has more than the limit of %ld bytes", max);
                bad = 1;
                break;
            }
            size_t ncap = 2 * cap;
            char *b = realloc(buf, ncap);
            if (!b) {
                err_set(err, HS_ERR_NOMEM, "out of memory");
                bad = 1;
                break;
            }
            buf = b;
            cap = ncap;
        }
        size_t k = fread(buf + n, 1, cap - n, f);
        n += k;
        if (k == 0)
            break;
    }
    if (!bad && ferror(f)) {
        err_set(err, HS_ERR_IO, "%s: read error", path);
        bad = 1;
    }
    if (!bad && (long)n > max) {
        err_at(err, path, 0, "the file has %zu bytes, more than the limit of %ld", n, max);
        bad = 1;
    }
    fclose(f);
    if (bad) {
        free(buf);
        return NULL;
    }
    *len = (long)n;
    return buf;
}

hs_robot *hs_robot_load(const char *path, const hs_robot_options *o, hs_error *err)
{
    hs_robot_options def;
    if (!o) {
        hs_robot_options_init(&def);
        o = &def;
    }
    if (!path) {
        err_set(err, HS_ERR_ARG, "hs_robot_load: NULL path");
        return NULL;
    }
    if (check_options(o, err) != HS_OK)
        return NULL;
    long len = 0;
    char *xml = read_file(path, o->max_file_bytes, &len, err);
    if (!xml)
        return NULL;
    char *dir = urdf_folder_of(path);
    hs_robot *r = NULL;
    if (!dir)
        err_set(err, HS_ERR_NOMEM, "out of memory");
    else
        r = from_text(xml, len, path, dir, o, err);
    free(dir);
    free(xml);
    return r;
}
