/* json_emit.c -- the CLI's one JSON writer (see json_emit.h): commas
 * between items, string escaping, and one rule for numbers. */
#include "src/cli/json_emit.h"

#include <math.h>

void json_emit_init(json_emit *j, FILE *out)
{
    j->out = out;
    j->depth = 0;
    j->has_item[0] = 0;
    j->after_key = 0;
}

/* Before an item (a value, or a key in an object): the comma that
 * separates it from the item before, unless it is a key's value. */
static void json_item(json_emit *j)
{
    if (j->after_key) {
        j->after_key = 0;
        return;
    }
    if (j->has_item[j->depth])
        fputc(',', j->out);
    j->has_item[j->depth] = 1;
}

static void json_open(json_emit *j, char c)
{
    json_item(j);
    fputc(c, j->out);
    if (j->depth < JSON_MAX_DEPTH)
        j->depth++;
    j->has_item[j->depth] = 0;
}

static void json_close(json_emit *j, char c)
{
    fputc(c, j->out);
    if (j->depth > 0)
        j->depth--;
}

void json_object_open(json_emit *j) { json_open(j, '{'); }
void json_object_close(json_emit *j) { json_close(j, '}'); }
void json_array_open(json_emit *j) { json_open(j, '['); }
void json_array_close(json_emit *j) { json_close(j, ']'); }

void json_key(json_emit *j, const char *key)
{
    json_item(j);
    json_write_string(j->out, key);
    fputc(':', j->out);
    j->after_key = 1;
}

void json_string(json_emit *j, const char *s)
{
    json_item(j);
    json_write_string(j->out, s);
}

void json_number(json_emit *j, double v)
{
    json_item(j);
    if (isfinite(v))
        fprintf(j->out, "%.17g", v);
    else
        fputs("null", j->out);
}

void json_integer(json_emit *j, long v)
{
    json_item(j);
    fprintf(j->out, "%ld", v);
}

void json_boolean(json_emit *j, int v)
{
    json_item(j);
    fputs(v ? "true" : "false", j->out);
}

void json_numbers(json_emit *j, const double *v, int n)
{
    json_array_open(j);
    for (int i = 0; i < n; i++)
        json_number(j, v[i]);
    json_array_close(j);
}

/* Length of the valid UTF-8 sequence at s (1 to 4 bytes), or 0 when the
 * bytes there are not one (a stray continuation byte, a truncated or
 * overlong sequence, a surrogate, a value above U+10FFFF, 0xC0, 0xC1,
 * 0xF5..0xFF). */
static int utf8_length(const unsigned char *s)
{
    unsigned c = s[0];
    int n = c < 0x80 ? 1 : c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3
                                        : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
    for (int k = 1; k < n; k++)
        if ((s[k] & 0xC0) != 0x80)
            return 0;
    if ((c == 0xE0 && s[1] < 0xA0) || (c == 0xED && s[1] > 0x9F) || /* overlong, surrogate */
        (c == 0xF0 && s[1] < 0x90) || (c == 0xF4 && s[1] > 0x8F))   /* overlong, > U+10FFFF */
        return 0;
    return n;
}

void json_write_string(FILE *out, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    fputc('"', out);
    while (*p) {
        unsigned char c = *p;
        int n = utf8_length(p);
        if (n == 0) {
            fputs("\\ufffd", out); /* not UTF-8: the replacement character */
            p++;
        } else if (c == '"' || c == '\\') {
            fprintf(out, "\\%c", c);
            p++;
        } else if (c < 0x20) {
            fprintf(out, "\\u%04x", c);
            p++;
        } else {
            fwrite(p, 1, (size_t)n, out);
            p += n;
        }
    }
    fputc('"', out);
}
