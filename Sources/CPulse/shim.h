#ifndef PLAYHEAD_CPULSE_SHIM_H
#define PLAYHEAD_CPULSE_SHIM_H

#include <pulse/pulseaudio.h>

static inline int ph_pa_context_is_good(pa_context_state_t s) { return PA_CONTEXT_IS_GOOD(s); }
static inline int ph_pa_stream_is_good(pa_stream_state_t s) { return PA_STREAM_IS_GOOD(s); }
static inline pa_usec_t ph_pa_usec_invalid(void) { return PA_USEC_INVALID; }
static inline uint32_t ph_pa_invalid_index(void) { return PA_INVALID_INDEX; }
static inline pa_volume_t ph_pa_volume_norm(void) { return PA_VOLUME_NORM; }

#endif
