#include "CFFmpegProbe.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The text captured on this thread while `capturing` is set. */
static _Thread_local char *captured;
static _Thread_local size_t captured_length, captured_capacity;
static _Thread_local int capturing;

/* The last error-level message logged on this thread while `capturing_errors` is set. */
static _Thread_local int capturing_errors;
static _Thread_local char last_error[512];

static void callback(void *avcl, int level, const char *fmt, va_list vl) {
    if (capturing_errors && level <= AV_LOG_ERROR) {
        va_list copy;
        va_copy(copy, vl);
        if (vsnprintf(last_error, sizeof last_error, fmt, copy) < 0) last_error[0] = 0;
        va_end(copy);
    }
    if (!capturing) {
        av_log_default_callback(avcl, level, fmt, vl);
        return;
    }
    char line[1024];
    int n = vsnprintf(line, sizeof line, fmt, vl);
    if (n <= 0) return;
    size_t length = (size_t)n < sizeof line ? (size_t)n : sizeof line - 1;
    if (captured_length + length + 1 > captured_capacity) {
        size_t capacity = (captured_capacity + length + 1) * 2;
        char *grown = realloc(captured, capacity);
        if (!grown) return;
        captured = grown;
        captured_capacity = capacity;
    }
    memcpy(captured + captured_length, line, length);
    captured_length += length;
    captured[captured_length] = 0;
}

static pthread_once_t installed = PTHREAD_ONCE_INIT;

static void install(void) { av_log_set_callback(callback); }

void ph_capture_errors_begin(void) {
    pthread_once(&installed, install);
    last_error[0] = 0;
    capturing_errors = 1;
}

const char *ph_capture_errors_end(void) {
    capturing_errors = 0;
    size_t n = strlen(last_error);
    while (n > 0 && (last_error[n - 1] == '\n' || last_error[n - 1] == ' ')) last_error[--n] = 0;
    return last_error;
}

int ph_stream_has_closed_captions(AVFormatContext *context, int index) {
    if (!context || index < 0 || (unsigned)index >= context->nb_streams) return 0;
    pthread_once(&installed, install);
    captured_length = 0;
    if (captured) captured[0] = 0;
    capturing = 1;
    av_dump_format(context, 0, "", 0);
    capturing = 0;
    if (!captured) return 0;
    char name[32];
    snprintf(name, sizeof name, "Stream #0:%d", index);
    size_t name_length = strlen(name);
    int found = 0;
    for (char *line = captured; line && *line && !found;) {
        char *end = strchr(line, '\n');
        if (end) *end = 0;
        char *stream = strstr(line, name);
        if (stream && (stream[name_length] < '0' || stream[name_length] > '9')) {
            found = strstr(stream, "Closed Captions") != NULL;
        }
        line = end ? end + 1 : NULL;
    }
    free(captured);
    captured = NULL;
    captured_length = captured_capacity = 0;
    return found;
}
