#ifndef PLAYHEAD_CCURL_SHIM_H
#define PLAYHEAD_CCURL_SHIM_H

// libcurl (libcurl4-openssl-dev) for PlayheadHLS's HTTP client. curl_easy_setopt, curl_easy_getinfo and their
// multi and share kin are variadic, which Swift cannot call: these typed wrappers call them.

#define CURL_DISABLE_DEPRECATION 1
#include <curl/curl.h>

/// Sets libcurl up for the process (its TLS library too); safe to call more than once.
static inline CURLcode playhead_curl_global_init(void) { return curl_global_init(CURL_GLOBAL_ALL); }

/// A body or header callback: `count` bytes of `size` at `data`; returns what it took (less aborts the transfer).
typedef size_t (*playhead_curl_data_fn)(char *data, size_t size, size_t count, void *context);

static inline CURLcode playhead_curl_set_long(CURL *easy, CURLoption option, long value) {
    return curl_easy_setopt(easy, option, value);
}

static inline CURLcode playhead_curl_set_string(CURL *easy, CURLoption option, const char *value) {
    return curl_easy_setopt(easy, option, value);
}

static inline CURLcode playhead_curl_set_pointer(CURL *easy, CURLoption option, void *value) {
    return curl_easy_setopt(easy, option, value);
}

static inline CURLcode playhead_curl_set_data_fn(CURL *easy, CURLoption option, playhead_curl_data_fn value) {
    return curl_easy_setopt(easy, option, value);
}

/// Only http and https, for the request and for every redirect (a playlist's server may not make the client read
/// local files or speak the other protocols libcurl knows).
static inline CURLcode playhead_curl_http_only(CURL *easy) {
#if LIBCURL_VERSION_NUM >= 0x075500
    CURLcode r = curl_easy_setopt(easy, CURLOPT_PROTOCOLS_STR, "http,https");
    return r != CURLE_OK ? r : curl_easy_setopt(easy, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
#else
    CURLcode r = curl_easy_setopt(easy, CURLOPT_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
    return r != CURLE_OK ? r : curl_easy_setopt(easy, CURLOPT_REDIR_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#endif
}

static inline CURLcode playhead_curl_get_long(CURL *easy, CURLINFO info, long *value) {
    return curl_easy_getinfo(easy, info, value);
}

static inline CURLcode playhead_curl_get_string(CURL *easy, CURLINFO info, char **value) {
    return curl_easy_getinfo(easy, info, value);
}

static inline CURLcode playhead_curl_get_offset(CURL *easy, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(easy, info, value);
}

static inline CURLSHcode playhead_curl_share_long(CURLSH *share, CURLSHoption option, long value) {
    return curl_share_setopt(share, option, value);
}

static inline CURLcode playhead_curl_set_share(CURL *easy, CURLSH *share) {
    return curl_easy_setopt(easy, CURLOPT_SHARE, share);
}

/// The easy handle of a finished transfer's message, its result in `result`; NULL for any other message.
static inline CURL *playhead_curl_done(CURLMsg *message, CURLcode *result) {
    if (message->msg != CURLMSG_DONE) return NULL;
    *result = message->data.result;
    return message->easy_handle;
}

#endif
