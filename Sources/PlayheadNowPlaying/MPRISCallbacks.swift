import CSystemd
import Foundation
import Playhead

// The C callbacks of the MPRIS vtables. They run on the bus thread inside sd_bus_process: getters read the
// published state; methods and setters validate, record a request for the main actor and return.

private func bus(_ context: UnsafeMutableRawPointer?) -> MPRISBus {
    Unmanaged<MPRISBus>.fromOpaque(context!).takeUnretainedValue()
}

private func type(_ c: Character) -> CChar { CChar(c.asciiValue!) }

private func invalidArgs(_ error: UnsafeMutablePointer<sd_bus_error>?, _ message: String) -> Int32 {
    sd_bus_error_set(error, "org.freedesktop.DBus.Error.InvalidArgs", message)
}

let mprisMethod: playhead_mpris_method_fn = { m, context, error in
    guard let m, let member = sd_bus_message_get_member(m).map({ String(cString: $0) }) else { return -EINVAL }
    let bus = bus(context)
    var offset: Int64 = 0
    var trackID = ""
    var uri = ""
    var flag: Int32 = 0
    func path() -> String? {
        var p: UnsafePointer<CChar>?
        guard sd_bus_message_read_basic(m, type("o"), &p) > 0, let p else { return nil }
        return String(cString: p)
    }
    switch member {
    case "GetTracksMetadata": return tracksMetadata(m, bus.state, error)
    case "GoTo", "RemoveTrack":
        guard let p = path() else { return invalidArgs(error, "\(member) takes o") }
        guard p != MPRISState.noTrack else { return invalidArgs(error, "NoTrack is not a track") }
        trackID = p
    case "AddTrack":
        var s: UnsafePointer<CChar>?
        guard sd_bus_message_read_basic(m, type("s"), &s) > 0, let s, let after = path(),
            sd_bus_message_read_basic(m, type("b"), &flag) > 0
        else { return invalidArgs(error, "AddTrack takes (s, o, b)") }
        uri = String(cString: s)
        trackID = after
    case "Seek":
        guard sd_bus_message_read_basic(m, type("x"), &offset) > 0 else { return invalidArgs(error, "Seek takes x") }
    case "SetPosition":
        var path: UnsafePointer<CChar>?
        guard sd_bus_message_read_basic(m, type("o"), &path) > 0, let path,
            sd_bus_message_read_basic(m, type("x"), &offset) > 0
        else { return invalidArgs(error, "SetPosition takes (o, x)") }
        trackID = String(cString: path)
    case "OpenUri":
        var s: UnsafePointer<CChar>?
        guard sd_bus_message_read_basic(m, type("s"), &s) > 0, let s else {
            return invalidArgs(error, "OpenUri takes s")
        }
        uri = String(cString: s)
    default: break
    }
    let id = bus.keepForReply(m)
    bus.record(.method(name: member, offset: offset, trackID: trackID, uri: uri, flag: flag != 0, reply: id))
    return 1
}

/// Answers `GetTracksMetadata` from the published tracks; ids not in the track list are left out.
private func tracksMetadata(_ m: OpaquePointer, _ s: MPRISState, _ error: UnsafeMutablePointer<sd_bus_error>?)
    -> Int32
{
    var ids: [String] = []
    guard sd_bus_message_enter_container(m, type("a"), "o") > 0 else { return invalidArgs(error, "takes ao") }
    var p: UnsafePointer<CChar>?
    while sd_bus_message_read_basic(m, type("o"), &p) > 0, let path = p { ids.append(String(cString: path)) }
    sd_bus_message_exit_container(m)
    var reply: OpaquePointer?
    guard sd_bus_message_new_method_return(m, &reply) >= 0, let reply else { return -ENOMEM }
    defer { sd_bus_message_unref(reply) }
    let w = MessageWriter(reply)
    w.open("a", "a{sv}")
    for id in ids { if let track = s.tracks.first(where: { $0.trackID == id }) { w.metadata(track) } }
    w.close()
    guard w.result >= 0 else { return w.result }
    return sd_bus_send(sd_bus_message_get_bus(m), reply, nil)
}

let mprisGet: playhead_mpris_get_fn = { interface, property, reply, context, error in
    guard let property, let reply else { return -EINVAL }
    let s = bus(context).state
    let m = MessageWriter(reply)
    switch String(cString: property) {
    case "CanQuit": m.bool(s.canQuit)
    case "HasTrackList": m.bool(s.hasTrackList)
    case "CanRaise": m.bool(s.canRaise)
    case "CanSetFullscreen": m.bool(s.canSetFullscreen)
    case "Fullscreen": m.bool(s.fullscreen)
    case "Identity": m.string(s.identity)
    case "DesktopEntry": m.string(s.desktopEntry)
    case "SupportedUriSchemes": m.strings(s.supportedURISchemes)
    case "SupportedMimeTypes": m.strings(s.supportedMIMETypes)
    case "Tracks": m.objectPaths(s.tracks.map(\.trackID))
    case "CanEditTracks": m.bool(s.canEditTracks)
    case "PlaybackStatus": m.string(s.playbackStatus)
    case "LoopStatus": m.string(s.loopStatus)
    case "Rate": m.double(s.rate)
    case "Shuffle": m.bool(s.shuffle)
    case "Metadata": m.metadata(s.metadata)
    case "Volume": m.double(s.volume)
    case "Position": m.int64(s.positionMicroseconds(at: MonotonicClock.now()))
    case "MinimumRate": m.double(s.minimumRate)
    case "MaximumRate": m.double(s.maximumRate)
    case "CanGoNext": m.bool(s.canGoNext)
    case "CanGoPrevious": m.bool(s.canGoPrevious)
    case "CanPlay": m.bool(s.canPlay)
    case "CanPause": m.bool(s.canPause)
    case "CanSeek": m.bool(s.canSeek)
    case "CanControl": m.bool(true)
    default: return -ENOENT
    }
    return m.result
}

let mprisSet: playhead_mpris_set_fn = { interface, property, value, context, error in
    guard let property, let value else { return -EINVAL }
    let bus = bus(context)
    let s = bus.state
    let name = String(cString: property)
    let notSupported = "org.mpris.MediaPlayer2.Player.Error.NotSupported"
    switch name {
    case "Rate", "Volume":
        var d = 0.0
        guard sd_bus_message_read_basic(value, type("d"), &d) > 0 else { return -EINVAL }
        guard d.isFinite else { return invalidArgs(error, "\(name) must be a finite number") }
        if name == "Rate" {
            guard d >= 0 else { return invalidArgs(error, "Rate must not be negative") }
            guard s.canSetRate || d == 0 else { return sd_bus_error_set(error, notSupported, "rate is fixed") }
            if d != 0, d < s.minimumRate || d > s.maximumRate {
                return invalidArgs(error, "rate outside \(s.minimumRate)...\(s.maximumRate)")
            }
        } else if !s.canSetVolume {
            return sd_bus_error_set(error, notSupported, "volume is not controllable")
        } else {
            d = max(0, d)  // the spec: a negative volume is 0
        }
        bus.record(.set(property: name, double: d, bool: false, string: ""))
    case "LoopStatus":
        var p: UnsafePointer<CChar>?
        guard sd_bus_message_read_basic(value, type("s"), &p) > 0, let p else { return -EINVAL }
        let loop = String(cString: p)
        guard ["None", "Track", "Playlist"].contains(loop) else {
            return invalidArgs(error, "LoopStatus is None, Track or Playlist")
        }
        // Asking for what is already so is no change to refuse (a desktop that syncs its toggles sets them all).
        if !s.canSetLoop && loop == s.loopStatus { return 0 }
        guard s.canSetLoop else { return sd_bus_error_set(error, notSupported, "repeat is not supported") }
        bus.record(.set(property: name, double: 0, bool: false, string: loop))
    case "Shuffle":
        var b: Int32 = 0
        guard sd_bus_message_read_basic(value, type("b"), &b) > 0 else { return -EINVAL }
        if !s.canSetShuffle && (b != 0) == s.shuffle { return 0 }
        guard s.canSetShuffle else { return sd_bus_error_set(error, notSupported, "shuffle is not supported") }
        bus.record(.set(property: name, double: 0, bool: b != 0, string: ""))
    case "Fullscreen":
        var b: Int32 = 0
        guard sd_bus_message_read_basic(value, type("b"), &b) > 0 else { return -EINVAL }
        guard s.canSetFullscreen else { return sd_bus_error_set(error, notSupported, "fullscreen is not supported") }
        bus.record(.set(property: name, double: 0, bool: b != 0, string: ""))
    default:
        return sd_bus_error_set(error, "org.freedesktop.DBus.Error.PropertyReadOnly", "\(name) is read-only")
    }
    return 0
}

/// Appends values to an sd-bus message, remembering the first failure. Bus thread.
final class MessageWriter {
    private let m: OpaquePointer
    private(set) var result: Int32 = 0

    init(_ m: OpaquePointer) { self.m = m }

    private func check(_ r: Int32) { if r < 0, result == 0 { result = r } }

    func bool(_ b: Bool) {
        var v: Int32 = b ? 1 : 0
        check(sd_bus_message_append_basic(m, type("b"), &v))
    }
    func double(_ d: Double) {
        var v = d
        check(sd_bus_message_append_basic(m, type("d"), &v))
    }
    func int64(_ x: Int64) {
        var v = x
        check(sd_bus_message_append_basic(m, type("x"), &v))
    }
    func int32(_ x: Int32) {
        var v = x
        check(sd_bus_message_append_basic(m, type("i"), &v))
    }
    func string(_ s: String, as t: Character = "s") { check(sd_bus_message_append_basic(m, type(t), s)) }
    func strings(_ list: [String]) {
        check(sd_bus_message_open_container(m, type("a"), "s"))
        for s in list { string(s) }
        check(sd_bus_message_close_container(m))
    }
    func objectPaths(_ list: [String]) {
        check(sd_bus_message_open_container(m, type("a"), "o"))
        for s in list { string(s, as: "o") }
        check(sd_bus_message_close_container(m))
    }
    func open(_ container: Character, _ contents: String) {
        check(sd_bus_message_open_container(m, type(container), contents))
    }
    func close() { check(sd_bus_message_close_container(m)) }

    /// One `{sv}` entry holding `signature`, written by `body`.
    private func entry(_ key: String, _ signature: String, _ body: () -> Void) {
        check(sd_bus_message_open_container(m, type("e"), "sv"))
        string(key)
        check(sd_bus_message_open_container(m, type("v"), signature))
        body()
        check(sd_bus_message_close_container(m))
        check(sd_bus_message_close_container(m))
    }

    func metadata(_ md: MPRISState.Metadata) {
        check(sd_bus_message_open_container(m, type("a"), "{sv}"))
        entry("mpris:trackid", "o") { string(md.trackID, as: "o") }
        if let l = md.lengthMicroseconds { entry("mpris:length", "x") { int64(l) } }
        if let a = md.artURL { entry("mpris:artUrl", "s") { string(a) } }
        if let t = md.title { entry("xesam:title", "s") { string(t) } }
        if !md.artists.isEmpty { entry("xesam:artist", "as") { strings(md.artists) } }
        if let a = md.album { entry("xesam:album", "s") { string(a) } }
        if !md.albumArtists.isEmpty { entry("xesam:albumArtist", "as") { strings(md.albumArtists) } }
        if !md.genres.isEmpty { entry("xesam:genre", "as") { strings(md.genres) } }
        if let n = md.trackNumber { entry("xesam:trackNumber", "i") { int32(n) } }
        if let u = md.url { entry("xesam:url", "s") { string(u) } }
        // The MPRIS specification leaves these out; other keys carry the player's name as a namespace.
        if let t = md.audioTrack { entry("playhead:audioTrack", "s") { string(t) } }
        if let l = md.audioLanguage { entry("playhead:audioLanguage", "s") { string(l) } }
        if let t = md.subtitleTrack { entry("playhead:subtitleTrack", "s") { string(t) } }
        if let l = md.subtitleLanguage { entry("playhead:subtitleLanguage", "s") { string(l) } }
        check(sd_bus_message_close_container(m))
    }
}
