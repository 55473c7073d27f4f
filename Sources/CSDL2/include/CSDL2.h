#ifndef PLAYHEAD_CSDL2_H
#define PLAYHEAD_CSDL2_H

/* SDL2, loaded with dlopen when the first window opens instead of at process start.
 *
 * Linking libSDL2 loads it and the libraries it pulls in (ALSA, Wayland, libdecor, xkbcommon, gbm...) at every
 * launch of `playhead`, windowed or not (about 7 ms here). This header exposes no SDL type: a window is an opaque
 * handle and events arrive decoded into `ph_sdl_event`.
 *
 * Threads: `ph_sdl_wake` may be called from any thread once `ph_sdl_start` has returned 0. Every other function
 * must be called on the thread that called `ph_sdl_start` (SDL's video functions belong to one thread). */

#include <stddef.h>
#include <stdint.h>

/* What an event is about. */
enum {
    PH_EVENT_NONE = 0,
    PH_EVENT_WAKE,         /* ph_sdl_wake was called */
    PH_EVENT_CLOSE,        /* the user asked to close the window (its close button, Alt+F4, the window manager) */
    PH_EVENT_RESIZED,      /* the window's size changed: x and y are the new size in window coordinates */
    PH_EVENT_EXPOSED,      /* the window must be drawn again */
    PH_EVENT_KEY,          /* a key was pressed: key is its SDL keycode, mod the modifiers */
    PH_EVENT_TEXT,         /* text was typed: text holds it in UTF-8 */
    PH_EVENT_BUTTON_DOWN,  /* a mouse button was pressed at x, y (button: 1 left, 2 middle, 3 right; clicks) */
    PH_EVENT_BUTTON_UP,    /* a mouse button was released at x, y */
    PH_EVENT_MOTION,       /* the mouse moved to x, y */
    PH_EVENT_WHEEL,        /* the wheel turned: y > 0 away from the user */
    PH_EVENT_SHOWN,        /* the window became visible (shown, restored) */
    PH_EVENT_HIDDEN,       /* the window became invisible (hidden, minimized) */
    PH_EVENT_LEAVE,        /* the mouse left the window */
    PH_EVENT_QUIT,         /* the display connection is going away */
    PH_EVENT_OTHER,
};

/* Key codes the player interprets that are not characters (SDL's values). */
enum {
    PH_KEY_RIGHT = 0x4000004F,
    PH_KEY_LEFT = 0x40000050,
    PH_KEY_DOWN = 0x40000051,
    PH_KEY_UP = 0x40000052,
    PH_KEY_PAGEUP = 0x4000004B,
    PH_KEY_PAGEDOWN = 0x4000004E,
    PH_KEY_ESCAPE = 0x1B,
    PH_KEY_RETURN = 0x0D,
    PH_KEY_BACKSPACE = 0x08,
};

typedef struct ph_sdl_event {
    uint32_t kind;
    uint32_t window;
    int32_t key;
    uint16_t mod;
    int32_t x, y;
    int32_t button;
    int32_t clicks;
    char text[32];
} ph_sdl_event;

/* Loads SDL2, sets its hints (no signal handlers, no screensaver while a window is open) and starts its video
 * subsystem with the first of `drivers` that works ("x11,wayland"; unless SDL_VIDEODRIVER is set: the user's
 * choice stands); 0 on success, else -1 and `ph_sdl_error` says why. */
int ph_sdl_start(const char *drivers);
/* Stops the video subsystem (closes the display connection). */
void ph_sdl_stop(void);
/* The last error (SDL's own message), never NULL. */
const char *ph_sdl_error(void);
/* The video driver in use ("x11", "wayland"), never NULL. */
const char *ph_sdl_driver(void);
/* The size of the first screen's area that windows may use (without panels); 0 on success. */
int ph_sdl_usable_bounds(int *w, int *h);
/* Waits for the next event (timeout_ms < 0: for ever); 1 when `event` was filled, 0 on a time-out. */
int ph_sdl_wait(ph_sdl_event *event, int timeout_ms);
/* 1 once the connection to the display broke (the X server or the Wayland compositor went away): the windows are
 * gone and SDL must not be used again in this process. */
int ph_sdl_display_lost(void);
/* Ends a wait with PH_EVENT_WAKE. Any thread. */
void ph_sdl_wake(void);

/* How many X requests failed (BadWindow and the like, reported by the X server) since the first X11 window opened:
 * counted and ignored instead of Xlib's default, which ends the process. Any thread. */
int ph_x_request_errors(void);

typedef struct ph_window ph_window;

/* Pixel layouts a picture may be uploaded in. */
enum { PH_PICTURE_I420 = 0, PH_PICTURE_NV12, PH_PICTURE_BGRA };
/* YUV matrices and ranges SDL converts (limited-range BT.601, limited-range BT.709, full-range BT.601). */
enum { PH_MATRIX_BT601 = 0, PH_MATRIX_BT709, PH_MATRIX_JPEG };

/* Opens a window of w x h (x, y: its position, or INT32_MIN to let the window manager place it); NULL on failure. */
ph_window *ph_window_create(const char *title, int x, int y, int w, int h, int fullscreen, int on_top, int hidden,
                            int borderless);
void ph_window_destroy(ph_window *window);
uint32_t ph_window_id(const ph_window *window);
/* The renderer's name ("opengl", "software"...). */
const char *ph_window_renderer(const ph_window *window);
void ph_window_set_title(ph_window *window, const char *title);
/* 1 when the window's renderer draws on the CPU (no GPU: SDL's software renderer): pictures should come at the
 * size they are drawn at, scaled by swscale, since SDL's own scaling and YUV conversion are slower. */
int ph_window_scales_on_cpu(const ph_window *window);
/* The largest texture the renderer takes (0: no limit known). */
void ph_window_max_texture(const ph_window *window, int *w, int *h);
/* Desktop fullscreen on or off; 0 on success. */
int ph_window_set_fullscreen(ph_window *window, int on);
int ph_window_is_fullscreen(const ph_window *window);
void ph_window_raise(ph_window *window);
void ph_window_show(ph_window *window);
/* The window's size in its own coordinates, and the drawable size in pixels (larger on HiDPI screens). */
void ph_window_size(const ph_window *window, int *w, int *h);
void ph_window_drawable_size(const ph_window *window, int *w, int *h);
void ph_window_set_size(ph_window *window, int w, int h);
/* The window's position on the screen. */
void ph_window_position(const ph_window *window, int *x, int *y);
void ph_window_set_position(ph_window *window, int x, int y);
/* Pictures are drawn only inside x, y, w, h (drawable pixels); w 0: the whole window. */
void ph_window_set_video_area(ph_window *window, int x, int y, int w, int h);
/* Hides the window (it keeps its size and place), or minimizes it; ph_window_restore undoes a minimize. */
void ph_window_hide(ph_window *window);
void ph_window_minimize(ph_window *window);
void ph_window_restore(ph_window *window);
/* Whether the window is hidden or minimized now (1) or visible (0). */
int ph_window_is_hidden(const ph_window *window);
/* Whether the window is above other windows (asked with on_top). */
int ph_window_is_on_top(const ph_window *window);
/* A window without decorations (a title bar and borders) that the person moves by dragging anywhere in it and
 * resizes from its edges (`edge` pixels wide); 0 on success. */
int ph_window_make_floating(ph_window *window, int edge);
/* The areas of a floating window (x, y, w, h each, window coordinates; at most PH_CLICKABLE_MAX) where a press is
 * a click, not a drag: its buttons. */
enum { PH_CLICKABLE_MAX = 8 };
void ph_window_set_clickable(ph_window *window, const int *xywh, int count);

/* Copies a picture into the window's texture (made again when its layout, size or matrix changes). For I420 the
 * three planes are Y, U, V; for NV12 Y and the interleaved UV; for BGRA one plane. 0 on success. */
int ph_window_upload(ph_window *window, int layout, int matrix, int w, int h, const uint8_t *const planes[3],
                     const int pitches[3]);
/* Opens the window's picture texture (BGRA, the alpha byte ignored: opaque; w x h, made again when its size or
 * layout changes) for writing: *pixels, *pitch and *rows say where its rows are and how many until
 * ph_window_unlock_picture. Each row has room for w rounded up to 16 pixels, and there are h rounded up to even
 * rows (unless the renderer's largest texture is smaller): swscale's conversions write rows in blocks of 16 and
 * are fast at even sizes; only w x h is drawn. 0 on success. On the software renderer the rows are the texture's
 * own memory: a picture converted into them is not copied once more. */
int ph_window_lock_picture(ph_window *window, int w, int h, uint8_t **pixels, int *pitch, int *rows);
void ph_window_unlock_picture(ph_window *window);
/* Draws the frame: the background colour (skipped when the picture covers the whole window), then (when `picture`
 * is set) the texture's source rectangle into the destination rectangle (drawable pixels) turned `degrees`
 * clockwise about its centre, then shows it. 0 on success. */
int ph_window_draw(ph_window *window, int picture, int sx, int sy, int sw, int sh, int dx, int dy, int dw, int dh,
                   int degrees, uint8_t r, uint8_t g, uint8_t b);

/* The overlays drawn over the picture, bottom to top. */
enum {
    PH_OVERLAY_SUBTITLES = 0, /* the subtitle cues */
    PH_OVERLAY_CONTENT,       /* what the app draws over the video (PlayerWindow.contentOverlay) */
    PH_OVERLAY_CONTROLS,      /* the player controls and their menus */
    PH_OVERLAY_COUNT,
};

/* Shows `bgra` (w x h pixels, straight alpha) in overlay `slot` at (x, y) from the next draw on; NULL hides it. 0 on
 * success. */
int ph_window_set_overlay(ph_window *window, int slot, const uint8_t *bgra, int w, int h, int x, int y);

/* Text for the controls, drawn with SDL2_ttf (loaded with dlopen at the first call) in the desktop's sans-serif
 * font (fontconfig's choice, DejaVu Sans where fontconfig is missing). Display thread. */

/* Renders `utf8` in white, `pixels` high (bold when `bold`), into a new straight-alpha BGRA buffer of *w x *h
 * pixels with rows of *w * 4 bytes; NULL on failure (ph_text_error says why). Free it with ph_text_free. */
uint8_t *ph_text_render(const char *utf8, int pixels, int bold, int *w, int *h);
void ph_text_free(uint8_t *bgra);
/* Why text cannot be drawn (the library or the font is missing), never NULL. */
const char *ph_text_error(void);

#endif
