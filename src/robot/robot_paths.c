/* robot_paths.c -- where the mesh file of a URDF <mesh filename> is:
 *   package://NAME/REST  FOLDER/NAME/REST for every FOLDER of the
 *                        package_path option, then of ROS_PACKAGE_PATH
 *                        (each folder, then its subfolders one level
 *                        down, where ROS workspaces keep packages), then
 *                        the URDF's folder and its two parents (the
 *                        layouts NAME/urdf/robot.urdf and pybullet's data
 *                        folders, which write package://meshes/...);
 *   file://PATH          PATH (relative to the URDF's folder unless
 *                        absolute);
 *   /ABSOLUTE            as it is;
 *   RELATIVE             relative to the URDF's folder.
 * The first candidate that is a readable regular file wins. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "polytope/mem.h"
#include "src/robot/robot_mesh.h"

typedef struct search {
    char *looked;
    size_t size, used;
    int nomem;
} search;

static int is_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode) && access(p, R_OK) == 0;
}

/* a + "/" + b + ("/" + c), new string; NULL when out of memory. */
static char *path_join(const char *a, const char *b, const char *c)
{
    size_t n = strlen(a) + strlen(b) + (c ? strlen(c) + 1 : 0) + 2;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "%s/%s%s%s", a, b, c ? "/" : "", c ? c : "");
    return s;
}

/* Try candidate p (taken over): returned when it is a file, else freed
 * and noted in the list of places looked at. */
static char *attempt(search *s, char *p)
{
    if (!p) {
        s->nomem = 1;
        return NULL;
    }
    if (is_file(p))
        return p;
    if (s->used + 1 < s->size) {
        int k = snprintf(s->looked + s->used, s->size - s->used, "%s%s", s->used ? ", " : "", p);
        if (k > 0)
            s->used += (size_t)k < s->size - s->used ? (size_t)k : s->size - s->used - 1;
    }
    free(p);
    return NULL;
}

/* FOLDER/NAME/REST for every FOLDER of a ':' list, and with subfolders
 * one level down when `deep`. */
static char *in_folders(search *s, const char *list, const char *name, const char *rest,
                        int deep)
{
    char *copy = mem_strdup(list);
    if (!copy) {
        s->nomem = 1;
        return NULL;
    }
    char *found = NULL, *save = NULL;
    for (char *f = strtok_r(copy, ":", &save); f && !found && !s->nomem;
         f = strtok_r(NULL, ":", &save)) {
        found = attempt(s, path_join(f, name, rest));
        if (found || !deep)
            continue;
        DIR *d = opendir(f);
        struct dirent *e;
        while (d && !found && !s->nomem && (e = readdir(d)) != NULL) {
            if (e->d_name[0] == '.')
                continue;
            char *sub = path_join(f, e->d_name, NULL);
            if (!sub) {
                s->nomem = 1;
                break;
            }
            struct stat st;
            if (stat(sub, &st) == 0 && S_ISDIR(st.st_mode)) {
                char *p = path_join(sub, name, rest);
                if (p && is_file(p))
                    found = p;
                else
                    free(p);
            }
            free(sub);
        }
        if (d)
            closedir(d);
    }
    free(copy);
    return found;
}

static char *package_file(search *s, const char *spec, const char *dir,
                          const hs_robot_options *o)
{
    const char *slash = strchr(spec, '/');
    if (!slash || slash == spec)
        return NULL;
    char *name = malloc((size_t)(slash - spec) + 1);
    if (!name) {
        s->nomem = 1;
        return NULL;
    }
    memcpy(name, spec, (size_t)(slash - spec));
    name[slash - spec] = '\0';
    const char *rest = slash + 1;
    char *found = NULL;
    if (o->package_path && *o->package_path)
        found = in_folders(s, o->package_path, name, rest, 0);
    const char *ros = o->ros_package_path ? getenv("ROS_PACKAGE_PATH") : NULL;
    if (!found && !s->nomem && ros && *ros)
        found = in_folders(s, ros, name, rest, 1);
    const char *up[3] = {"", "/..", "/../.."};
    for (int k = 0; k < 3 && !found && !s->nomem; k++) {
        size_t n = strlen(dir) + strlen(up[k]) + 1;
        char *base = malloc(n);
        if (!base) {
            s->nomem = 1;
            break;
        }
        snprintf(base, n, "%s%s", dir, up[k]);
        found = attempt(s, path_join(base, name, rest));
        free(base);
    }
    free(name);
    return found;
}

char *robot_find_mesh(const char *filename, const char *dir, const hs_robot_options *o,
                      char *looked, size_t size, int *nomem)
{
    search s = {looked, size, 0, 0};
    if (size)
        looked[0] = '\0';
    char *found = NULL;
    if (strncmp(filename, "package://", 10) == 0)
        found = package_file(&s, filename + 10, dir, o);
    else {
        const char *p = strncmp(filename, "file://", 7) == 0 ? filename + 7 : filename;
        if (*p == '/')
            found = attempt(&s, mem_strdup(p));
        else if (*p)
            found = attempt(&s, path_join(dir, p, NULL));
    }
    *nomem = s.nomem;
    return found;
}
