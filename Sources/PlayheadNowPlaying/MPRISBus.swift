import CSystemd
import Foundation
import Playhead

/// A remote request recorded by the bus thread, handled on the main actor. Safe anywhere.
enum MPRISRequest: Sendable {
    /// A method call of `org.mpris.MediaPlayer2[.Player]`; answer it with `MPRISBus.reply(_:error:)`.
    case method(name: String, offset: Int64, trackID: String, uri: String, flag: Bool, reply: Int)
    /// A property write that the getter side already accepted.
    case set(property: String, double: Double, bool: Bool, string: String)
}

/// The sd-bus connection and the dedicated thread running its event loop. Every sd-bus call happens on that
/// thread: the C callbacks only read the published `MPRISState` or record a request and hand it to the main
/// actor; the main actor queues emissions and replies here and wakes the thread with an eventfd.
/// Safe from any thread.
final class MPRISBus: @unchecked Sendable {
    static let objectPath = "/org/mpris/MediaPlayer2"
    static let playerInterface = "org.mpris.MediaPlayer2.Player"
    static let rootInterface = "org.mpris.MediaPlayer2"
    static let trackListInterface = "org.mpris.MediaPlayer2.TrackList"

    enum Outgoing {
        case propertiesChanged(interface: String, names: [String])
        case seeked(Int64)
        case reply(id: Int, error: (name: String, message: String)?)
        /// A signal of `interface` whose arguments `write` appends.
        case signal(interface: String, member: String, write: (MessageWriter) -> Void)
    }

    private let lock = NSLock()
    private var published = MPRISState()
    private var outbox: [Outgoing] = []
    private var running = true
    private var pendingReplies: [Int: OpaquePointer] = [:]
    private var nextReply = 0
    private let wake: Int32
    private let done = DispatchSemaphore(value: 0)
    private let onRequest: @Sendable (MPRISRequest) -> Void
    private var bus: OpaquePointer?
    private let callbacks: UnsafeMutablePointer<playhead_mpris_callbacks>
    /// The well-known name taken (`org.mpris.MediaPlayer2.playhead` or `...playhead.instance<PID>`).
    let busName: String
    /// Whether `org.mpris.MediaPlayer2.TrackList` is exported.
    let hasTrackList: Bool

    /// Connects to the session bus, exports the object (with the TrackList interface when `trackList`) and takes
    /// the name; nil when there is no session bus. `onRequest` is called on the bus thread and must only hand the
    /// request on.
    init?(trackList: Bool = false, onRequest: @escaping @Sendable (MPRISRequest) -> Void) {
        var b: OpaquePointer?
        guard sd_bus_open_user(&b) >= 0, let b else { return nil }
        wake = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        callbacks = .allocate(capacity: 1)
        self.onRequest = onRequest
        hasTrackList = trackList
        bus = b
        var name = "org.mpris.MediaPlayer2.playhead"
        if sd_bus_request_name(b, name, 0) < 0 {
            name += ".instance\(getpid())"
            if sd_bus_request_name(b, name, 0) < 0 { name = "" }
        }
        busName = name
        callbacks.initialize(
            to: playhead_mpris_callbacks(
                method: mprisMethod, get: mprisGet, set: mprisSet,
                context: Unmanaged.passUnretained(self).toOpaque()))
        let path = Self.objectPath
        guard !name.isEmpty, wake >= 0,
            sd_bus_add_object_vtable(b, nil, path, Self.rootInterface, playhead_mpris_root_vtable(), callbacks) >= 0,
            sd_bus_add_object_vtable(b, nil, path, Self.playerInterface, playhead_mpris_player_vtable(), callbacks)
                >= 0,
            !trackList
                || sd_bus_add_object_vtable(
                    b, nil, path, Self.trackListInterface, playhead_mpris_tracklist_vtable(), callbacks) >= 0
        else {
            sd_bus_flush_close_unref(b)
            if wake >= 0 { Foundation.close(wake) }
            callbacks.deallocate()
            return nil
        }
        let thread = Thread { [self] in loop() }
        thread.name = "playhead-mpris"
        thread.start()
    }

    /// Stops the thread, releases the name and the connection. Blocks until the thread ended.
    func close() {
        let wasRunning = lock.withLock {
            defer { running = false }
            return running
        }
        guard wasRunning else { return }
        signal()
        done.wait()
        Foundation.close(wake)
        callbacks.deallocate()
    }

    /// The state the getters answer with.
    var state: MPRISState { lock.withLock { published } }

    /// Publishes `new`; emits PropertiesChanged for what differs and, when `seekedTo` is given, `Seeked`.
    func publish(_ new: MPRISState, seekedTo: Int64? = nil) {
        lock.withLock {
            let old = published
            let root = new.changedRootProperties(from: old)
            let names = new.changedPlayerProperties(from: old)
            published = new
            if !root.isEmpty { outbox.append(.propertiesChanged(interface: Self.rootInterface, names: root)) }
            if !names.isEmpty { outbox.append(.propertiesChanged(interface: Self.playerInterface, names: names)) }
            if hasTrackList {
                outbox += Self.trackListSignals(from: old.tracks, to: new.tracks, current: new.metadata.trackID)
                let list = new.changedTrackListProperties(from: old)
                if !list.isEmpty { outbox.append(.propertiesChanged(interface: Self.trackListInterface, names: list)) }
            }
            if let seekedTo { outbox.append(.seeked(seekedTo)) }
        }
        signal()
    }

    /// Answers the method call recorded as `id`: success, or the D-Bus error `error`.
    func reply(_ id: Int, error: (name: String, message: String)? = nil) {
        lock.withLock { outbox.append(.reply(id: id, error: error)) }
        signal()
    }

    private func signal() {
        var one: UInt64 = 1
        _ = write(wake, &one, 8)
    }

    // MARK: Bus thread

    /// Keeps `m` until `reply(_:error:)`; returns its id. Bus thread.
    func keepForReply(_ m: OpaquePointer) -> Int {
        sd_bus_message_ref(m)
        return lock.withLock {
            nextReply += 1
            pendingReplies[nextReply] = m
            return nextReply
        }
    }

    func record(_ request: MPRISRequest) { onRequest(request) }

    private func loop() {
        guard let bus else { return }
        while lock.withLock({ running }) {
            while sd_bus_process(bus, nil) > 0 {}
            let work = lock.withLock {
                defer { outbox.removeAll() }
                return outbox
            }
            for item in work { send(item, on: bus) }
            var fds = [
                pollfd(fd: sd_bus_get_fd(bus), events: Int16(truncatingIfNeeded: sd_bus_get_events(bus)), revents: 0),
                pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
            ]
            var until: UInt64 = 0
            var timeout: Int32 = -1
            if sd_bus_get_timeout(bus, &until) >= 0, until != UInt64.max {
                let now = UInt64(MonotonicClock.now() * 1e6)
                timeout = until > now ? Int32(min((until - now + 999) / 1000, 60_000)) : 0
            }
            _ = poll(&fds, 2, timeout)
            if fds[1].revents != 0 {
                var n: UInt64 = 0
                _ = read(wake, &n, 8)
            }
        }
        // What was queued before `close()` (the reply to a `Quit`, say) still goes out.
        let last = lock.withLock {
            defer { outbox.removeAll() }
            return outbox
        }
        for item in last { send(item, on: bus) }
        let leftovers = lock.withLock {
            defer { pendingReplies.removeAll() }
            return Array(pendingReplies.values)
        }
        for m in leftovers { sd_bus_message_unref(m) }
        sd_bus_flush_close_unref(bus)
        self.bus = nil
        done.signal()
    }

    private func send(_ item: Outgoing, on bus: OpaquePointer) {
        switch item {
        case .propertiesChanged(let interface, let names):
            var cNames: [UnsafeMutablePointer<CChar>?] = names.map { strdup($0) } + [nil]
            _ = sd_bus_emit_properties_changed_strv(bus, Self.objectPath, interface, &cNames)
            for p in cNames { free(p) }
        case .seeked(let position):
            var m: OpaquePointer?
            guard sd_bus_message_new_signal(bus, &m, Self.objectPath, Self.playerInterface, "Seeked") >= 0 else {
                return
            }
            var value = position
            sd_bus_message_append_basic(m, CChar(UInt8(ascii: "x")), &value)
            sd_bus_send(bus, m, nil)
            sd_bus_message_unref(m)
        case .signal(let interface, let member, let write):
            var m: OpaquePointer?
            guard sd_bus_message_new_signal(bus, &m, Self.objectPath, interface, member) >= 0, let m else { return }
            let writer = MessageWriter(m)
            write(writer)
            if writer.result >= 0 { sd_bus_send(bus, m, nil) }
            sd_bus_message_unref(m)
        case .reply(let id, let error):
            guard let call = lock.withLock({ pendingReplies.removeValue(forKey: id) }) else { return }
            defer { sd_bus_message_unref(call) }
            if let error {
                var e = playhead_bus_error_null()
                sd_bus_error_set(&e, error.name, error.message)
                sd_bus_reply_method_error(call, &e)
                sd_bus_error_free(&e)
            } else {
                var r: OpaquePointer?
                guard sd_bus_message_new_method_return(call, &r) >= 0 else { return }
                sd_bus_send(bus, r, nil)
                sd_bus_message_unref(r)
            }
        }
    }
}
