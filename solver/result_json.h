/* result_json.h -- the JSON form of a certificate read back
 * (result_json.c): hs_result_parse takes it as well as the text form. */
#ifndef HS_RESULT_JSON_H
#define HS_RESULT_JSON_H

#include "halfspace.h"

/* 1 when the text's first non-blank character opens a JSON object. */
int result_text_is_json(const char *text);

/* A result from the JSON written by hs_result_write_json, for polyhedra
 * of dimension n (as hs_result_parse: name for messages, may be NULL;
 * errors "FILE:LINE: ..." as HS_ERR_INPUT, HS_ERR_NOMEM).  A new result,
 * or NULL on error. */
hs_result *result_parse_json(const char *text, const char *name, int n, hs_error *err);

#endif
