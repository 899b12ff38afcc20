/* test_pdb.c -- the PDB backbone reader of bench/chain (bench/pdb.c,
 * linked into the unit tests as an object of its own): chains, alternate
 * locations, incomplete residues, models, and every error with its
 * FILE:LINE message. */
#include "bench/pdb.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "tests/helpers.h"

/* ATOM record with the PDB columns; name is 4 characters (" CA "). */
static void atom(FILE *f, int serial, const char *name, char alt, char chain, int resno,
                 double x, double y, double z)
{
    fprintf(f, "ATOM  %5d %4s%cGLY %c%4d    %8.3f%8.3f%8.3f  1.00 10.00           C\n", serial,
            name, alt, chain, resno, x, y, z);
}

/* A temporary file holding `text` (path in a static buffer). */
static const char *temp_pdb(const char *text)
{
    return t_temp_file("hs_test_pdb", text);
}

static char *read_all(FILE *f)
{
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *buf = malloc((size_t)n + 1);
    ck_assert(fread(buf, 1, (size_t)n, f) == (size_t)n);
    buf[n] = 0;
    return buf;
}

START_TEST(reads_backbone_in_order)
{
    FILE *f = tmpfile();
    fprintf(f, "HEADER    TEST\n");
    atom(f, 1, " N  ", ' ', 'A', 1, 1, 0, 0);
    atom(f, 2, " CA ", 'A', 'A', 1, 2, 0, 0);
    atom(f, 3, " CA ", 'B', 'A', 1, 9, 9, 9); /* second alternate: ignored */
    atom(f, 4, " C  ", ' ', 'A', 1, 3, 0, 0);
    atom(f, 5, " O  ", ' ', 'A', 1, 3, 1, 0);
    atom(f, 6, " C  ", ' ', 'A', 2, 6, 0, 0); /* residue 2: C before N, reordered */
    atom(f, 7, " N  ", ' ', 'A', 2, 4, 0, 0);
    atom(f, 8, " CA ", ' ', 'A', 2, 5, 0, 0);
    atom(f, 9, " N  ", ' ', 'A', 3, 7, 0, 0); /* residue 3 lacks CA and C */
    atom(f, 10, " N  ", ' ', 'B', 4, 8, 0, 0); /* another chain */
    fprintf(f, "HETATM   11  O   HOH A 100      1.000   1.000   1.000  1.00 10.00           O\n");
    fprintf(f, "ENDMDL\n");
    atom(f, 12, " N  ", ' ', 'A', 5, 9, 0, 0); /* second model: not read */
    char *text = read_all(f);
    fclose(f);
    const char *path = temp_pdb(text);
    free(text);
    pdb_backbone bb;
    hs_error err;
    ck_assert_msg(pdb_read_backbone(path, 'A', &bb, &err) == HS_OK, "%s", err.msg);
    ck_assert_int_eq(bb.natoms, 6);
    ck_assert_int_eq(bb.nskipped, 1);
    ck_assert_int_eq(bb.chain, 'A');
    for (int i = 0; i < 6; i++)
        ck_assert_msg(bb.xyz[3 * i] == i + 1 && bb.xyz[3 * i + 1] == 0, "atom %d at %g", i,
                      bb.xyz[3 * i]);
    pdb_backbone_free(&bb);
    unlink(path);
}
END_TEST

START_TEST(blank_chain_identifier)
{
    FILE *f = tmpfile();
    atom(f, 1, " N  ", ' ', ' ', 1, 1, 2, 3);
    atom(f, 2, " CA ", ' ', ' ', 1, 2, 2, 3);
    atom(f, 3, " C  ", ' ', ' ', 1, 3, 2, 3);
    char *text = read_all(f);
    fclose(f);
    const char *path = temp_pdb(text);
    free(text);
    pdb_backbone bb;
    hs_error err;
    ck_assert_msg(pdb_read_backbone(path, 'A', &bb, &err) == HS_OK, "%s", err.msg);
    ck_assert_int_eq(bb.chain, ' ');
    ck_assert_int_eq(bb.natoms, 3);
    ck_assert(bb.xyz[8] == 3);
    pdb_backbone_free(&bb);
    unlink(path);
}
END_TEST

static const char *error_of(const char *text, char chain)
{
    static char msg[HS_ERROR_MSG_SIZE];
    const char *path = temp_pdb(text);
    pdb_backbone bb;
    hs_error err;
    ck_assert(pdb_read_backbone(path, chain, &bb, &err) != HS_OK);
    ck_assert(bb.xyz == NULL);
    /* the message names the file; keep what follows it */
    const char *rest = strstr(err.msg, path);
    ck_assert(rest != NULL);
    snprintf(msg, sizeof msg, "%s", rest + strlen(path));
    unlink(path);
    return msg;
}

START_TEST(errors)
{
    const char *m;
    m = error_of("ATOM      1  N   GLY A   1       1.000   x.000   3.000  1.00 10.00\n", 'A');
    ck_assert_msg(!strcmp(m, ":1: bad y coordinate '   x.000'"), "%s", m);
    m = error_of("REMARK\nATOM      1  N   GLY A   1       1.000   2.000\n", 'A');
    ck_assert_msg(!strcmp(m, ":2: ATOM record shorter than 54 columns"), "%s", m);
    m = error_of("ATOM      1  N   GLY B   1       1.000   2.000   3.000  1.00 10.00\n", 'A');
    ck_assert_msg(!strcmp(m, ":1: no backbone atoms (N, CA, C) for chain 'A'"), "%s", m);
    m = error_of("", 'A');
    ck_assert_msg(!strcmp(m, ": no backbone atoms (N, CA, C) for chain 'A'"), "%s", m);
    pdb_backbone bb;
    hs_error err;
    ck_assert_int_eq(pdb_read_backbone("/nonexistent/x.pdb", 'A', &bb, &err), HS_ERR_IO);
    ck_assert(strstr(err.msg, "/nonexistent/x.pdb: cannot open") != NULL);
}
END_TEST

Suite *suite_pdb(void)
{
    Suite *s = suite_create("pdb");
    TCase *tc = tcase_create("pdb");
    tcase_add_test(tc, reads_backbone_in_order);
    tcase_add_test(tc, blank_chain_identifier);
    tcase_add_test(tc, errors);
    suite_add_tcase(s, tc);
    return s;
}
