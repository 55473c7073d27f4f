#ifndef PLAYHEAD_CSYSTEMD_SHIM_H
#define PLAYHEAD_CSYSTEMD_SHIM_H

// sd-bus for Playhead's MPRIS bridge. The SD_BUS_* vtable macros are not importable into Swift, so the two
// MPRIS vtables are static C arrays here. Their entries point at C trampolines that forward to Swift
// @convention(c) functions stored in a `playhead_mpris_callbacks` struct, which is the object's userdata:
// no mutable C globals, so the header may be compiled into several Swift files.

#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <sys/eventfd.h>
#include <systemd/sd-bus.h>
#include <unistd.h>

typedef int (*playhead_mpris_method_fn)(sd_bus_message *m, void *context, sd_bus_error *error);
typedef int (*playhead_mpris_get_fn)(const char *interface, const char *property, sd_bus_message *reply,
                                     void *context, sd_bus_error *error);
typedef int (*playhead_mpris_set_fn)(const char *interface, const char *property, sd_bus_message *value,
                                     void *context, sd_bus_error *error);

/// Filled by Swift; passed as the userdata of both vtables.
typedef struct playhead_mpris_callbacks {
    playhead_mpris_method_fn method;
    playhead_mpris_get_fn get;
    playhead_mpris_set_fn set;
    void *context;
} playhead_mpris_callbacks;

static int playhead_mpris_method_trampoline(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    playhead_mpris_callbacks *cb = (playhead_mpris_callbacks *)userdata;
    return cb->method(m, cb->context, error);
}

static int playhead_mpris_get_trampoline(sd_bus *bus, const char *path, const char *interface,
                                         const char *property, sd_bus_message *reply, void *userdata,
                                         sd_bus_error *error) {
    (void)bus;
    (void)path;
    playhead_mpris_callbacks *cb = (playhead_mpris_callbacks *)userdata;
    return cb->get(interface, property, reply, cb->context, error);
}

static int playhead_mpris_set_trampoline(sd_bus *bus, const char *path, const char *interface,
                                         const char *property, sd_bus_message *value, void *userdata,
                                         sd_bus_error *error) {
    (void)bus;
    (void)path;
    playhead_mpris_callbacks *cb = (playhead_mpris_callbacks *)userdata;
    return cb->set(interface, property, value, cb->context, error);
}

#define PH_M(name) SD_BUS_METHOD(name, "", "", playhead_mpris_method_trampoline, SD_BUS_VTABLE_UNPRIVILEGED)
#define PH_RO(name, sig) \
    SD_BUS_PROPERTY(name, sig, playhead_mpris_get_trampoline, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE)
#define PH_RW(name, sig)                                                                                  \
    SD_BUS_WRITABLE_PROPERTY(name, sig, playhead_mpris_get_trampoline, playhead_mpris_set_trampoline, 0, \
                             SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE | SD_BUS_VTABLE_UNPRIVILEGED)

static const sd_bus_vtable playhead_mpris_root_table[] = {
    SD_BUS_VTABLE_START(0),
    PH_M("Raise"),
    PH_M("Quit"),
    PH_RO("CanQuit", "b"),
    PH_RW("Fullscreen", "b"),
    PH_RO("CanSetFullscreen", "b"),
    PH_RO("CanRaise", "b"),
    PH_RO("HasTrackList", "b"),
    PH_RO("Identity", "s"),
    PH_RO("DesktopEntry", "s"),
    PH_RO("SupportedUriSchemes", "as"),
    PH_RO("SupportedMimeTypes", "as"),
    SD_BUS_VTABLE_END,
};

static const sd_bus_vtable playhead_mpris_player_table[] = {
    SD_BUS_VTABLE_START(0),
    PH_M("Next"),
    PH_M("Previous"),
    PH_M("Pause"),
    PH_M("PlayPause"),
    PH_M("Stop"),
    PH_M("Play"),
    SD_BUS_METHOD_WITH_NAMES("Seek", "x", SD_BUS_PARAM(Offset), "", , playhead_mpris_method_trampoline,
                             SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD_WITH_NAMES("SetPosition", "ox", SD_BUS_PARAM(TrackId) SD_BUS_PARAM(Position), "", ,
                             playhead_mpris_method_trampoline, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD_WITH_NAMES("OpenUri", "s", SD_BUS_PARAM(Uri), "", , playhead_mpris_method_trampoline,
                             SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_SIGNAL_WITH_NAMES("Seeked", "x", SD_BUS_PARAM(Position), 0),
    PH_RO("PlaybackStatus", "s"),
    PH_RW("LoopStatus", "s"),
    PH_RW("Rate", "d"),
    PH_RW("Shuffle", "b"),
    PH_RO("Metadata", "a{sv}"),
    PH_RW("Volume", "d"),
    // Position changes all the time: no PropertiesChanged (EmitsChangedSignal false), computed on read.
    SD_BUS_PROPERTY("Position", "x", playhead_mpris_get_trampoline, 0, 0),
    PH_RO("MinimumRate", "d"),
    PH_RO("MaximumRate", "d"),
    PH_RO("CanGoNext", "b"),
    PH_RO("CanGoPrevious", "b"),
    PH_RO("CanPlay", "b"),
    PH_RO("CanPause", "b"),
    PH_RO("CanSeek", "b"),
    SD_BUS_PROPERTY("CanControl", "b", playhead_mpris_get_trampoline, 0, 0),
    SD_BUS_VTABLE_END,
};

static const sd_bus_vtable playhead_mpris_tracklist_table[] = {
    SD_BUS_VTABLE_START(0),
    // Answered on the bus thread from the published state.
    SD_BUS_METHOD_WITH_NAMES("GetTracksMetadata", "ao", SD_BUS_PARAM(TrackIds), "aa{sv}", SD_BUS_PARAM(Metadata),
                             playhead_mpris_method_trampoline, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD_WITH_NAMES("AddTrack", "sob", SD_BUS_PARAM(Uri) SD_BUS_PARAM(AfterTrack) SD_BUS_PARAM(SetAsCurrent),
                             "", , playhead_mpris_method_trampoline, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD_WITH_NAMES("RemoveTrack", "o", SD_BUS_PARAM(TrackId), "", , playhead_mpris_method_trampoline,
                             SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD_WITH_NAMES("GoTo", "o", SD_BUS_PARAM(TrackId), "", , playhead_mpris_method_trampoline,
                             SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_SIGNAL_WITH_NAMES("TrackListReplaced", "aoo", SD_BUS_PARAM(Tracks) SD_BUS_PARAM(CurrentTrack), 0),
    SD_BUS_SIGNAL_WITH_NAMES("TrackAdded", "a{sv}o", SD_BUS_PARAM(Metadata) SD_BUS_PARAM(AfterTrack), 0),
    SD_BUS_SIGNAL_WITH_NAMES("TrackRemoved", "o", SD_BUS_PARAM(TrackId), 0),
    SD_BUS_SIGNAL_WITH_NAMES("TrackMetadataChanged", "oa{sv}", SD_BUS_PARAM(TrackId) SD_BUS_PARAM(Metadata), 0),
    // Tracks: PropertiesChanged names it without its value (the spec's "invalidates").
    SD_BUS_PROPERTY("Tracks", "ao", playhead_mpris_get_trampoline, 0, SD_BUS_VTABLE_PROPERTY_EMITS_INVALIDATION),
    PH_RO("CanEditTracks", "b"),
    SD_BUS_VTABLE_END,
};

#undef PH_M
#undef PH_RO
#undef PH_RW

/// The org.mpris.MediaPlayer2 vtable.
static inline const sd_bus_vtable *playhead_mpris_root_vtable(void) { return playhead_mpris_root_table; }
/// The org.mpris.MediaPlayer2.Player vtable.
static inline const sd_bus_vtable *playhead_mpris_player_vtable(void) { return playhead_mpris_player_table; }

/// The org.mpris.MediaPlayer2.TrackList vtable.
static inline const sd_bus_vtable *playhead_mpris_tracklist_vtable(void) { return playhead_mpris_tracklist_table; }

/// An empty sd_bus_error (SD_BUS_ERROR_NULL).
static inline sd_bus_error playhead_bus_error_null(void) {
    sd_bus_error e = SD_BUS_ERROR_NULL;
    return e;
}

#endif
