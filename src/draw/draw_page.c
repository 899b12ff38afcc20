/* draw_page.c -- DIR/index.html, the page that steps through the frames of
 * a walk (frames.h): one self-contained file (every frame an inline SVG,
 * the style and the script in the page; nothing fetched), previous/next
 * buttons and the arrow keys, and beside each frame its step number,
 * title, depth in the recursion and trace lines.
 *
 * The frames' SVG comes from cairo; its ids (glyphs, clips) are given a
 * prefix per frame so that the frames can share one document. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/error.h"
#include "src/draw/frames.h"

static void put_escaped(FILE *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '<')
            fputs("&lt;", out);
        else if (*s == '>')
            fputs("&gt;", out);
        else if (*s == '&')
            fputs("&amp;", out);
        else if (*s == '"')
            fputs("&quot;", out);
        else
            fputc(*s, out);
    }
}

/* The SVG of frame i without its XML declaration, every id, href="#..."
 * and url(#...) prefixed with "fI-". */
static void put_svg(FILE *out, const char *svg, int i)
{
    const char *s = strstr(svg, "<svg");
    static const char *const keys[] = {"id=\"", "href=\"#", "url(#"};
    if (!s)
        return;
    while (*s) {
        int hit = 0;
        for (int k = 0; k < 3 && !hit; k++) {
            size_t len = strlen(keys[k]);
            if (strncmp(s, keys[k], len) == 0) {
                fwrite(s, 1, len, out);
                fprintf(out, "f%d-", i + 1);
                s += len;
                hit = 1;
            }
        }
        if (!hit)
            fputc(*s++, out);
    }
}

static const char page_style[] =
    "body{font-family:'DejaVu Sans',sans-serif;margin:16px;color:#1a1a1a;background:#fafafa}"
    "h1{font-size:17px;margin:0 0 10px}"
    "#bar{margin:8px 0}#bar button{font-size:15px;padding:4px 14px;margin-right:8px}"
    "#pos{font-weight:bold;margin:0 10px}"
    ".frame{display:flex;gap:16px;align-items:flex-start}"
    ".frame[hidden]{display:none}"
    ".pic{background:#fff;border:1px solid #ccc;flex:none}"
    ".pic svg{display:block;width:960px;height:auto}"
    ".side{max-width:560px}"
    ".side h2{font-size:14px;margin:0 0 6px}"
    ".depth{font-size:13px;margin:0 0 8px;color:#444}"
    ".depth span{display:inline-block;width:12px;height:12px;background:#3373d9;"
    "margin-right:3px;vertical-align:middle}"
    "pre{font-size:12px;background:#fff;border:1px solid #ddd;padding:8px;white-space:pre-wrap}"
    ".help{font-size:12px;color:#666}";

static const char page_script[] =
    "(function(){\n"
    "  var frames = document.querySelectorAll('.frame');\n"
    "  var prev = document.getElementById('prev'), next = document.getElementById('next');\n"
    "  var pos = document.getElementById('pos'), cur = 0;\n"
    "  function show(k) {\n"
    "    if (k < 0) k = 0;\n"
    "    if (k > frames.length - 1) k = frames.length - 1;\n"
    "    frames[cur].hidden = true;\n"
    "    cur = k;\n"
    "    frames[cur].hidden = false;\n"
    "    pos.textContent = (cur + 1) + ' / ' + frames.length;\n"
    "    document.body.setAttribute('data-current', String(cur + 1));\n"
    "    prev.disabled = cur === 0;\n"
    "    next.disabled = cur === frames.length - 1;\n"
    "  }\n"
    "  prev.addEventListener('click', function () { show(cur - 1); });\n"
    "  next.addEventListener('click', function () { show(cur + 1); });\n"
    "  document.addEventListener('keydown', function (e) {\n"
    "    if (e.key === 'ArrowRight' || e.key === 'ArrowDown') { show(cur + 1); e.preventDefault(); }\n"
    "    else if (e.key === 'ArrowLeft' || e.key === 'ArrowUp') { show(cur - 1); e.preventDefault(); }\n"
    "    else if (e.key === 'Home') { show(0); e.preventDefault(); }\n"
    "    else if (e.key === 'End') { show(frames.length - 1); e.preventDefault(); }\n"
    "  });\n"
    "  show(0);\n"
    "})();\n";

hs_code page_write(const tframes *t, const char *dir, char *const *svgs, hs_error *err)
{
    size_t plen = strlen(dir) + 16;
    char *path = malloc(plen);
    if (!path)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    snprintf(path, plen, "%s/index.html", dir);
    FILE *out = fopen(path, "w");
    if (!out) {
        hs_code rc = err_set(err, HS_ERR_IO, "%s: cannot write", path);
        free(path);
        return rc;
    }
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>", out);
    put_escaped(out, t->title);
    fprintf(out, "</title>\n<style>%s</style>\n</head>\n<body data-frames=\"%d\" "
                 "data-current=\"1\">\n<h1>", page_style, t->n);
    put_escaped(out, t->title);
    fprintf(out, "</h1>\n<div id=\"bar\"><button id=\"prev\" type=\"button\">&larr; previous"
                 "</button><span id=\"pos\">1 / %d</span><button id=\"next\" type=\"button\">"
                 "next &rarr;</button> <span class=\"help\">(or the arrow keys)</span></div>\n",
            t->n);
    for (int i = 0; i < t->n; i++) {
        const tframe *f = &t->f[i];
        fprintf(out, "<section class=\"frame\" id=\"frame-%d\" data-depth=\"%d\" data-kind=\"%s\"%s>\n"
                     "<div class=\"pic\">",
                i + 1, f->depth, f->kind, i ? " hidden" : "");
        put_svg(out, svgs[i], i);
        fprintf(out, "</div>\n<div class=\"side\"><h2>Step %d of %d: ", i + 1, t->n);
        put_escaped(out, f->title);
        fprintf(out, "</h2>\n<p class=\"depth\">depth %d in the recursion ", f->depth);
        for (int d = 0; d <= f->depth; d++)
            fputs("<span></span>", out);
        fputs("</p>\n<pre>", out);
        for (int j = 0; j < f->nlines; j++) {
            put_escaped(out, f->lines[j]);
            fputc('\n', out);
        }
        fputs("</pre></div>\n</section>\n", out);
    }
    fprintf(out, "<script>\n%s</script>\n</body>\n</html>\n", page_script);
    int bad = ferror(out);
    bad |= fclose(out) != 0;
    hs_code rc = bad ? err_set(err, HS_ERR_IO, "%s: cannot write", path) : HS_OK;
    free(path);
    return rc;
}
