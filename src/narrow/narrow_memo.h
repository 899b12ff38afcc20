/* narrow_memo.h -- a convex-convex test's inputs, bit for bit, with its
 * answer (narrow_memo.c).  The caller keeps the record (the world's report
 * does, beside its hints) and hands it back with the next test of the same
 * pair: when the two pieces' rows and both poses are equal, bit for bit,
 * to the recorded ones, the recorded answer is the answer.  This is exact,
 * not a guess: a convex-convex test is decided from exactly these numbers
 * (the rows of each piece in its own frame, its holder's pose, the engine),
 * so equal numbers have the recorded status; the witness and the normal
 * are the ones found then.  A scene at rest (bodies that did not move, as
 * a simulator's sleeping bodies) is answered without a test; one that
 * moved by any amount is tested as ever. */
#ifndef HS_NARROW_MEMO_H
#define HS_NARROW_MEMO_H

#include <stddef.h>

#include "src/narrow/contact.h"
#include "src/narrow/narrow.h"

/* Pieces with more rows than this are not recorded (the record holds the
 * rows themselves: 4 doubles a row, 64 KB for a piece of 2048 rows; the
 * hull of a real mesh has hundreds). */
#define NARROW_MEMO_MAX_ROWS 2048

/* Doubles a record of the test of a against b needs, or 0 when that test
 * is not recorded (a mesh piece, or more than NARROW_MEMO_MAX_ROWS rows);
 * with cs (not NULL) also the contacts found for it (contact_points at
 * some threshold: they too are decided by the same numbers). */
size_t narrow_memo_size(const narrow_piece *a, const narrow_piece *b, const contact_set *cs);

/* Write the record of the test of a against b (ws's engine), whose answer
 * is *hit, into rec (narrow_memo_size(a, b, cs) doubles); with cs, the
 * contacts found at threshold. */
void narrow_memo_write(double *rec, const narrow_ws *ws, const narrow_piece *a,
                       const narrow_piece *b, const piece_hit *hit, double threshold,
                       const contact_set *cs);

/* 1, with the recorded answer in *hit, when rec (len doubles, NULL when
 * there is none) records a test of a against b with ws's engine on the
 * same numbers bit for bit; else 0, *hit untouched. */
int narrow_memo_match(const double *rec, size_t len, const narrow_ws *ws,
                      const narrow_piece *a, const narrow_piece *b, piece_hit *hit);

/* After a match: 1, with the recorded contacts in *cs, when the record
 * (len doubles) holds the contacts found at this threshold (bit for bit);
 * else 0. */
int narrow_memo_contacts(const double *rec, size_t len, const narrow_piece *a,
                         const narrow_piece *b, double threshold, contact_set *cs);

#endif
