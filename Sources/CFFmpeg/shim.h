#ifndef PLAYHEAD_CFFMPEG_SHIM_H
#define PLAYHEAD_CFFMPEG_SHIM_H

#include <libavformat/avformat.h>
#include <libavformat/avio.h>
#include <libavcodec/avcodec.h>
#include <libavutil/aes.h>
#include <libavutil/avutil.h>
#include <libavutil/opt.h>
#include <libavutil/channel_layout.h>
#include <libavutil/dict.h>
#include <libavutil/display.h>
#include <libavutil/replaygain.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libavutil/log.h>
#include <libavutil/samplefmt.h>
#include <libswresample/swresample.h>
#include <libswscale/swscale.h>

/* Macros Swift cannot import, as functions. */
static inline int ph_averror(int e) { return AVERROR(e); }
static inline int ph_averror_eof(void) { return AVERROR_EOF; }
static inline int ph_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int ph_averror_exit(void) { return AVERROR_EXIT; }
static inline int ph_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }
static inline int ph_averror_decoder_not_found(void) { return AVERROR_DECODER_NOT_FOUND; }
static inline int ph_averror_http_not_found(void) { return AVERROR_HTTP_NOT_FOUND; }
static inline int ph_averror_http_forbidden(void) { return AVERROR_HTTP_FORBIDDEN; }
static inline int ph_averror_http_other_4xx(void) { return AVERROR_HTTP_OTHER_4XX; }
static inline int ph_averror_http_server_error(void) { return AVERROR_HTTP_SERVER_ERROR; }
static inline int64_t ph_nopts_value(void) { return AV_NOPTS_VALUE; }
static inline AVRational ph_time_base_q(void) { return AV_TIME_BASE_Q; }
static inline int ph_time_base(void) { return AV_TIME_BASE; }
static inline int ph_seek_flag_backward(void) { return AVSEEK_FLAG_BACKWARD; }
static inline int ph_seek_flag_any(void) { return AVSEEK_FLAG_ANY; }
static inline int ph_avseek_size(void) { return AVSEEK_SIZE; }
static inline int ph_pkt_flag_key(void) { return AV_PKT_FLAG_KEY; }
static inline int ph_disposition_attached_pic(void) { return AV_DISPOSITION_ATTACHED_PIC; }

/* The clockwise rotation in degrees (0, 90, 180 or 270) a stream's display matrix asks for; 0 without one. */
static inline int ph_stream_rotation(const AVStream *stream) {
    size_t size = 0;
    const int32_t *matrix = (const int32_t *)av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size);
    if (!matrix || size < 9 * sizeof(int32_t)) return 0;
    double angle = -av_display_rotation_get(matrix);
    if (angle != angle) return 0; /* NaN: not a rotation */
    int quarter = (int)((angle >= 0 ? angle + 45 : angle - 45) / 90);
    return ((quarter % 4) + 4) % 4 * 90;
}

/* The stream's ReplayGain (FFmpeg reads it from the tags of FLAC, Vorbis and MP3 files): gains in microbels
   (INT32_MIN: unknown), peaks in 1/100000 of full scale (0: unknown). 0 when the stream has none. */
static inline int ph_stream_replay_gain(const AVStream *stream, int32_t *track_gain, uint32_t *track_peak,
                                        int32_t *album_gain, uint32_t *album_peak) {
    size_t size = 0;
    const AVReplayGain *rg = (const AVReplayGain *)av_stream_get_side_data(stream, AV_PKT_DATA_REPLAYGAIN, &size);
    if (!rg || size < sizeof(AVReplayGain)) return 0;
    *track_gain = rg->track_gain;
    *track_peak = rg->track_peak;
    *album_gain = rg->album_gain;
    *album_peak = rg->album_peak;
    return 1;
}

static inline void ph_channel_layout_default(AVChannelLayout *layout, int channels) {
    av_channel_layout_default(layout, channels);
}

/* A hook so a Swift object can be reached from an AVIOContext or the interrupt callback. */
typedef int (*ph_read_fn)(void *opaque, uint8_t *buf, int size);
typedef int64_t (*ph_seek_fn)(void *opaque, int64_t offset, int whence);

static inline AVIOContext *ph_avio_alloc_read(unsigned char *buffer, int size, void *opaque, ph_read_fn read,
                                              ph_seek_fn seek) {
    return avio_alloc_context(buffer, size, 0, opaque, read, NULL, seek);
}

/* Silence FFmpeg's own logging below a level (the player reports errors itself). */
static inline void ph_set_log_level(int level) { av_log_set_level(level); }
static inline int ph_log_quiet(void) { return AV_LOG_QUIET; }
static inline int ph_log_error(void) { return AV_LOG_ERROR; }
static inline int ph_log_warning(void) { return AV_LOG_WARNING; }

#endif
