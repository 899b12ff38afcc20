/* frames.h -- the frames of a walk (draw --trace): each frame is one step
 * with one or two panels, its title, its depth in the recursion and the
 * trace lines printed for it.  draw_trace.c fills them from the seed's
 * steps hook (solver/seed.h), draw_fast.c from the fast engine's trace;
 * draw_frames.c renders them (SVG, PNG) and draw_page.c writes the page
 * that steps through them. */
#ifndef HS_DRAW_FRAMES_H
#define HS_DRAW_FRAMES_H

#include "halfspace.h"
#include "src/draw/panel.h"

enum { FRAME_W = 960, FRAME_H = 500, FRAME_MAX_SYS = 4 };

typedef struct tframe {
    int depth;
    char kind[16];         /* node, points, step5, candidates, face, lifted, true,
                              false (seed); line (fast) */
    char title[240];
    char **lines;          /* the trace lines of this step */
    int nlines, caplines;
    int two;               /* two panels: the step's level and the face's plane */
    panel left, right;
    dsys *owned[FRAME_MAX_SYS];
} tframe;

typedef struct tframes {
    tframe *f;
    int n, cap;
    char **pending;        /* trace lines not yet given to a frame */
    int npending, cappending;
    int nomem;
    char title[300];       /* of the page */
} tframes;

void tframes_init(tframes *t);
void tframes_free(tframes *t);
/* The trace callback (hs_trace_fn): keeps the line for the next frame. */
void tframes_trace_line(void *user, const char *line);
/* A new frame (zeroed, panels set up for k and k - 1 variables), which
 * takes the pending lines; NULL when out of memory (t->nomem set). */
tframe *tframes_add(tframes *t, int depth, const char *kind, int k);
/* Give a system to a frame to free with it; returns s. */
dsys *tframe_own(tframe *f, dsys *s);
/* Lines still pending after the walk go to the last frame. */
void tframes_finish(tframes *t);

/* Render every frame as SVG (kept for the page, written as
 * dir/frame-NNN.svg) and, when png, as dir/frame-NNN.png; then the page
 * dir/index.html (draw_page.c).  The directory must exist. */
hs_code tframes_write(const tframes *t, const char *dir, int png, hs_error *err);

/* The page (draw_page.c): svgs[i] is frame i's SVG text. */
hs_code page_write(const tframes *t, const char *dir, char *const *svgs, hs_error *err);

/* The fast engine's walk (draw_fast.c). */
hs_code fast_walk_frames(const hs_poly *A, const hs_poly *B, const hs_options *q, tframes *t,
                         hs_error *err);

#endif
