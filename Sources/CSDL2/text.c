#include "CSDL2.h"

#include <SDL2/SDL.h>
#include <SDL2/SDL_ttf.h>
#include <dlfcn.h>
#include <fontconfig/fontconfig.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* SDL2_ttf and the two SDL functions it needs, loaded at the first text (SDL2 itself is loaded by then or is
 * loaded here: SDL2_ttf links it). */
#define PH_TTF_FUNCTIONS(X)                                                                                        \
    X(TTF_Init)                                                                                                    \
    X(TTF_OpenFont)                                                                                                \
    X(TTF_CloseFont)                                                                                               \
    X(TTF_SetFontStyle)                                                                                            \
    X(TTF_RenderUTF8_Blended)
#define PH_SDL_SURFACE_FUNCTIONS(X)                                                                                \
    X(SDL_FreeSurface)                                                                                             \
    X(SDL_ConvertSurfaceFormat)                                                                                    \
    X(SDL_GetError)

#define PH_FIELD(name) __typeof__(&name) name;
static struct {
    PH_TTF_FUNCTIONS(PH_FIELD)
    PH_SDL_SURFACE_FUNCTIONS(PH_FIELD)
} ttf;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int ready = 0;
static char failure[512] = "text is not loaded yet";
static char font_path[1024];

/* The file of fontconfig's "sans-serif" (what the desktop uses for interface text), through a dlopen'd fontconfig;
 * 0 when fontconfig is missing or finds nothing. */
static int find_sans_serif(void) {
    void *fc = dlopen("libfontconfig.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!fc) return 0;
    FcConfig *(*init)(void) = (FcConfig * (*)(void)) dlsym(fc, "FcInitLoadConfigAndFonts");
    FcPattern *(*parse)(const FcChar8 *) = (FcPattern * (*)(const FcChar8 *)) dlsym(fc, "FcNameParse");
    FcBool (*substitute)(FcConfig *, FcPattern *, FcMatchKind) =
        (FcBool(*)(FcConfig *, FcPattern *, FcMatchKind))dlsym(fc, "FcConfigSubstitute");
    void (*defaults)(FcPattern *) = (void (*)(FcPattern *))dlsym(fc, "FcDefaultSubstitute");
    FcPattern *(*match)(FcConfig *, FcPattern *, FcResult *) =
        (FcPattern * (*)(FcConfig *, FcPattern *, FcResult *)) dlsym(fc, "FcFontMatch");
    FcResult (*get)(const FcPattern *, const char *, int, FcChar8 **) =
        (FcResult(*)(const FcPattern *, const char *, int, FcChar8 **))dlsym(fc, "FcPatternGetString");
    void (*destroy)(FcPattern *) = (void (*)(FcPattern *))dlsym(fc, "FcPatternDestroy");
    void (*release)(FcConfig *) = (void (*)(FcConfig *))dlsym(fc, "FcConfigDestroy");
    int found = 0;
    FcConfig *config = init && parse && substitute && defaults && match && get && destroy && release ? init() : NULL;
    FcPattern *pattern = config ? parse((const FcChar8 *)"sans-serif") : NULL;
    if (pattern) {
        substitute(config, pattern, FcMatchPattern);
        defaults(pattern);
        FcResult result;
        FcPattern *font = match(config, pattern, &result);
        FcChar8 *file = NULL;
        if (font && get(font, FC_FILE, 0, &file) == FcResultMatch && file) {
            snprintf(font_path, sizeof font_path, "%s", (const char *)file);
            found = 1;
        }
        if (font) destroy(font);
        destroy(pattern);
    }
    if (config) release(config);
    /* fontconfig stays loaded: libass uses it too, and unloading a library with threads or caches is unsafe. */
    return found;
}

static void load(void) {
    void *handle = dlopen("libSDL2_ttf-2.0.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        snprintf(failure, sizeof failure, "cannot load SDL2_ttf: %s", dlerror());
        return;
    }
    void *sdl = dlopen("libSDL2-2.0.so.0", RTLD_NOW | RTLD_LOCAL);
#define PH_RESOLVE_IN(lib, name)                                                                                   \
    ttf.name = lib ? (__typeof__(&name))dlsym(lib, #name) : NULL;                                                  \
    if (!ttf.name) {                                                                                               \
        snprintf(failure, sizeof failure, "cannot draw text: no %s", #name);                                       \
        return;                                                                                                    \
    }
#define PH_RESOLVE_TTF(name) PH_RESOLVE_IN(handle, name)
#define PH_RESOLVE_SDL(name) PH_RESOLVE_IN(sdl, name)
    PH_TTF_FUNCTIONS(PH_RESOLVE_TTF)
    PH_SDL_SURFACE_FUNCTIONS(PH_RESOLVE_SDL)
    if (ttf.TTF_Init() != 0) {
        snprintf(failure, sizeof failure, "cannot start SDL2_ttf: %s", ttf.SDL_GetError());
        return;
    }
    if (!find_sans_serif())
        snprintf(font_path, sizeof font_path, "%s", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf");
    ready = 1;
    failure[0] = 0;
}

/* Fonts opened so far, by size and boldness (the controls use a few). */
static struct {
    int pixels, bold;
    TTF_Font *font;
} fonts[16];
static int font_count = 0;

static TTF_Font *font_for(int pixels, int bold) {
    for (int i = 0; i < font_count; i++)
        if (fonts[i].pixels == pixels && fonts[i].bold == bold) return fonts[i].font;
    TTF_Font *font = ttf.TTF_OpenFont(font_path, pixels);
    if (!font) {
        snprintf(failure, sizeof failure, "cannot open the font %s: %s", font_path, ttf.SDL_GetError());
        return NULL;
    }
    if (bold) ttf.TTF_SetFontStyle(font, TTF_STYLE_BOLD);
    if (font_count == (int)(sizeof fonts / sizeof fonts[0])) {
        ttf.TTF_CloseFont(fonts[0].font);
        memmove(&fonts[0], &fonts[1], sizeof fonts[0] * (size_t)(font_count - 1));
        font_count--;
    }
    fonts[font_count].pixels = pixels;
    fonts[font_count].bold = bold;
    fonts[font_count].font = font;
    font_count++;
    return font;
}

uint8_t *ph_text_render(const char *utf8, int pixels, int bold, int *w, int *h) {
    pthread_once(&once, load);
    *w = 0;
    *h = 0;
    if (!ready || !utf8 || !utf8[0] || pixels < 4 || pixels > 512) return NULL;
    TTF_Font *font = font_for(pixels, bold);
    if (!font) return NULL;
    SDL_Color white = {255, 255, 255, 255};
    SDL_Surface *drawn = ttf.TTF_RenderUTF8_Blended(font, utf8, white);
    if (!drawn) {
        snprintf(failure, sizeof failure, "cannot draw text: %s", ttf.SDL_GetError());
        return NULL;
    }
    /* ARGB8888 is BGRA in memory on this little-endian machine; converting is a copy when it already is. */
    SDL_Surface *argb = ttf.SDL_ConvertSurfaceFormat(drawn, SDL_PIXELFORMAT_ARGB8888, 0);
    ttf.SDL_FreeSurface(drawn);
    if (!argb) return NULL;
    uint8_t *out = malloc((size_t)argb->w * (size_t)argb->h * 4);
    if (out) {
        for (int y = 0; y < argb->h; y++)
            memcpy(out + (size_t)y * (size_t)argb->w * 4, (const uint8_t *)argb->pixels + (size_t)y * (size_t)argb->pitch,
                   (size_t)argb->w * 4);
        *w = argb->w;
        *h = argb->h;
    }
    ttf.SDL_FreeSurface(argb);
    return out;
}

void ph_text_free(uint8_t *bgra) { free(bgra); }

const char *ph_text_error(void) { return failure; }
