#include "CSDL2.h"
#include "wayland_seat.h"

#include <SDL2/SDL.h>
#include <SDL2/SDL_syswm.h>
#include <dlfcn.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/eventfd.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Each function's pointer, typed from SDL's own prototype (typeof does not reference the symbol). */
#define PH_SDL_FUNCTIONS(X)                                                                                        \
    X(SDL_SetHint)                                                                                                 \
    X(SDL_InitSubSystem)                                                                                           \
    X(SDL_QuitSubSystem)                                                                                           \
    X(SDL_GetError)                                                                                                \
    X(SDL_GetCurrentVideoDriver)                                                                                   \
    X(SDL_WaitEventTimeout)                                                                                        \
    X(SDL_PollEvent)                                                                                               \
    X(SDL_RegisterEvents)                                                                                          \
    X(SDL_PushEvent)                                                                                               \
    X(SDL_CreateWindow)                                                                                            \
    X(SDL_DestroyWindow)                                                                                           \
    X(SDL_GetWindowID)                                                                                             \
    X(SDL_SetWindowTitle)                                                                                          \
    X(SDL_SetWindowFullscreen)                                                                                     \
    X(SDL_GetWindowFlags)                                                                                          \
    X(SDL_RaiseWindow)                                                                                             \
    X(SDL_ShowWindow)                                                                                              \
    X(SDL_GetWindowSize)                                                                                           \
    X(SDL_SetWindowSize)                                                                                           \
    X(SDL_GetWindowPosition)                                                                                       \
    X(SDL_SetWindowPosition)                                                                                       \
    X(SDL_HideWindow)                                                                                              \
    X(SDL_MinimizeWindow)                                                                                          \
    X(SDL_RestoreWindow)                                                                                           \
    X(SDL_SetWindowBordered)                                                                                       \
    X(SDL_SetWindowHitTest)                                                                                        \
    X(SDL_RenderSetClipRect)                                                                                       \
    X(SDL_SetWindowMinimumSize)                                                                                    \
    X(SDL_CreateRenderer)                                                                                          \
    X(SDL_DestroyRenderer)                                                                                         \
    X(SDL_GetRendererInfo)                                                                                         \
    X(SDL_GetRendererOutputSize)                                                                                   \
    X(SDL_CreateTexture)                                                                                           \
    X(SDL_DestroyTexture)                                                                                          \
    X(SDL_UpdateTexture)                                                                                           \
    X(SDL_UpdateYUVTexture)                                                                                        \
    X(SDL_UpdateNVTexture)                                                                                         \
    X(SDL_LockTexture)                                                                                             \
    X(SDL_UnlockTexture)                                                                                           \
    X(SDL_SetYUVConversionMode)                                                                                    \
    X(SDL_SetRenderDrawColor)                                                                                      \
    X(SDL_RenderClear)                                                                                             \
    X(SDL_RenderCopyEx)                                                                                            \
    X(SDL_SetTextureBlendMode)                                                                                     \
    X(SDL_RenderPresent)                                                                                           \
    X(SDL_GetDisplayUsableBounds)                                                                                  \
    X(SDL_GetWindowWMInfo)                                                                                          \
    X(SDL_GL_GetProcAddress)                                                                                       \
    X(SDL_GetVersion)

#define PH_FIELD(name) __typeof__(&name) name;
static struct {
    PH_SDL_FUNCTIONS(PH_FIELD)
} lib;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded = -1;
static char failure[512];
static uint32_t wake_event = (uint32_t)-1;
/* Set (on the display thread, inside Xlib) when the X server connection broke, or (on the display thread, after a
 * wait) when the Wayland connection failed. */
static volatile int display_lost = 0;
/* The Wayland connection of the windows and libwayland-client's wl_display_get_error (its errno once the
 * connection failed: the compositor went away), found when the first Wayland window opens. Display thread. */
static struct wl_display *wayland_display = NULL;
static int (*wayland_error)(struct wl_display *) = NULL;
static int exit_handler_set = 0;
/* On X11, the display thread waits in poll() on the X connection and `wake_fd` instead of in SDL: SDL's own
 * wake-up from other threads goes through a second X connection (a message through the server for each wake),
 * whose loss Xlib answers with exit(1). -1 until the first X11 window is open. */
static atomic_int x_fd = -1;
static int wake_fd = -1;
/* Set (release) once SDL, `wake_event` and `wake_fd` are ready: other threads' wakes read them after it (acquire). */
static atomic_int wake_ready = 0;

static void load(void) {
    void *handle = dlopen("libSDL2-2.0.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        snprintf(failure, sizeof failure, "cannot load SDL2: %s", dlerror());
        return;
    }
#define PH_RESOLVE(name)                                                                                           \
    lib.name = (__typeof__(&name))dlsym(handle, #name);                                                            \
    if (!lib.name) {                                                                                               \
        snprintf(failure, sizeof failure, "libSDL2-2.0.so.0 has no %s", #name);                                    \
        return;                                                                                                    \
    }
    PH_SDL_FUNCTIONS(PH_RESOLVE)
    loaded = 0;
}

/* SDL 2 before 2.30 crashes starting its Wayland driver on a compositor that offers no seat (SDL issue 8898):
 * such a compositor is not tried. Leaves in *drivers the drivers to try ("x11" alone when it was listed among
 * them); -1 (the reason in `failure`) when none is left. */
static int skip_seatless_wayland(const char **drivers, const char *user) {
    SDL_version version;
    lib.SDL_GetVersion(&version);
    const char *tried = user ? user : *drivers;
    if (version.minor >= 30 || !tried || !strstr(tried, "wayland") || !ph_wayland_without_seat()) return 0;
    if (!user && strstr(*drivers, "x11")) {
        *drivers = "x11";
        return 0;
    }
    snprintf(failure, sizeof failure,
             "the Wayland compositor offers no seat (no input), and SDL %d.%d.%d crashes there", version.major,
             version.minor, version.patch);
    return -1;
}

int ph_sdl_start(const char *drivers) {
    pthread_once(&once, load);
    if (loaded != 0) return -1;
    failure[0] = 0;
    const char *user = getenv("SDL_VIDEODRIVER");
    if (skip_seatless_wayland(&drivers, user) != 0) return -1;
    if (drivers && !user) lib.SDL_SetHint(SDL_HINT_VIDEODRIVER, drivers);
    /* The process keeps its own SIGINT/SIGTERM handling; a composited desktop stays composited; a click that
     * focuses the window also reaches the controls; scaled pictures are filtered. SDL keeps the screensaver off
     * while its video runs (a window is open) and lets it on again when it stops. */
    lib.SDL_SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "1");
    lib.SDL_SetHint(SDL_HINT_VIDEO_X11_NET_WM_BYPASS_COMPOSITOR, "0");
    lib.SDL_SetHint(SDL_HINT_MOUSE_FOCUS_CLICKTHROUGH, "1");
    lib.SDL_SetHint(SDL_HINT_RENDER_SCALE_QUALITY, "linear");
    lib.SDL_SetHint("SDL_QUIT_ON_LAST_WINDOW_CLOSE", "0");
    if (lib.SDL_InitSubSystem(SDL_INIT_VIDEO) != 0) {
        snprintf(failure, sizeof failure, "%s", lib.SDL_GetError());
        return -1;
    }
    if (wake_event == (uint32_t)-1) wake_event = lib.SDL_RegisterEvents(1);
    if (wake_fd < 0) wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    atomic_store_explicit(&wake_ready, 1, memory_order_release);
    return 0;
}

void ph_sdl_stop(void) {
    atomic_store(&x_fd, -1);
    wayland_display = NULL;
    if (loaded == 0) lib.SDL_QuitSubSystem(SDL_INIT_VIDEO);
    exit_handler_set = 0;
}

const char *ph_sdl_error(void) {
    if (failure[0]) return failure;
    return loaded == 0 ? lib.SDL_GetError() : "SDL2 is not loaded";
}

const char *ph_sdl_driver(void) {
    const char *name = loaded == 0 ? lib.SDL_GetCurrentVideoDriver() : NULL;
    return name ? name : "none";
}

int ph_sdl_usable_bounds(int *w, int *h) {
    SDL_Rect r;
    if (lib.SDL_GetDisplayUsableBounds(0, &r) != 0) return -1;
    *w = r.w;
    *h = r.h;
    return 0;
}

int ph_sdl_display_lost(void) {
    /* SDL 2 keeps going on a failed Wayland connection (its calls do nothing), sending at most an SDL_QUIT: the
     * connection's own error says it is gone. */
    if (!display_lost && wayland_display && wayland_error && wayland_error(wayland_display) != 0) display_lost = 1;
    return display_lost;
}

/* Xlib calls this after an I/O error on the connection instead of exit(1); it returns, the connection stays dead
 * (Xlib's calls on it do nothing) and the display thread gives up its windows. */
static void x_connection_lost(Display *display, void *data) {
    (void)display;
    (void)data;
    display_lost = 1;
}

/* Xlib reports a request that failed (one naming a window destroyed meanwhile: BadWindow, as SDL's handling of a
 * ConfigureNotify for a window being closed can send) to this handler. Xlib's default one prints and calls exit(1),
 * and SDL's safety net ends in that default: a race in the window system ended the whole program. A failed request
 * about a window that is gone is harmless: counted and ignored, as mpv and GTK do. */
static atomic_int x_request_errors = 0;

static int x_request_error(Display *display, XErrorEvent *event) {
    (void)display;
    (void)event;
    atomic_fetch_add(&x_request_errors, 1);
    return 0;
}

int ph_x_request_errors(void) { return atomic_load(&x_request_errors); }

static int x_io_error(Display *display) {
    (void)display;
    display_lost = 1;
    return 0;
}

/* Keeps a broken X connection from ending the process (Xlib's default is exit(1)), and waits on the connection
 * itself from now on. On Wayland, keeps the connection to ask it whether it failed (libwayland-client never ends
 * the process). */
static void survive_connection_loss(SDL_Window *window) {
    if (exit_handler_set) return;
    SDL_SysWMinfo info;
    SDL_VERSION(&info.version);
    if (!lib.SDL_GetWindowWMInfo(window, &info)) return;
    if (info.subsystem == SDL_SYSWM_WAYLAND) {
        void *wayland = dlopen("libwayland-client.so.0", RTLD_NOW | RTLD_NOLOAD);
        wayland_error = wayland ? (int (*)(struct wl_display *))dlsym(wayland, "wl_display_get_error") : NULL;
        wayland_display = info.info.wl.display;
        /* SDL holds the library loaded while its video runs. */
        if (wayland) dlclose(wayland);
        exit_handler_set = 1;
        return;
    }
    if (info.subsystem != SDL_SYSWM_X11) return;
    void *x11 = dlopen("libX11.so.6", RTLD_NOW | RTLD_NOLOAD);
    void (*set)(Display *, XIOErrorExitHandler, void *) =
        x11 ? (void (*)(Display *, XIOErrorExitHandler, void *))dlsym(x11, "XSetIOErrorExitHandler") : NULL;
    int (*number)(Display *) = x11 ? (int (*)(Display *))dlsym(x11, "XConnectionNumber") : NULL;
    XIOErrorHandler (*set_handler)(XIOErrorHandler) =
        x11 ? (XIOErrorHandler(*)(XIOErrorHandler))dlsym(x11, "XSetIOErrorHandler") : NULL;
    XErrorHandler (*set_error_handler)(XErrorHandler) =
        x11 ? (XErrorHandler(*)(XErrorHandler))dlsym(x11, "XSetErrorHandler") : NULL;
    if (set_error_handler) set_error_handler(x_request_error);
    if (set && number && set_handler && wake_fd >= 0) {
        /* Xlib's default I/O error handler prints and calls exit(1) itself; ours returns, so the exit handler
         * below is called next, and returns too. */
        set_handler(x_io_error);
        set(info.info.x11.display, x_connection_lost, NULL);
        exit_handler_set = 1;
        atomic_store(&x_fd, number(info.info.x11.display));
    }
    if (x11) dlclose(x11);
}

void ph_sdl_wake(void) {
    if (!atomic_load_explicit(&wake_ready, memory_order_acquire)) return;
    if (wake_fd >= 0) {
        uint64_t one = 1;
        ssize_t written = write(wake_fd, &one, sizeof one);
        (void)written; /* a full counter still wakes */
    }
    if (atomic_load(&x_fd) >= 0) return;
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = wake_event;
    lib.SDL_PushEvent(&e);
}

static void decode_window_event(const SDL_WindowEvent *w, ph_sdl_event *out) {
    out->window = w->windowID;
    switch (w->event) {
    case SDL_WINDOWEVENT_CLOSE: out->kind = PH_EVENT_CLOSE; break;
    case SDL_WINDOWEVENT_SIZE_CHANGED:
        out->kind = PH_EVENT_RESIZED;
        out->x = w->data1;
        out->y = w->data2;
        break;
    case SDL_WINDOWEVENT_EXPOSED: out->kind = PH_EVENT_EXPOSED; break;
    case SDL_WINDOWEVENT_SHOWN:
    case SDL_WINDOWEVENT_RESTORED: out->kind = PH_EVENT_SHOWN; break;
    case SDL_WINDOWEVENT_HIDDEN:
    case SDL_WINDOWEVENT_MINIMIZED: out->kind = PH_EVENT_HIDDEN; break;
    case SDL_WINDOWEVENT_LEAVE: out->kind = PH_EVENT_LEAVE; break;
    default: out->kind = PH_EVENT_OTHER; break;
    }
}

/* Waits for an SDL event or a wake on the X connection and the wake counter; 1 with `e` filled, 0 on a time-out, and
 * PH_EVENT_WAKE (returned as 2) for a wake. */
static int wait_on_x(SDL_Event *e, int timeout_ms) {
    while (!display_lost) {
        if (lib.SDL_PollEvent(e)) return 1;
        struct pollfd fds[2] = {{.fd = atomic_load(&x_fd), .events = POLLIN}, {.fd = wake_fd, .events = POLLIN}};
        int ready = poll(fds, 2, timeout_ms);
        if (ready == 0) return 0;
        if (ready < 0) continue; /* EINTR */
        if (fds[1].revents & POLLIN) {
            uint64_t count;
            ssize_t got = read(wake_fd, &count, sizeof count);
            (void)got;
            return 2;
        }
        if (fds[0].revents & (POLLHUP | POLLERR | POLLNVAL)) {
            /* Let Xlib see the broken connection (it calls x_connection_lost). */
            lib.SDL_PollEvent(e);
            return 0;
        }
    }
    return 0;
}

int ph_sdl_wait(ph_sdl_event *out, int timeout_ms) {
    SDL_Event e;
    memset(out, 0, sizeof *out);
    if (atomic_load(&x_fd) >= 0) {
        int got = wait_on_x(&e, timeout_ms);
        if (got == 0) return display_lost ? (out->kind = PH_EVENT_QUIT, 1) : 0;
        if (got == 2) {
            out->kind = PH_EVENT_WAKE;
            return 1;
        }
    } else if (!lib.SDL_WaitEventTimeout(&e, timeout_ms < 0 ? -1 : timeout_ms)) {
        return 0;
    }
    if (e.type == wake_event) {
        out->kind = PH_EVENT_WAKE;
        return 1;
    }
    switch (e.type) {
    case SDL_QUIT: out->kind = PH_EVENT_QUIT; break;
    case SDL_WINDOWEVENT: decode_window_event(&e.window, out); break;
    case SDL_KEYDOWN:
        out->kind = PH_EVENT_KEY;
        out->window = e.key.windowID;
        out->key = e.key.keysym.sym;
        out->mod = e.key.keysym.mod;
        break;
    case SDL_TEXTINPUT:
        out->kind = PH_EVENT_TEXT;
        out->window = e.text.windowID;
        snprintf(out->text, sizeof out->text, "%s", e.text.text);
        break;
    case SDL_MOUSEBUTTONDOWN:
    case SDL_MOUSEBUTTONUP:
        out->kind = e.type == SDL_MOUSEBUTTONDOWN ? PH_EVENT_BUTTON_DOWN : PH_EVENT_BUTTON_UP;
        out->window = e.button.windowID;
        out->x = e.button.x;
        out->y = e.button.y;
        out->button = e.button.button;
        out->clicks = e.button.clicks;
        break;
    case SDL_MOUSEMOTION:
        out->kind = PH_EVENT_MOTION;
        out->window = e.motion.windowID;
        out->x = e.motion.x;
        out->y = e.motion.y;
        break;
    case SDL_MOUSEWHEEL:
        out->kind = PH_EVENT_WHEEL;
        out->window = e.wheel.windowID;
        out->x = e.wheel.x;
        out->y = e.wheel.y;
        break;
    default: out->kind = PH_EVENT_OTHER; break;
    }
    return 1;
}

struct ph_window {
    SDL_Window *window;
    SDL_Renderer *renderer;
    SDL_Texture *texture;
    int layout, matrix, w, h;
    /* The rows of the picture texture made by ph_window_lock_picture (h, or one more). */
    int rows;
    char renderer_name[32];
    int max_texture_w, max_texture_h;
    struct overlay {
        SDL_Texture *texture;
        int w, h, on;
        SDL_Rect rect;
    } overlays[PH_OVERLAY_COUNT];
    /* A floating window (ph_window_make_floating): the width of its resizing edges, and the areas where a press
     * is a click (buttons), not the start of a drag. */
    int edge;
    /* The part of the window pictures are drawn in (a layer's frame); w 0: all of it. */
    SDL_Rect video_area;
    SDL_Rect clickable[PH_CLICKABLE_MAX];
    int clickable_count;
};

/* Whether the GL context just made current renders on the CPU (Mesa's llvmpipe or softpipe, "Software
 * Rasterizer"). */
static int gl_without_gpu(void) {
    const unsigned char *(*get_string)(unsigned int) =
        (const unsigned char *(*)(unsigned int))lib.SDL_GL_GetProcAddress("glGetString");
    const char *name = get_string ? (const char *)get_string(0x1F01 /* GL_RENDERER */) : NULL;
    if (!name) return 0;
    return strstr(name, "llvmpipe") || strstr(name, "softpipe") || strstr(name, "Software Rasterizer");
}

int ph_window_scales_on_cpu(const ph_window *window) { return strcmp(window->renderer_name, "software") == 0; }

ph_window *ph_window_create(const char *title, int x, int y, int w, int h, int fullscreen, int on_top, int hidden,
                            int borderless) {
    Uint32 flags = SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI | (hidden ? SDL_WINDOW_HIDDEN : SDL_WINDOW_SHOWN);
    if (fullscreen) flags |= SDL_WINDOW_FULLSCREEN_DESKTOP;
    /* Without decorations from its first mapping: taking them off later lets a window manager move it (Openbox
     * kept the frame's place and the window landed 20 pixels off the corner asked for). */
    if (borderless) flags |= SDL_WINDOW_BORDERLESS;
    if (on_top) flags |= SDL_WINDOW_ALWAYS_ON_TOP;
    int px = x == INT32_MIN ? (int)SDL_WINDOWPOS_UNDEFINED : x;
    int py = y == INT32_MIN ? (int)SDL_WINDOWPOS_UNDEFINED : y;
    SDL_Window *window = lib.SDL_CreateWindow(title, px, py, w, h, flags);
    if (!window) return NULL;
    SDL_Renderer *renderer = lib.SDL_CreateRenderer(window, -1, SDL_RENDERER_ACCELERATED);
    if (renderer && !getenv("SDL_RENDER_DRIVER") && gl_without_gpu()) {
        /* Mesa's llvmpipe runs SDL's YUV shaders on the CPU, slower than swscale's SIMD: draw in software. */
        lib.SDL_DestroyRenderer(renderer);
        renderer = NULL;
    }
    if (!renderer) {
        /* The software renderer's picture goes to the X server as it is (shared memory), not through GL again.
         * Wayland has no such path in SDL 2: its window surface is a texture of a GL renderer, which that hint
         * would forbid ("Couldn't find matching render driver"). */
        const char *driver = lib.SDL_GetCurrentVideoDriver();
        if (driver && strcmp(driver, "x11") == 0) lib.SDL_SetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0");
        renderer = lib.SDL_CreateRenderer(window, -1, SDL_RENDERER_SOFTWARE);
    }
    if (!renderer) {
        lib.SDL_DestroyWindow(window);
        return NULL;
    }
    ph_window *made = calloc(1, sizeof *made);
    if (!made) {
        lib.SDL_DestroyRenderer(renderer);
        lib.SDL_DestroyWindow(window);
        snprintf(failure, sizeof failure, "out of memory");
        return NULL;
    }
    survive_connection_loss(window);
    made->window = window;
    made->renderer = renderer;
    made->layout = -1;
    SDL_RendererInfo info;
    if (lib.SDL_GetRendererInfo(renderer, &info) == 0) {
        if (info.name) snprintf(made->renderer_name, sizeof made->renderer_name, "%s", info.name);
        made->max_texture_w = info.max_texture_width;
        made->max_texture_h = info.max_texture_height;
    }
    lib.SDL_SetWindowMinimumSize(window, 64, 36);
    return made;
}

void ph_window_destroy(ph_window *window) {
    if (!window) return;
    if (window->texture) lib.SDL_DestroyTexture(window->texture);
    for (int i = 0; i < PH_OVERLAY_COUNT; i++)
        if (window->overlays[i].texture) lib.SDL_DestroyTexture(window->overlays[i].texture);
    lib.SDL_DestroyRenderer(window->renderer);
    lib.SDL_DestroyWindow(window->window);
    free(window);
}

uint32_t ph_window_id(const ph_window *window) { return lib.SDL_GetWindowID(window->window); }
const char *ph_window_renderer(const ph_window *window) { return window->renderer_name; }

void ph_window_max_texture(const ph_window *window, int *w, int *h) {
    *w = window->max_texture_w;
    *h = window->max_texture_h;
}
void ph_window_set_title(ph_window *window, const char *title) { lib.SDL_SetWindowTitle(window->window, title); }

int ph_window_set_fullscreen(ph_window *window, int on) {
    return lib.SDL_SetWindowFullscreen(window->window, on ? SDL_WINDOW_FULLSCREEN_DESKTOP : 0);
}

int ph_window_is_fullscreen(const ph_window *window) {
    return (lib.SDL_GetWindowFlags(window->window) & SDL_WINDOW_FULLSCREEN) != 0;
}

void ph_window_raise(ph_window *window) {
    /* A minimized window is restored first: raising it alone leaves it in the taskbar. */
    if (lib.SDL_GetWindowFlags(window->window) & SDL_WINDOW_MINIMIZED) lib.SDL_RestoreWindow(window->window);
    lib.SDL_RaiseWindow(window->window);
}
void ph_window_show(ph_window *window) { lib.SDL_ShowWindow(window->window); }
void ph_window_size(const ph_window *window, int *w, int *h) { lib.SDL_GetWindowSize(window->window, w, h); }
void ph_window_set_size(ph_window *window, int w, int h) { lib.SDL_SetWindowSize(window->window, w, h); }
void ph_window_position(const ph_window *window, int *x, int *y) { lib.SDL_GetWindowPosition(window->window, x, y); }

void ph_window_drawable_size(const ph_window *window, int *w, int *h) {
    if (lib.SDL_GetRendererOutputSize(window->renderer, w, h) != 0) lib.SDL_GetWindowSize(window->window, w, h);
}

static SDL_YUV_CONVERSION_MODE conversion(int matrix) {
    switch (matrix) {
    case PH_MATRIX_BT709: return SDL_YUV_CONVERSION_BT709;
    case PH_MATRIX_JPEG: return SDL_YUV_CONVERSION_JPEG;
    default: return SDL_YUV_CONVERSION_BT601;
    }
}

int ph_window_upload(ph_window *window, int layout, int matrix, int w, int h, const uint8_t *const planes[3],
                     const int pitches[3]) {
    /* SDL reads the conversion mode when it makes a texture (its shaders) and when it converts (software). */
    lib.SDL_SetYUVConversionMode(conversion(matrix));
    if (!window->texture || window->layout != layout || window->matrix != matrix || window->w != w ||
        window->h != h) {
        if (window->texture) lib.SDL_DestroyTexture(window->texture);
        Uint32 format = layout == PH_PICTURE_I420   ? SDL_PIXELFORMAT_IYUV
                        : layout == PH_PICTURE_NV12 ? SDL_PIXELFORMAT_NV12
                                                    : SDL_PIXELFORMAT_ARGB8888;
        window->texture = lib.SDL_CreateTexture(window->renderer, format, SDL_TEXTUREACCESS_STREAMING, w, h);
        window->layout = window->texture ? layout : -1;
        window->matrix = matrix;
        window->w = w;
        window->h = h;
        if (!window->texture) return -1;
    }
    switch (layout) {
    case PH_PICTURE_I420:
        return lib.SDL_UpdateYUVTexture(window->texture, NULL, planes[0], pitches[0], planes[1], pitches[1],
                                        planes[2], pitches[2]);
    case PH_PICTURE_NV12:
        return lib.SDL_UpdateNVTexture(window->texture, NULL, planes[0], pitches[0], planes[1], pitches[1]);
    default: return lib.SDL_UpdateTexture(window->texture, NULL, planes[0], pitches[0]);
    }
}

int ph_window_lock_picture(ph_window *window, int w, int h, uint8_t **pixels, int *pitch, int *rows) {
    if (!window->texture || window->layout != PH_PICTURE_BGRA || window->w != w || window->h != h) {
        if (window->texture) lib.SDL_DestroyTexture(window->texture);
        /* Wider than the picture by up to 15 pixels and a row higher when h is odd (swscale writes rows in blocks
         * of 16 and converts fast at even sizes; the rest is not drawn), in the format of SDL's X11 window surfaces
         * (XRGB, the X byte ignored), copied without blending. */
        int padded = (w + 15) / 16 * 16;
        int high = (h + 1) / 2 * 2;
        if (window->max_texture_w > 0 && padded > window->max_texture_w) padded = w;
        if (window->max_texture_h > 0 && high > window->max_texture_h) high = h;
        window->texture = lib.SDL_CreateTexture(window->renderer, SDL_PIXELFORMAT_RGB888,
                                                SDL_TEXTUREACCESS_STREAMING, padded, high);
        window->rows = high;
        if (window->texture) lib.SDL_SetTextureBlendMode(window->texture, SDL_BLENDMODE_NONE);
        window->layout = window->texture ? PH_PICTURE_BGRA : -1;
        window->matrix = PH_MATRIX_BT601;
        window->w = w;
        window->h = h;
        if (!window->texture) return -1;
    }
    void *p = NULL;
    if (lib.SDL_LockTexture(window->texture, NULL, &p, pitch) != 0) return -1;
    *pixels = p;
    *rows = window->rows;
    return 0;
}

void ph_window_unlock_picture(ph_window *window) {
    if (window->texture) lib.SDL_UnlockTexture(window->texture);
}

int ph_window_draw(ph_window *window, int picture, int sx, int sy, int sw, int sh, int dx, int dy, int dw, int dh,
                   int degrees, uint8_t r, uint8_t g, uint8_t b) {
    /* A picture covering the whole window is drawn over every pixel: no background first. */
    int out_w = 0, out_h = 0;
    lib.SDL_GetRendererOutputSize(window->renderer, &out_w, &out_h);
    int covered = picture && window->texture && degrees % 180 == 0 && dx <= 0 && dy <= 0 && dx + dw >= out_w &&
                  dy + dh >= out_h;
    lib.SDL_SetRenderDrawColor(window->renderer, r, g, b, 255);
    int result = covered ? 0 : lib.SDL_RenderClear(window->renderer);
    if (picture && window->texture) {
        lib.SDL_SetYUVConversionMode(conversion(window->matrix));
        SDL_Rect source = {sx, sy, sw, sh};
        SDL_Rect destination = {dx, dy, dw, dh};
        if (window->video_area.w > 0) lib.SDL_RenderSetClipRect(window->renderer, &window->video_area);
        result |= lib.SDL_RenderCopyEx(window->renderer, window->texture, &source, &destination, degrees, NULL,
                                       SDL_FLIP_NONE);
        if (window->video_area.w > 0) lib.SDL_RenderSetClipRect(window->renderer, NULL);
    }
    for (int i = 0; i < PH_OVERLAY_COUNT; i++) {
        struct overlay *o = &window->overlays[i];
        if (o->on && o->texture)
            result |= lib.SDL_RenderCopyEx(window->renderer, o->texture, NULL, &o->rect, 0, NULL, SDL_FLIP_NONE);
    }
    lib.SDL_RenderPresent(window->renderer);
    return result;
}

int ph_window_set_overlay(ph_window *window, int slot, const uint8_t *bgra, int w, int h, int x, int y) {
    if (slot < 0 || slot >= PH_OVERLAY_COUNT) return -1;
    struct overlay *o = &window->overlays[slot];
    o->on = 0;
    if (!bgra || w <= 0 || h <= 0) return 0;
    if (!o->texture || o->w != w || o->h != h) {
        if (o->texture) lib.SDL_DestroyTexture(o->texture);
        o->texture = lib.SDL_CreateTexture(window->renderer, SDL_PIXELFORMAT_ARGB8888, SDL_TEXTUREACCESS_STREAMING,
                                           w, h);
        if (!o->texture) return -1;
        lib.SDL_SetTextureBlendMode(o->texture, SDL_BLENDMODE_BLEND);
        o->w = w;
        o->h = h;
    }
    if (lib.SDL_UpdateTexture(o->texture, NULL, bgra, w * 4) != 0) return -1;
    o->rect = (SDL_Rect){x, y, w, h};
    o->on = 1;
    return 0;
}

void ph_window_set_video_area(ph_window *window, int x, int y, int w, int h) {
    window->video_area = (SDL_Rect){x, y, w > 0 ? w : 0, h > 0 ? h : 0};
}

void ph_window_set_position(ph_window *window, int x, int y) { lib.SDL_SetWindowPosition(window->window, x, y); }
void ph_window_hide(ph_window *window) { lib.SDL_HideWindow(window->window); }
void ph_window_minimize(ph_window *window) { lib.SDL_MinimizeWindow(window->window); }
void ph_window_restore(ph_window *window) { lib.SDL_RestoreWindow(window->window); }

int ph_window_is_hidden(const ph_window *window) {
    return (lib.SDL_GetWindowFlags(window->window) & (SDL_WINDOW_HIDDEN | SDL_WINDOW_MINIMIZED)) != 0;
}

int ph_window_is_on_top(const ph_window *window) {
    return (lib.SDL_GetWindowFlags(window->window) & SDL_WINDOW_ALWAYS_ON_TOP) != 0;
}

/* Dragging anywhere but on its buttons moves a floating window; its edges and corners resize it. On the display
 * thread (SDL calls it while handling a button press). */
static SDL_HitTestResult floating_hit_test(SDL_Window *sdl_window, const SDL_Point *p, void *data) {
    const ph_window *window = data;
    int edge = window->edge, w = 0, h = 0;
    for (int i = 0; i < window->clickable_count; i++) {
        const SDL_Rect *r = &window->clickable[i];
        if (p->x >= r->x && p->x < r->x + r->w && p->y >= r->y && p->y < r->y + r->h) return SDL_HITTEST_NORMAL;
    }
    lib.SDL_GetWindowSize(sdl_window, &w, &h);
    int left = p->x < edge, right = p->x >= w - edge, top = p->y < edge, bottom = p->y >= h - edge;
    if (top && left) return SDL_HITTEST_RESIZE_TOPLEFT;
    if (top && right) return SDL_HITTEST_RESIZE_TOPRIGHT;
    if (bottom && left) return SDL_HITTEST_RESIZE_BOTTOMLEFT;
    if (bottom && right) return SDL_HITTEST_RESIZE_BOTTOMRIGHT;
    if (top) return SDL_HITTEST_RESIZE_TOP;
    if (bottom) return SDL_HITTEST_RESIZE_BOTTOM;
    if (left) return SDL_HITTEST_RESIZE_LEFT;
    if (right) return SDL_HITTEST_RESIZE_RIGHT;
    return SDL_HITTEST_DRAGGABLE;
}

int ph_window_make_floating(ph_window *window, int edge) {
    window->edge = edge;
    lib.SDL_SetWindowBordered(window->window, SDL_FALSE);
    return lib.SDL_SetWindowHitTest(window->window, floating_hit_test, window);
}

void ph_window_set_clickable(ph_window *window, const int *xywh, int count) {
    if (count > PH_CLICKABLE_MAX) count = PH_CLICKABLE_MAX;
    for (int i = 0; i < count; i++) {
        window->clickable[i] = (SDL_Rect){xywh[4 * i], xywh[4 * i + 1], xywh[4 * i + 2], xywh[4 * i + 3]};
    }
    window->clickable_count = count < 0 ? 0 : count;
}
