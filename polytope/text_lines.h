/* text_lines.h -- split text into numbered lines of whitespace-separated
 * tokens, for the line-oriented file readers (.ine, .ext, certificates). */
#ifndef HS_TEXT_LINES_H
#define HS_TEXT_LINES_H

#include "halfspace.h"

typedef struct text_line {
    int number;   /* 1-based line number */
    int ntok;     /* tokens on the line */
    char **tok;   /* NUL-terminated tokens (valid until the next call) */
    int bad_byte; /* the line holds a control byte other than whitespace */
} text_line;

typedef struct text_reader {
    const char *text;
    const char *pos;
    int line;
    char *buf;     /* copy of the current line */
    size_t bufcap;
    char **toks;
    int tokcap;
    int failed;    /* out of memory */
} text_reader;

void text_reader_init(text_reader *rd, const char *text);
/* Next line into *ln; returns 0 at end of text (or on out of memory, with
 * rd->failed set). */
int text_reader_next(text_reader *rd, text_line *ln);
void text_reader_free(text_reader *rd);

/* Call fn(user, line, err) for every line that is neither blank nor a
 * comment (first token starting with '*' or '#'), in order, stopping at the
 * first code other than HS_OK.  A line holding a control byte is reported
 * as "FILE:LINE: unexpected control byte in text".  *last_line (may be
 * NULL) receives the number of the last line read, for messages about a
 * missing end.  Returns HS_OK or the first error. */
typedef hs_code (*text_line_fn)(void *user, text_line *ln, hs_error *err);
hs_code text_for_each_line(const char *text, const char *file, text_line_fn fn, void *user,
                           int *last_line, hs_error *err);

/* The largest file the readers take when no option says otherwise
 * (hs_poly_read, hs_result_read, hs_chain_load, batch lists, and the
 * default of hs_scene_options.max_file_bytes): 256 MiB. */
#define TEXT_MAX_FILE_BYTES ((size_t)1 << 28)

/* Whole file as a NUL-terminated string (NUL bytes inside the file are
 * replaced by 0x01 so that readers report them); NULL with err set when it
 * cannot be read.  At most TEXT_MAX_FILE_BYTES are read.  Free with
 * free(). */
char *text_read_file(const char *path, hs_error *err);

/* The same with a limit on the size: a file of more than max_bytes bytes
 * is "FILE: larger than the limit of N bytes" (HS_ERR_INPUT), found from
 * its size before reading when it is a regular file, else after reading
 * max_bytes + 1 bytes (a pipe, a device such as /dev/zero).  Out of memory
 * while reading is HS_ERR_NOMEM, "FILE: out of memory reading N bytes".
 * *len (may be NULL) receives the number of bytes read (NUL bytes
 * included, before they are replaced); with keep_nul the NUL bytes are
 * kept as they are (binary files). */
char *text_read_file_max(const char *path, size_t max_bytes, int keep_nul, size_t *len,
                         hs_error *err);

#endif
