import CSystemd
import Foundation
import PlayheadAudio

/// Exclusive audio the Linux way: pauses the other MPRIS players on the session bus that are playing when
/// `AudioSession` activates a non-mixable category, and resumes exactly those on deactivation with
/// `.notifyOthersOnDeactivation`. Set it as `AudioSession.shared.otherApplications` to opt in (`playhead
/// --exclusive-audio`). Players of this process are left alone.
///
/// Threads: any thread; each call opens its own short sd-bus connection and blocks for at most a second per player.
public final class MPRISOtherPlayers: OtherAudioApplications {
    private static let path = "/org/mpris/MediaPlayer2"
    private static let player = "org.mpris.MediaPlayer2.Player"

    /// A client for the session bus at `DBUS_SESSION_BUS_ADDRESS`.
    public init() {}

    /// Pauses every other player whose `PlaybackStatus` is `Playing`; returns their bus names.
    public func pausePlayingApplications() -> [String] {
        withBus { bus in
            var paused: [String] = []
            for name in Self.otherPlayers(bus) where Self.status(bus, name) == "Playing" {
                if Self.call(bus, name, Self.path, Self.player, "Pause") { paused.append(name) }
            }
            return paused
        } ?? []
    }

    /// Plays the players named in `identifiers` that are still paused.
    public func resumeApplications(_ identifiers: [String]) {
        _ = withBus { bus in
            for name in identifiers where Self.status(bus, name) == "Paused" {
                _ = Self.call(bus, name, Self.path, Self.player, "Play")
            }
        }
    }

    private func withBus<T>(_ body: (OpaquePointer) -> T) -> T? {
        var b: OpaquePointer?
        guard sd_bus_open_user(&b) >= 0, let b else { return nil }
        defer { sd_bus_flush_close_unref(b) }
        return body(b)
    }

    /// The `org.mpris.MediaPlayer2.*` names on the bus owned by other processes.
    private static func otherPlayers(_ bus: OpaquePointer) -> [String] {
        guard
            let reply = request(
                bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "ListNames")
        else { return [] }
        defer { sd_bus_message_unref(reply) }
        var names: [String] = []
        guard sd_bus_message_enter_container(reply, CChar(UInt8(ascii: "a")), "s") > 0 else { return [] }
        var p: UnsafePointer<CChar>?
        while sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "s")), &p) > 0, let s = p {
            let name = String(cString: s)
            if name.hasPrefix("org.mpris.MediaPlayer2.") { names.append(name) }
        }
        return names.filter { processID(bus, $0) != getpid() }.sorted()
    }

    private static func processID(_ bus: OpaquePointer, _ name: String) -> Int32? {
        guard
            let reply = request(
                bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                "GetConnectionUnixProcessID", argument: name)
        else { return nil }
        defer { sd_bus_message_unref(reply) }
        var pid: UInt32 = 0
        guard sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "u")), &pid) > 0 else { return nil }
        return Int32(bitPattern: pid)
    }

    private static func status(_ bus: OpaquePointer, _ name: String) -> String? {
        var error = playhead_bus_error_null()
        defer { sd_bus_error_free(&error) }
        var value: UnsafeMutablePointer<CChar>?
        guard sd_bus_get_property_string(bus, name, path, player, "PlaybackStatus", &error, &value) >= 0, let value
        else { return nil }
        defer { free(value) }
        return String(cString: value)
    }

    private static func call(
        _ bus: OpaquePointer, _ destination: String, _ path: String, _ interface: String, _ member: String
    ) -> Bool {
        guard let reply = request(bus, destination, path, interface, member) else { return false }
        sd_bus_message_unref(reply)
        return true
    }

    /// A method call with an optional string argument; the reply (to unref), or nil on error.
    private static func request(
        _ bus: OpaquePointer, _ destination: String, _ path: String, _ interface: String, _ member: String,
        argument: String? = nil
    ) -> OpaquePointer? {
        var m: OpaquePointer?
        guard sd_bus_message_new_method_call(bus, &m, destination, path, interface, member) >= 0, let m else {
            return nil
        }
        defer { sd_bus_message_unref(m) }
        if let argument {
            let ok = argument.withCString { sd_bus_message_append_basic(m, CChar(UInt8(ascii: "s")), $0) >= 0 }
            guard ok else { return nil }
        }
        var error = playhead_bus_error_null()
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        guard sd_bus_call(bus, m, 1_000_000, &error, &reply) >= 0 else { return nil }
        return reply
    }
}
