/* ine.h -- the cddlib/lrs H-representation text format (ine_read.c,
 * ine_write.c). */
#ifndef HS_INE_H
#define HS_INE_H

#include "halfspace.h"

/* Parse .ine text (format and errors: hs_poly_read in halfspace.h); `name`
 * is FILE in messages.  The system is not prepared for the fast engine
 * (solver/poly_build.c does that).  NULL with err set on error. */
hs_poly *ine_parse(const char *text, const char *name, hs_error *err);

#endif
