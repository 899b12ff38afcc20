/* bp_grid.c -- seed 000's space subdivision (section 4.2) as a hashed grid.
 *
 * Space is cut into cells, boxes with sides parallel to the axes; the side
 * along each axis is BP_GRID_SCALE (2) times the average extent of the
 * items' boxes along that axis (the seed takes the average length of its
 * triangles per axis).  With twice the average, a typical item touches one
 * or two cells per axis; on 10k moving boxes this was the fastest of 1,
 * 1.5, 2 and 3 times the average.  An axis along which every item is flat
 * borrows the largest side of the others; when every item is a point the
 * side is 1.  The average is taken when the grid is built; the running
 * average is kept up to date, and when it drifts from the built one by more
 * than a factor BP_GRID_DRIFT (2) along some axis, the grid is rebuilt
 * (every item placed anew) at the next insertion or update.
 *
 * Cells are found by hashing their integer coordinates into an open
 * addressing table, so space need not be bounded beforehand; only cells
 * holding items exist.  An item is listed in every cell its box touches,
 * with the coordinates of its lowest cell.  A pair of items is tested only
 * in the cell holding the lower corner of the intersection of their boxes:
 * along each axis that cell is the larger of the two lowest cells, so the
 * test is made once although the items may share several cells.
 *
 * An item whose box would touch more than BP_GRID_MAX_CELLS cells (a big
 * static floor), or is unbounded or beyond BP_FAR, is not put in cells:
 * it goes to the "big" list, tested against every item.  Such items are
 * left out of the average extent, so one huge item does not coarsen the
 * grid for everybody.  The big list also takes any item that could not be
 * put in cells for lack of memory: its room is reserved at insertion, so
 * placing never fails. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "src/broadphase/bp_impl.h"

#define BP_GRID_SCALE 2.0
#define BP_GRID_DRIFT 2.0
#define BP_GRID_MAX_CELLS 256
#define BP_GRID_MAX_COORD 1073741824.0 /* cell coordinates are clamped to +-2^30 */

/* Where an item is; PENDING: present, waiting to be placed by a rebuild. */
enum { ITEM_ABSENT = 0, ITEM_IN_CELLS, ITEM_BIG, ITEM_PENDING };

/* An item as a cell lists it: its id and its lowest cell. */
typedef struct gentry {
    int id;
    int c0[3];
} gentry;

typedef struct gcell {
    int key[3];
    gentry *e;
    int n, cap;
    int active_at; /* index in the active list; next free cell when free */
} gcell;

typedef struct gitem {
    bp_box box;
    int c0[3], c1[3]; /* cells touched, when in cells */
    int state;
    int big_at; /* index in the big list */
} gitem;

struct bp_grid {
    gitem *item; /* by id */
    int cap_item, count;
    gcell *cell;
    int cap_cell, free_cell;
    int *active; /* cells holding items */
    int nactive, cap_active;
    int *table; /* hash table of cell indices, -1 when empty */
    int table_size, table_used;
    int *big;
    int nbig, cap_big;
    double inv[3]; /* 1 / side of the cells per axis; 0 before the first build */
    double built[3]; /* average extents the grid was built for */
    double sum[3];   /* sum of the extents of the items in cells */
    int in_cells;
    int stale; /* the average drifted: rebuild at the next change */
};

/* ---------------------------------------------------------------- cells of boxes */

static int cell_coord(const bp_grid *g, double x, int k)
{
    double c = floor(x * g->inv[k]);
    if (c < -BP_GRID_MAX_COORD)
        c = -BP_GRID_MAX_COORD;
    if (c > BP_GRID_MAX_COORD)
        c = BP_GRID_MAX_COORD;
    return (int)c;
}

/* Cells touched by box b: c0..c1 per axis.  Returns their number (as a
 * double: it may be astronomical). */
static double cell_range(const bp_grid *g, const bp_box *b, int c0[3], int c1[3])
{
    double cells = 1;
    for (int k = 0; k < 3; k++) {
        c0[k] = cell_coord(g, b->lo[k], k);
        c1[k] = cell_coord(g, b->hi[k], k);
        cells *= (double)c1[k] - c0[k] + 1;
    }
    return cells;
}

static int same_range(const int a0[3], const int a1[3], const int b0[3], const int b1[3])
{
    return a0[0] == b0[0] && a0[1] == b0[1] && a0[2] == b0[2] && a1[0] == b1[0] &&
           a1[1] == b1[1] && a1[2] == b1[2];
}

/* ---------------------------------------------------------------- hash table */

static uint32_t hash_key(const int key[3])
{
    uint64_t h = (uint32_t)key[0] * 0x9E3779B97F4A7C15ULL;
    h ^= (uint32_t)key[1] * 0xC2B2AE3D27D4EB4FULL;
    h ^= (uint32_t)key[2] * 0x165667B19E3779F9ULL;
    h ^= h >> 31;
    h *= 0xD6E8FEB86659FD93ULL;
    return (uint32_t)(h >> 32);
}

static int key_equal(const int a[3], const int b[3])
{
    return a[0] == b[0] && a[1] == b[1] && a[2] == b[2];
}

/* Index of the cell with this key, or -1. */
static int find_cell(const bp_grid *g, const int key[3])
{
    if (g->table_size == 0)
        return -1;
    unsigned mask = (unsigned)g->table_size - 1;
    for (unsigned s = hash_key(key) & mask;; s = (s + 1) & mask) {
        int c = g->table[s];
        if (c < 0 || key_equal(g->cell[c].key, key))
            return c;
    }
}

static void table_put(bp_grid *g, int c)
{
    unsigned mask = (unsigned)g->table_size - 1, s = hash_key(g->cell[c].key) & mask;
    while (g->table[s] >= 0)
        s = (s + 1) & mask;
    g->table[s] = c;
}

/* Keeps the table at most half full; 0 or -1 when out of memory. */
static int table_make_room(bp_grid *g)
{
    if (2 * (g->table_used + 1) <= g->table_size)
        return 0;
    int size = g->table_size ? 2 * g->table_size : 64;
    int *fresh = malloc(sizeof(int) * (size_t)size);
    if (!fresh)
        return -1;
    for (int s = 0; s < size; s++)
        fresh[s] = -1;
    free(g->table);
    g->table = fresh;
    g->table_size = size;
    for (int a = 0; a < g->nactive; a++)
        table_put(g, g->active[a]);
    return 0;
}

/* Removes cell c from the table, moving back the entries after it that
 * would otherwise no longer be found. */
static void table_delete(bp_grid *g, int c)
{
    unsigned mask = (unsigned)g->table_size - 1, hole = hash_key(g->cell[c].key) & mask;
    while (g->table[hole] != c)
        hole = (hole + 1) & mask;
    for (unsigned s = (hole + 1) & mask; g->table[s] >= 0; s = (s + 1) & mask) {
        unsigned home = hash_key(g->cell[g->table[s]].key) & mask;
        /* the entry at s may fill the hole unless its home lies in (hole, s] */
        int home_between = hole < s ? (home > hole && home <= s) : (home > hole || home <= s);
        if (!home_between) {
            g->table[hole] = g->table[s];
            hole = s;
        }
    }
    g->table[hole] = -1;
    g->table_used--;
}

/* ---------------------------------------------------------------- cells */

/* The cell with this key, made when missing; -1 when out of memory. */
static int open_cell(bp_grid *g, const int key[3])
{
    int c = find_cell(g, key);
    if (c >= 0)
        return c;
    if (table_make_room(g) != 0 ||
        bp_grow((void **)&g->active, &g->cap_active, g->nactive + 1, sizeof(int)) != 0)
        return -1;
    if (g->free_cell < 0) {
        int old = g->cap_cell;
        if (bp_grow((void **)&g->cell, &g->cap_cell, old + 1, sizeof(gcell)) != 0)
            return -1;
        for (int i = g->cap_cell - 1; i >= old; i--) {
            g->cell[i].active_at = g->free_cell;
            g->free_cell = i;
        }
    }
    c = g->free_cell;
    gcell *cell = &g->cell[c];
    g->free_cell = cell->active_at;
    cell->key[0] = key[0];
    cell->key[1] = key[1];
    cell->key[2] = key[2];
    cell->n = 0;
    cell->active_at = g->nactive;
    g->active[g->nactive++] = c;
    table_put(g, c);
    g->table_used++;
    return c;
}

/* Cell c holds nothing any more: out of the table and the active list. */
static void close_cell(bp_grid *g, int c)
{
    table_delete(g, c);
    int at = g->cell[c].active_at, moved = g->active[--g->nactive];
    g->active[at] = moved;
    g->cell[moved].active_at = at;
    g->cell[c].active_at = g->free_cell;
    g->free_cell = c;
}

static int cell_add(bp_grid *g, const int key[3], int id, const int c0[3])
{
    int c = open_cell(g, key);
    if (c < 0)
        return -1;
    gcell *cell = &g->cell[c];
    if (bp_grow((void **)&cell->e, &cell->cap, cell->n + 1, sizeof(gentry)) != 0) {
        if (cell->n == 0)
            close_cell(g, c);
        return -1;
    }
    gentry *e = &cell->e[cell->n++];
    e->id = id;
    for (int k = 0; k < 3; k++)
        e->c0[k] = c0[k];
    return 0;
}

static void cell_drop(bp_grid *g, const int key[3], int id)
{
    int c = find_cell(g, key);
    if (c < 0)
        return;
    gcell *cell = &g->cell[c];
    for (int i = 0; i < cell->n; i++)
        if (cell->e[i].id == id) {
            cell->e[i] = cell->e[--cell->n];
            break;
        }
    if (cell->n == 0)
        close_cell(g, c);
}

/* ---------------------------------------------------------------- placing items */

/* Takes item id out of the cells c0..c1, up to (not including) stop when
 * stop is given. */
static void drop_from_cells(bp_grid *g, int id, const int c0[3], const int c1[3],
                            const int *stop)
{
    int key[3];
    for (key[0] = c0[0]; key[0] <= c1[0]; key[0]++)
        for (key[1] = c0[1]; key[1] <= c1[1]; key[1]++)
            for (key[2] = c0[2]; key[2] <= c1[2]; key[2]++) {
                if (stop && key_equal(key, stop))
                    return;
                cell_drop(g, key, id);
            }
}

/* Lists item id in its cells; on lack of memory undoes it and returns -1. */
static int add_to_cells(bp_grid *g, int id)
{
    const gitem *it = &g->item[id];
    int key[3];
    for (key[0] = it->c0[0]; key[0] <= it->c1[0]; key[0]++)
        for (key[1] = it->c0[1]; key[1] <= it->c1[1]; key[1]++)
            for (key[2] = it->c0[2]; key[2] <= it->c1[2]; key[2]++)
                if (cell_add(g, key, id, it->c0) != 0) {
                    drop_from_cells(g, id, it->c0, it->c1, key);
                    return -1;
                }
    return 0;
}

static void add_extent(bp_grid *g, const bp_box *b, double sign)
{
    for (int k = 0; k < 3; k++)
        g->sum[k] += sign * (b->hi[k] - b->lo[k]);
}

/* Places item id (box set, state absent): in cells, or in the big list
 * (whose room is reserved), so it cannot fail. */
static void grid_place(bp_grid *g, int id)
{
    gitem *it = &g->item[id];
    double cells = cell_range(g, &it->box, it->c0, it->c1);
    if (!bp_box_is_far(&it->box) && cells <= BP_GRID_MAX_CELLS && add_to_cells(g, id) == 0) {
        it->state = ITEM_IN_CELLS;
        add_extent(g, &it->box, 1);
        g->in_cells++;
        return;
    }
    it->state = ITEM_BIG;
    it->big_at = g->nbig;
    g->big[g->nbig++] = id;
}

/* Takes item id out of the cells or the big list (state becomes absent). */
static void grid_unplace(bp_grid *g, int id)
{
    gitem *it = &g->item[id];
    if (it->state == ITEM_IN_CELLS) {
        drop_from_cells(g, id, it->c0, it->c1, NULL);
        add_extent(g, &it->box, -1);
        if (--g->in_cells == 0)
            g->sum[0] = g->sum[1] = g->sum[2] = 0;
    } else if (it->state == ITEM_BIG) {
        int moved = g->big[--g->nbig];
        g->big[it->big_at] = moved;
        g->item[moved].big_at = it->big_at;
    }
    it->state = ITEM_ABSENT;
}

/* ---------------------------------------------------------------- cell size */

/* Average extents per axis of the present items that are bounded and, when
 * the grid has a size already, would go in cells.  0 when there is none. */
static int average_extents(const bp_grid *g, int sized, double avg[3])
{
    double sum[3] = {0, 0, 0};
    int n = 0, c0[3], c1[3];
    for (int id = 0; id < g->cap_item; id++) {
        const gitem *it = &g->item[id];
        if (it->state == ITEM_ABSENT || bp_box_is_far(&it->box))
            continue;
        if (sized && cell_range(g, &it->box, c0, c1) > BP_GRID_MAX_CELLS)
            continue;
        for (int k = 0; k < 3; k++)
            sum[k] += it->box.hi[k] - it->box.lo[k];
        n++;
    }
    for (int k = 0; k < 3; k++)
        avg[k] = n ? sum[k] / n : 0;
    return n;
}

static void set_cell_size(bp_grid *g, const double avg[3])
{
    double side[3], widest = 0;
    for (int k = 0; k < 3; k++) {
        side[k] = BP_GRID_SCALE * avg[k];
        if (side[k] > widest)
            widest = side[k];
    }
    if (!(widest > 0))
        widest = 1;
    for (int k = 0; k < 3; k++)
        g->inv[k] = 1 / (side[k] > 0 ? side[k] : widest);
}

/* Sizes the cells from the average extents (a first guess from every
 * bounded item, then again without those too big for that guess) and
 * places every item anew. */
static void grid_rebuild(bp_grid *g)
{
    for (int id = 0; id < g->cap_item; id++)
        if (g->item[id].state != ITEM_ABSENT) {
            grid_unplace(g, id);
            g->item[id].state = ITEM_PENDING;
        }
    double avg[3];
    average_extents(g, 0, avg);
    set_cell_size(g, avg);
    if (average_extents(g, 1, avg) > 0)
        set_cell_size(g, avg);
    for (int id = 0; id < g->cap_item; id++)
        if (g->item[id].state == ITEM_PENDING) {
            g->item[id].state = ITEM_ABSENT;
            grid_place(g, id);
        }
    for (int k = 0; k < 3; k++)
        g->built[k] = g->in_cells ? g->sum[k] / g->in_cells : 0;
    g->stale = 0;
}

/* Notes whether the average extent left [built / DRIFT, built * DRIFT]. */
static void watch_drift(bp_grid *g)
{
    if (g->in_cells == 0)
        return;
    double n = g->in_cells; /* (avg = sum / n, compared without dividing) */
    for (int k = 0; k < 3; k++)
        if (g->sum[k] > BP_GRID_DRIFT * g->built[k] * n ||
            g->sum[k] * BP_GRID_DRIFT < g->built[k] * n)
            g->stale = 1;
}

/* ---------------------------------------------------------------- api */

bp_grid *bp_grid_new(void)
{
    bp_grid *g = calloc(1, sizeof(bp_grid));
    if (g)
        g->free_cell = -1;
    return g;
}

void bp_grid_free(bp_grid *g)
{
    if (!g)
        return;
    for (int c = 0; c < g->cap_cell; c++)
        free(g->cell[c].e);
    free(g->cell);
    free(g->item);
    free(g->active);
    free(g->table);
    free(g->big);
    free(g);
}

int bp_grid_insert(bp_grid *g, int id, const bp_box *b)
{
    if (id < 0 || (id < g->cap_item && g->item[id].state != ITEM_ABSENT))
        return -1;
    if (bp_grow((void **)&g->item, &g->cap_item, id + 1, sizeof(gitem)) != 0 ||
        bp_grow((void **)&g->big, &g->cap_big, g->count + 1, sizeof(int)) != 0)
        return -1;
    g->item[id].box = *b;
    g->count++;
    if (g->stale || g->inv[0] == 0) {
        g->item[id].state = ITEM_PENDING;
        grid_rebuild(g);
        return 0;
    }
    grid_place(g, id);
    watch_drift(g);
    return 0;
}

void bp_grid_remove(bp_grid *g, int id)
{
    if (id < 0 || id >= g->cap_item || g->item[id].state == ITEM_ABSENT)
        return;
    grid_unplace(g, id);
    g->count--;
    watch_drift(g);
}

int bp_grid_update(bp_grid *g, int id, const bp_box *b)
{
    if (id < 0 || id >= g->cap_item || g->item[id].state == ITEM_ABSENT)
        return -1;
    gitem *it = &g->item[id];
    int c0[3], c1[3];
    if (it->state == ITEM_IN_CELLS && !g->stale) {
        cell_range(g, b, c0, c1);
        if (same_range(c0, c1, it->c0, it->c1)) {
            add_extent(g, &it->box, -1);
            it->box = *b;
            add_extent(g, b, 1);
            watch_drift(g);
            return 0;
        }
    }
    grid_unplace(g, id);
    it->box = *b;
    if (g->stale) {
        it->state = ITEM_PENDING;
        grid_rebuild(g);
        return 0;
    }
    grid_place(g, id);
    watch_drift(g);
    return 0;
}

int bp_grid_count(const bp_grid *g)
{
    return g->count;
}

int bp_grid_big_count(const bp_grid *g)
{
    return g->nbig;
}

/* ---------------------------------------------------------------- reading */

/* Pairs within one cell, each tested only in the cell of the lower corner
 * of the two boxes' intersection. */
static long grid_cell_pairs(const bp_grid *g, const gcell *cell, bp_pair_fn fn, void *user)
{
    long tests = 0;
    const int *key = cell->key;
    for (int i = 0; i < cell->n; i++) {
        const gentry *a = &cell->e[i];
        const bp_box *abox = &g->item[a->id].box;
        for (int j = i + 1; j < cell->n; j++) {
            const gentry *b = &cell->e[j];
            if ((a->c0[0] > b->c0[0] ? a->c0[0] : b->c0[0]) != key[0] ||
                (a->c0[1] > b->c0[1] ? a->c0[1] : b->c0[1]) != key[1] ||
                (a->c0[2] > b->c0[2] ? a->c0[2] : b->c0[2]) != key[2])
                continue;
            tests++;
            if (bp_box_overlap(abox, &g->item[b->id].box))
                bp_report(fn, user, a->id, b->id);
        }
    }
    return tests;
}

/* Pairs of the k-th big item with every item in cells and every later big item. */
static long big_pairs(const bp_grid *g, int k, bp_pair_fn fn, void *user)
{
    long tests = 0;
    int id = g->big[k];
    const gitem *a = &g->item[id];
    for (int other = 0; other < g->cap_item; other++) {
        const gitem *b = &g->item[other];
        if (b->state == ITEM_ABSENT || (b->state == ITEM_BIG && b->big_at <= k))
            continue;
        tests++;
        if (bp_box_overlap(&a->box, &b->box))
            bp_report(fn, user, id, other);
    }
    return tests;
}

long bp_grid_pairs(const bp_grid *g, bp_pair_fn fn, void *user)
{
    long tests = 0;
    for (int a = 0; a < g->nactive; a++)
        tests += grid_cell_pairs(g, &g->cell[g->active[a]], fn, user);
    for (int k = 0; k < g->nbig; k++)
        tests += big_pairs(g, k, fn, user);
    return tests;
}

/* Items of one cell overlapping q, each reported from one cell only: the
 * one holding the lower corner of its intersection with q. */
static long query_cell(const bp_grid *g, const gcell *cell, const bp_box *q, const int q0[3],
                       bp_item_fn fn, void *user)
{
    long tests = 0;
    for (int i = 0; i < cell->n; i++) {
        const gentry *e = &cell->e[i];
        if ((e->c0[0] > q0[0] ? e->c0[0] : q0[0]) != cell->key[0] ||
            (e->c0[1] > q0[1] ? e->c0[1] : q0[1]) != cell->key[1] ||
            (e->c0[2] > q0[2] ? e->c0[2] : q0[2]) != cell->key[2])
            continue;
        tests++;
        if (bp_box_overlap(&g->item[e->id].box, q))
            fn(user, e->id);
    }
    return tests;
}

static long query_all(const bp_grid *g, const bp_box *q, bp_item_fn fn, void *user)
{
    long tests = 0;
    for (int id = 0; id < g->cap_item; id++)
        if (g->item[id].state != ITEM_ABSENT) {
            tests++;
            if (bp_box_overlap(&g->item[id].box, q))
                fn(user, id);
        }
    return tests;
}

long bp_grid_query(const bp_grid *g, const bp_box *q, bp_item_fn fn, void *user)
{
    if (g->count == 0)
        return 0;
    int q0[3], q1[3], key[3];
    double cells = cell_range(g, q, q0, q1);
    if (bp_box_is_far(q) || cells > g->nactive || cells > g->count)
        return query_all(g, q, fn, user);
    long tests = 0;
    for (key[0] = q0[0]; key[0] <= q1[0]; key[0]++)
        for (key[1] = q0[1]; key[1] <= q1[1]; key[1]++)
            for (key[2] = q0[2]; key[2] <= q1[2]; key[2]++) {
                int c = find_cell(g, key);
                if (c >= 0)
                    tests += query_cell(g, &g->cell[c], q, q0, fn, user);
            }
    for (int k = 0; k < g->nbig; k++, tests++)
        if (bp_box_overlap(&g->item[g->big[k]].box, q))
            fn(user, g->big[k]);
    return tests;
}
