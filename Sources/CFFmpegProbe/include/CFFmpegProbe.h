#ifndef PLAYHEAD_CFFMPEG_PROBE_H
#define PLAYHEAD_CFFMPEG_PROBE_H

/* What FFmpeg says only in its log. First, what `avformat_find_stream_info` learnt about a stream that FFmpeg
 * keeps in its private decoder context and publishes nowhere else: whether a video stream carries closed captions
 * (ATSC A/53 `cc_data`, which its decoder saw while probing: `FF_CODEC_PROPERTY_CLOSED_CAPTIONS`). FFmpeg prints it
 * in `av_dump_format`'s line for the stream ("Closed Captions"); this reads that line. Second, the last error an
 * open logged.
 *
 * The first call installs an `av_log` callback that hands every message to FFmpeg's default callback (so its level
 * and output are unchanged) except, on the calling thread and during the call, the format dump it captures.
 * Thread safe. */

#include <libavformat/avformat.h>

/* 1 when stream `index` of `context` (after `avformat_find_stream_info`) carries closed captions, else 0. */
int ph_stream_has_closed_captions(AVFormatContext *context, int index);

/* Between these two calls, the last message FFmpeg logs at error level on the calling thread is kept (FFmpeg's own
 * output is unchanged): why an open failed, in more words than its error code ("moov atom not found"). The end
 * returns it without its line break, "" when there was none; the text lives on this thread until its next begin. */
void ph_capture_errors_begin(void);
const char *ph_capture_errors_end(void);

#endif
