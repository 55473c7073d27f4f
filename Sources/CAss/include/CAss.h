#ifndef PLAYHEAD_CASS_H
#define PLAYHEAD_CASS_H

/* libass (the subtitle renderer mpv uses), loaded with dlopen when the first subtitle is drawn: linked, it and
 * what it pulls in (fontconfig, FreeType, HarfBuzz, FriBidi) would load at every launch.
 *
 * Threads: one renderer is used by one thread at a time (the display thread). */

#include <stdint.h>

typedef struct ph_subtitles ph_subtitles;

/* A renderer with the system's fonts (fontconfig; the default family "sans-serif"); NULL when libass cannot be
 * loaded or started (`ph_subtitles_error` says why). Finding the fonts may take a moment the first time. */
ph_subtitles *ph_subtitles_create(void);
void ph_subtitles_destroy(ph_subtitles *subtitles);
/* Why the last create failed, never NULL. */
const char *ph_subtitles_error(void);

/* Adds a font (a TrueType or OpenType file's bytes, copied) that scripts may name, as a Matroska file's attached
 * fonts; it is used from the next render on. */
void ph_subtitles_add_font(ph_subtitles *subtitles, const char *name, const uint8_t *data, int size);

/* Keeps `script` (a whole ASS script, UTF-8) as the track `ph_subtitles_draw` draws, in place of the one kept
 * before. Returns 0, or -1 when the script cannot be read (no track is kept then). */
int ph_subtitles_load(ph_subtitles *subtitles, const char *script);

/* Renders the kept track's events active at `ms` for a w x h frame and keeps the result for
 * `ph_subtitles_paint`; `box` gets the part of the frame they cover (x, y, width, height; 0 x 0 when nothing
 * shows). Unless `force`, a picture libass says is the same as the last one rendered (same size, nothing moved or
 * changed: a still event, or an animation between its steps) returns 2, and nothing is to be painted. Otherwise
 * returns 1 when anything shows, 0 when nothing does, -1 without a track. */
int ph_subtitles_draw(ph_subtitles *subtitles, long long ms, int w, int h, int force, int box[4]);

/* Paints what the last `ph_subtitles_draw` rendered into `bgra`: its box's width x height pixels of blue, green,
 * red and alpha bytes (straight alpha), cleared first. */
void ph_subtitles_paint(ph_subtitles *subtitles, uint8_t *bgra);

#endif
