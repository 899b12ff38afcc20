/* pdb.h -- the protein backbone of one chain of a PDB file: the atoms N,
 * CA and C of every residue, in order (for bench/chain, seed 003's
 * protein benchmark).
 *
 * Read: ATOM records of the first model (reading stops at the first
 * ENDMDL), of the requested chain; when no ATOM record carries that chain
 * identifier but some carry a blank one (old entries such as 1MPP have no
 * chain identifiers), the blank chain is used.  Alternate locations: the
 * first one met (blank or 'A') is kept.  A residue (same residue number
 * and insertion code) lacking any of N, CA, C is skipped whole, so the
 * output is always N, CA, C, N, CA, C, ...  HETATM records are ignored.
 * Errors ("FILE:LINE: what is wrong"): a file that cannot be read, a
 * malformed coordinate, no backbone atom for the chain. */
#ifndef HS_BENCH_PDB_H
#define HS_BENCH_PDB_H

#include "halfspace.h"

typedef struct pdb_backbone {
    int natoms;       /* 3 per residue kept */
    double *xyz;      /* natoms * 3, Angstrom */
    int nskipped;     /* residues skipped for a missing backbone atom */
    char chain;       /* chain identifier used (' ' for blank) */
} pdb_backbone;

/* Read chain `chain` of `path`; returns HS_OK and fills *bb (free with
 * pdb_backbone_free), or an error code with err filled. */
hs_code pdb_read_backbone(const char *path, char chain, pdb_backbone *bb, hs_error *err);
void pdb_backbone_free(pdb_backbone *bb);

#endif
