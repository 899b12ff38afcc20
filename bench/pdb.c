/* pdb.c -- backbone atoms (N, CA, C) of one chain of a PDB file; see
 * pdb.h.  PDB format: fixed columns (wwPDB format 3.3, ATOM record): atom
 * name 13-16, altLoc 17, chain 22, residue number 23-26, insertion code
 * 27, x y z 31-38, 39-46, 47-54. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/pdb.h"
#include "polytope/error.h"
#include "polytope/mem.h"

/* One residue being collected: which of N, CA, C were seen. */
typedef struct residue {
    char key[6];      /* residue number and insertion code, columns 23-27 */
    double at[3][3];  /* N, CA, C */
    int have[3];
} residue;

static int backbone_slot(const char *line)
{
    if (!strncmp(line + 12, " N  ", 4))
        return 0;
    if (!strncmp(line + 12, " CA ", 4))
        return 1;
    if (!strncmp(line + 12, " C  ", 4))
        return 2;
    return -1;
}

static int parse_coord(const char *line, int col, double *out)
{
    char buf[9], *end;
    memcpy(buf, line + col, 8);
    buf[8] = 0;
    errno = 0;
    *out = strtod(buf, &end);
    while (*end == ' ')
        end++;
    return end != buf && *end == 0 && errno == 0 && *out == *out;
}

static hs_code push_residue(pdb_backbone *bb, residue *r, int *cap)
{
    if (!r->key[0])
        return HS_OK;
    if (!(r->have[0] && r->have[1] && r->have[2])) {
        bb->nskipped++;
        return HS_OK;
    }
    if (bb->natoms + 3 > *cap) {
        int c = *cap ? 2 * *cap : 3 * 256;
        double *p = mem_realloc(bb->xyz, (size_t)c * 3, sizeof(double));
        if (!p)
            return HS_ERR_NOMEM;
        bb->xyz = p;
        *cap = c;
    }
    memcpy(bb->xyz + 3 * bb->natoms, r->at, sizeof r->at);
    bb->natoms += 3;
    return HS_OK;
}

/* Which chain to read: `chain` if present, else blank if present. */
static char pick_chain(FILE *f, char chain)
{
    char line[256];
    int want = 0, blank = 0;
    while (fgets(line, sizeof line, f) && strncmp(line, "ENDMDL", 6)) {
        if (strncmp(line, "ATOM  ", 6) || strlen(line) < 54)
            continue;
        want |= line[21] == chain;
        blank |= line[21] == ' ';
    }
    rewind(f);
    return want || !blank ? chain : ' ';
}

static hs_code read_atoms(FILE *f, const char *path, pdb_backbone *bb, hs_error *err)
{
    char line[256];
    int lineno = 0, cap = 0;
    residue cur;
    memset(&cur, 0, sizeof cur);
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (!strncmp(line, "ENDMDL", 6))
            break;
        int slot = backbone_slot(line);
        if (strncmp(line, "ATOM  ", 6) || line[21] != bb->chain || slot < 0)
            continue;
        if (strlen(line) < 54)
            return err_at(err, path, lineno, "ATOM record shorter than 54 columns");
        char key[6];
        memcpy(key, line + 22, 5);
        key[5] = 0;
        if (strcmp(key, cur.key)) {
            if (push_residue(bb, &cur, &cap) != HS_OK)
                return err_set(err, HS_ERR_NOMEM, "out of memory");
            memset(&cur, 0, sizeof cur);
            memcpy(cur.key, key, sizeof key);
        }
        if (cur.have[slot]) /* another alternate location */
            continue;
        for (int j = 0; j < 3; j++)
            if (!parse_coord(line, 30 + 8 * j, &cur.at[slot][j]))
                return err_at(err, path, lineno, "bad %c coordinate '%.8s'", "xyz"[j],
                                  line + 30 + 8 * j);
        cur.have[slot] = 1;
    }
    if (push_residue(bb, &cur, &cap) != HS_OK)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    if (bb->natoms == 0)
        return err_at(err, path, lineno, "no backbone atoms (N, CA, C) for chain '%c'",
                          bb->chain);
    return HS_OK;
}

hs_code pdb_read_backbone(const char *path, char chain, pdb_backbone *bb, hs_error *err)
{
    memset(bb, 0, sizeof *bb);
    FILE *f = fopen(path, "r");
    if (!f)
        return err_set(err, HS_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    bb->chain = pick_chain(f, chain);
    hs_code rc = read_atoms(f, path, bb, err);
    fclose(f);
    if (rc != HS_OK)
        pdb_backbone_free(bb);
    return rc;
}

void pdb_backbone_free(pdb_backbone *bb)
{
    free(bb->xyz);
    bb->xyz = NULL;
    bb->natoms = 0;
}
