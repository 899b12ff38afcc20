/* json_emit.h -- the CLI's one JSON writer: objects, arrays, keys, strings
 * and numbers written compactly (no spaces, no newlines) to a FILE, with
 * the commas between items placed by the writer.
 *
 * Rules, the same for every command:
 *   strings  between double quotes; '"' and '\' escaped by a backslash,
 *            control characters below 0x20 as \u00XX, valid UTF-8
 *            passed through, and every byte that is not part of a valid
 *            UTF-8 sequence written as \ufffd (the replacement character),
 *            so the output is always valid UTF-8 and valid JSON;
 *   numbers  "%.17g" (enough digits to read back the same double); a value
 *            that is not finite (inf, nan) is written as null;
 *   integers "%ld".
 *
 * Typical use:
 *     json_emit j;
 *     json_emit_init(&j, stdout);
 *     json_object_open(&j);
 *     json_key(&j, "status");
 *     json_string(&j, "free");
 *     json_key(&j, "point");
 *     json_numbers(&j, p, 3);
 *     json_object_close(&j);
 *     putchar('\n');
 * The writer's state lives in the caller's json_emit; write errors are left
 * on the FILE (ferror) for the caller to check. */
#ifndef HS_JSON_EMIT_H
#define HS_JSON_EMIT_H

#include <stdio.h>

/* Deepest nesting of objects and arrays the writer tracks. */
#define JSON_MAX_DEPTH 32

typedef struct json_emit {
    FILE *out;
    int depth;     /* objects and arrays open */
    int after_key; /* a key was written: its value follows without a comma */
    /* has_item[d]: an item was written at depth d */
    unsigned char has_item[JSON_MAX_DEPTH + 1];
} json_emit;

void json_emit_init(json_emit *j, FILE *out);

void json_object_open(json_emit *j);
void json_object_close(json_emit *j);
void json_array_open(json_emit *j);
void json_array_close(json_emit *j);

/* "key": inside an object; the next call writes its value. */
void json_key(json_emit *j, const char *key);

void json_string(json_emit *j, const char *s);
void json_number(json_emit *j, double v);
void json_integer(json_emit *j, long v);
void json_boolean(json_emit *j, int v);
/* An array of n numbers. */
void json_numbers(json_emit *j, const double *v, int n);

/* s as a JSON string literal on out, by the rule above (for a caller that
 * writes the rest itself). */
void json_write_string(FILE *out, const char *s);

#endif
