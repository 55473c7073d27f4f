#include "wayland_seat.h"

#include <dlfcn.h>
#include <stdint.h>
#include <string.h>

/* libwayland-client is loaded here, as SDL loads it, only when asked: its display, proxies and interfaces are
 * opaque, and a registry listener is its two callbacks (wayland-client-protocol.h). */
struct wl_display;
struct wl_proxy;
struct wl_interface;

struct registry_listener {
    void (*global)(void *data, struct wl_proxy *registry, uint32_t name, const char *interface, uint32_t version);
    void (*global_remove)(void *data, struct wl_proxy *registry, uint32_t name);
};

static void on_global(void *data, struct wl_proxy *registry, uint32_t name, const char *interface, uint32_t version) {
    (void)registry;
    (void)name;
    (void)version;
    if (strcmp(interface, "wl_seat") == 0) *(int *)data = 1;
}

static void on_global_remove(void *data, struct wl_proxy *registry, uint32_t name) {
    (void)data;
    (void)registry;
    (void)name;
}

/* wl_display's request opcode for get_registry. */
enum { GET_REGISTRY = 1 };

int ph_wayland_without_seat(void) {
    void *lib = dlopen("libwayland-client.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!lib) return 0;
    struct wl_display *(*connect)(const char *) =
        (struct wl_display * (*)(const char *)) dlsym(lib, "wl_display_connect");
    void (*disconnect)(struct wl_display *) = (void (*)(struct wl_display *))dlsym(lib, "wl_display_disconnect");
    int (*roundtrip)(struct wl_display *) = (int (*)(struct wl_display *))dlsym(lib, "wl_display_roundtrip");
    struct wl_proxy *(*make)(struct wl_proxy *, uint32_t, const struct wl_interface *, ...) =
        (struct wl_proxy * (*)(struct wl_proxy *, uint32_t, const struct wl_interface *, ...))
            dlsym(lib, "wl_proxy_marshal_constructor");
    int (*listen)(struct wl_proxy *, void (**)(void), void *) =
        (int (*)(struct wl_proxy *, void (**)(void), void *))dlsym(lib, "wl_proxy_add_listener");
    void (*destroy)(struct wl_proxy *) = (void (*)(struct wl_proxy *))dlsym(lib, "wl_proxy_destroy");
    const struct wl_interface *registry_interface = (const struct wl_interface *)dlsym(lib, "wl_registry_interface");
    int without = 0;
    struct wl_display *display = connect && disconnect && roundtrip && make && listen && destroy && registry_interface
                                     ? connect(NULL)
                                     : NULL;
    if (display) {
        struct wl_proxy *registry = make((struct wl_proxy *)display, GET_REGISTRY, registry_interface, NULL);
        if (registry) {
            static const struct registry_listener listener = {on_global, on_global_remove};
            int seat = 0;
            if (listen(registry, (void (**)(void))&listener, &seat) == 0 && roundtrip(display) >= 0) without = !seat;
            destroy(registry);
        }
        disconnect(display);
    }
    dlclose(lib);
    return without;
}
