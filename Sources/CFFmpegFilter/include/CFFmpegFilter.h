#ifndef PLAYHEAD_CFFMPEG_FILTER_H
#define PLAYHEAD_CFFMPEG_FILTER_H

/* libavfilter, loaded on first use with dlopen instead of at process start.
 *
 * Linking libavfilter loads it and the 30-odd libraries it pulls in (speech synthesis, LV2, Vulkan, BLAS...) at
 * every launch, about 25 ms here, while Playhead only needs it to change the speed of playback. These functions have libavfilter's own signatures; `ph_avfilter_load` must have returned 0 before any
 * other is called. Thread safe: the library is loaded once (pthread_once). */

#include <libavfilter/avfilter.h>
#include <libavfilter/buffersink.h>
#include <libavfilter/buffersrc.h>

/* Loads libavfilter and resolves the functions below; 0 on success, else -1 and `ph_avfilter_load_error` says why. */
int ph_avfilter_load(void);
/* Why loading failed (dlerror's text), or NULL. */
const char *ph_avfilter_load_error(void);

AVFilterGraph *ph_avfilter_graph_alloc(void);
void ph_avfilter_graph_free(AVFilterGraph **graph);
const AVFilter *ph_avfilter_get_by_name(const char *name);
int ph_avfilter_graph_create_filter(AVFilterContext **filt_ctx, const AVFilter *filt, const char *name,
                                    const char *args, void *opaque, AVFilterGraph *graph_ctx);
int ph_avfilter_link(AVFilterContext *src, unsigned srcpad, AVFilterContext *dst, unsigned dstpad);
int ph_avfilter_graph_config(AVFilterGraph *graphctx, void *log_ctx);
int ph_av_buffersrc_add_frame_flags(AVFilterContext *ctx, AVFrame *frame, int flags);
int ph_av_buffersink_get_frame(AVFilterContext *ctx, AVFrame *frame);

#endif
