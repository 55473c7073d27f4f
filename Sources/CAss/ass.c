#include "CAss.h"

#include <ass/ass.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PH_ASS_FUNCTIONS(X)                                                                                        \
    X(ass_library_init)                                                                                            \
    X(ass_library_done)                                                                                            \
    X(ass_set_message_cb)                                                                                          \
    X(ass_renderer_init)                                                                                           \
    X(ass_renderer_done)                                                                                           \
    X(ass_set_frame_size)                                                                                          \
    X(ass_set_fonts)                                                                                               \
    X(ass_read_memory)                                                                                             \
    X(ass_add_font)                                                                                                \
    X(ass_free_track)                                                                                              \
    X(ass_render_frame)

#define PH_FIELD(name) __typeof__(&name) name;
static struct {
    PH_ASS_FUNCTIONS(PH_FIELD)
} lib;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded = -1;
static char failure[512];

static void load(void) {
    void *handle = dlopen("libass.so.9", RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        snprintf(failure, sizeof failure, "cannot load libass: %s", dlerror());
        return;
    }
#define PH_RESOLVE(name)                                                                                           \
    lib.name = (__typeof__(&name))dlsym(handle, #name);                                                            \
    if (!lib.name) {                                                                                               \
        snprintf(failure, sizeof failure, "libass.so.9 has no %s", #name);                                         \
        return;                                                                                                    \
    }
    PH_ASS_FUNCTIONS(PH_RESOLVE)
    loaded = 0;
}

struct ph_subtitles {
    ASS_Library *library;
    ASS_Renderer *renderer;
    /* Fonts were added since the renderer last looked for fonts. */
    int fonts_added;
    /* The script `ph_subtitles_draw` draws, NULL before the first. */
    ASS_Track *track;
    /* What the last draw rendered (libass's, valid until the next render) and the box it covers. */
    ASS_Image *images;
    int box[4];
};

/* libass reports what it does (fonts chosen, files read) on stderr by default: a library keeps quiet. */
static void quiet(int level, const char *format, va_list args, void *data) {
    (void)level;
    (void)format;
    (void)args;
    (void)data;
}

const char *ph_subtitles_error(void) { return failure[0] ? failure : "libass failed"; }

ph_subtitles *ph_subtitles_create(void) {
    pthread_once(&once, load);
    if (loaded != 0) return NULL;
    ph_subtitles *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->library = lib.ass_library_init();
    if (s->library) lib.ass_set_message_cb(s->library, quiet, NULL);
    s->renderer = s->library ? lib.ass_renderer_init(s->library) : NULL;
    if (!s->renderer) {
        snprintf(failure, sizeof failure, "libass could not start");
        ph_subtitles_destroy(s);
        return NULL;
    }
    lib.ass_set_fonts(s->renderer, NULL, "sans-serif", ASS_FONTPROVIDER_AUTODETECT, NULL, 1);
    return s;
}

void ph_subtitles_destroy(ph_subtitles *s) {
    if (!s) return;
    if (s->track) lib.ass_free_track(s->track);
    if (s->renderer) lib.ass_renderer_done(s->renderer);
    if (s->library) lib.ass_library_done(s->library);
    free(s);
}

/* Paints one ASS bitmap (an alpha mask in one colour) over the straight-alpha BGRA buffer that holds the
 * frame's part `box` (x, y, width, height). */
static void blend(const ASS_Image *image, const int box[4], uint8_t *bgra) {
    uint32_t c = image->color; /* RRGGBBTT, TT transparency */
    unsigned r = c >> 24, g = (c >> 16) & 0xFF, b = (c >> 8) & 0xFF, opacity = 255 - (c & 0xFF);
    int w = box[2], h = box[3];
    for (int y = 0; y < image->h; y++) {
        int dy = image->dst_y + y - box[1];
        if (dy < 0 || dy >= h) continue;
        const uint8_t *mask = image->bitmap + (size_t)y * image->stride;
        uint8_t *row = bgra + (size_t)dy * w * 4;
        for (int x = 0; x < image->w; x++) {
            int dx = image->dst_x + x - box[0];
            if (dx < 0 || dx >= w) continue;
            unsigned a = mask[x] * opacity / 255;
            if (!a) continue;
            uint8_t *p = row + (size_t)dx * 4;
            unsigned da = p[3];
            unsigned oa = a + da * (255 - a) / 255; /* "over" in straight alpha */
            if (!oa) continue;
            p[0] = (uint8_t)((b * a + p[0] * da * (255 - a) / 255) / oa);
            p[1] = (uint8_t)((g * a + p[1] * da * (255 - a) / 255) / oa);
            p[2] = (uint8_t)((r * a + p[2] * da * (255 - a) / 255) / oa);
            p[3] = (uint8_t)oa;
        }
    }
}

void ph_subtitles_add_font(ph_subtitles *s, const char *name, const uint8_t *data, int size) {
    if (!s || !data || size <= 0) return;
    lib.ass_add_font(s->library, name, (const char *)data, size);
    s->fonts_added = 1;
}

int ph_subtitles_load(ph_subtitles *s, const char *script) {
    s->images = NULL;
    if (s->track) lib.ass_free_track(s->track);
    s->track = lib.ass_read_memory(s->library, (char *)script, strlen(script), NULL);
    return s->track ? 0 : -1;
}

int ph_subtitles_draw(ph_subtitles *s, long long ms, int w, int h, int force, int box[4]) {
    box[0] = box[1] = box[2] = box[3] = 0;
    s->images = NULL;
    memset(s->box, 0, sizeof s->box);
    if (!s->track) return -1;
    if (s->fonts_added) {
        /* The renderer takes the library's memory fonts when it looks for fonts: look again. */
        lib.ass_set_fonts(s->renderer, NULL, "sans-serif", ASS_FONTPROVIDER_AUTODETECT, NULL, 1);
        s->fonts_added = 0;
        force = 1;
    }
    lib.ass_set_frame_size(s->renderer, w, h);
    int changed = 0;
    ASS_Image *images = lib.ass_render_frame(s->renderer, s->track, ms, &changed);
    if (!force && changed == 0) return 2;
    /* The box around every bitmap, within the frame. */
    int x0 = w, y0 = h, x1 = 0, y1 = 0;
    for (ASS_Image *image = images; image; image = image->next) {
        if (image->w <= 0 || image->h <= 0) continue;
        int ax = image->dst_x < 0 ? 0 : image->dst_x, ay = image->dst_y < 0 ? 0 : image->dst_y;
        int bx = image->dst_x + image->w > w ? w : image->dst_x + image->w;
        int by = image->dst_y + image->h > h ? h : image->dst_y + image->h;
        if (ax >= bx || ay >= by) continue;
        if (ax < x0) x0 = ax;
        if (ay < y0) y0 = ay;
        if (bx > x1) x1 = bx;
        if (by > y1) y1 = by;
    }
    if (x0 >= x1 || y0 >= y1) return 0;
    s->images = images;
    s->box[0] = box[0] = x0;
    s->box[1] = box[1] = y0;
    s->box[2] = box[2] = x1 - x0;
    s->box[3] = box[3] = y1 - y0;
    return 1;
}

void ph_subtitles_paint(ph_subtitles *s, uint8_t *bgra) {
    memset(bgra, 0, (size_t)s->box[2] * s->box[3] * 4);
    for (ASS_Image *image = s->images; image; image = image->next) blend(image, s->box, bgra);
}
