#include "CFFmpegFilter.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#define PH_STRINGIFY2(x) #x
#define PH_STRINGIFY(x) PH_STRINGIFY2(x)

/* Each function's pointer, typed from libavfilter's own prototype (typeof does not reference the symbol). */
#define PH_FILTER_FUNCTIONS(X)                                                                                     \
    X(avfilter_graph_alloc)                                                                                        \
    X(avfilter_graph_free)                                                                                         \
    X(avfilter_get_by_name)                                                                                        \
    X(avfilter_graph_create_filter)                                                                                \
    X(avfilter_link)                                                                                               \
    X(avfilter_graph_config)                                                                                       \
    X(av_buffersrc_add_frame_flags)                                                                                \
    X(av_buffersink_get_frame)

#define PH_FIELD(name) __typeof__(&name) name;
static struct {
    PH_FILTER_FUNCTIONS(PH_FIELD)
} lib;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded = -1;
static char failure[512];

static void load(void) {
    const char *soname = "libavfilter.so." PH_STRINGIFY(LIBAVFILTER_VERSION_MAJOR);
    void *handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        snprintf(failure, sizeof failure, "%s", dlerror());
        return;
    }
#define PH_RESOLVE(name)                                                                                           \
    lib.name = (__typeof__(&name))dlsym(handle, #name);                                                            \
    if (!lib.name) {                                                                                               \
        snprintf(failure, sizeof failure, "%s has no %s", soname, #name);                                          \
        return;                                                                                                    \
    }
    PH_FILTER_FUNCTIONS(PH_RESOLVE)
    loaded = 0;
}

int ph_avfilter_load(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *ph_avfilter_load_error(void) { return failure[0] ? failure : NULL; }

AVFilterGraph *ph_avfilter_graph_alloc(void) { return lib.avfilter_graph_alloc(); }
void ph_avfilter_graph_free(AVFilterGraph **graph) { lib.avfilter_graph_free(graph); }
const AVFilter *ph_avfilter_get_by_name(const char *name) { return lib.avfilter_get_by_name(name); }
int ph_avfilter_graph_create_filter(AVFilterContext **filt_ctx, const AVFilter *filt, const char *name,
                                    const char *args, void *opaque, AVFilterGraph *graph_ctx) {
    return lib.avfilter_graph_create_filter(filt_ctx, filt, name, args, opaque, graph_ctx);
}
int ph_avfilter_link(AVFilterContext *src, unsigned srcpad, AVFilterContext *dst, unsigned dstpad) {
    return lib.avfilter_link(src, srcpad, dst, dstpad);
}
int ph_avfilter_graph_config(AVFilterGraph *graphctx, void *log_ctx) {
    return lib.avfilter_graph_config(graphctx, log_ctx);
}
int ph_av_buffersrc_add_frame_flags(AVFilterContext *ctx, AVFrame *frame, int flags) {
    return lib.av_buffersrc_add_frame_flags(ctx, frame, flags);
}
int ph_av_buffersink_get_frame(AVFilterContext *ctx, AVFrame *frame) { return lib.av_buffersink_get_frame(ctx, frame); }
