import CPulse
import Foundation
import PlayheadCore

/// A sink as the server describes it. Value type, safe anywhere.
struct SinkInfo: Sendable, Hashable {
    var index: UInt32
    var name: String
    var description: String
    var activePort: String?
    /// False when the active port is known to be unplugged (`PA_PORT_AVAILABLE_NO`).
    var activePortAvailable: Bool
    var portType: AudioSession.PortType

    var port: AudioSession.PortDescription {
        AudioSession.PortDescription(portName: description, portType: portType, uid: name, activePort: activePort)
    }
}

/// Another program's playback stream, for ducking. Value type, safe anywhere.
struct SinkInputInfo: Sendable {
    var index: UInt32
    var processID: Int32?
    var volume: pa_cvolume
    var corked: Bool
}

/// What the monitor saw on the server.
enum MonitorEvent: Sendable {
    case sinkAdded(SinkInfo)
    case sinkRemoved(SinkInfo)
    case sinkChanged(old: SinkInfo, new: SinkInfo)
    case sinkInputAdded(UInt32)
    case serverLost
    case serverBack
}

/// The audio session's view of the sound server, on the process's shared connection (`PulseConnection`):
/// subscribes to sink, sink-input and server events, keeps the sink list, answers queries, and subscribes again
/// when the server comes back.
///
/// Threads: the shared `pa_threaded_mainloop` runs the C callbacks, which only update the cache and hand events to
/// `onEvent` on a serial queue; every method may be called from any thread except a PulseAudio callback.
final class PulseContextMonitor: PulseConnectionClient, @unchecked Sendable {
    let connection = PulseConnection.shared
    var mainloop: OpaquePointer { connection.mainloop }
    var context: OpaquePointer? { connection.context }
    /// Sinks by index; guarded by the mainloop lock.
    var sinks: [UInt32: SinkInfo] = [:]
    var defaultSinkName: String?
    var closed = false
    var reconnecting = false
    let onEvent: @Sendable (MonitorEvent) -> Void
    let events = DispatchQueue(label: "playhead.audiosession.monitor")

    /// Waits for the shared connection (failing within `timeout` seconds), subscribes and loads the sink list.
    /// Blocks the calling thread meanwhile.
    init(timeout: Double = 2, onEvent: @escaping @Sendable (MonitorEvent) -> Void) throws(PlaybackError) {
        self.onEvent = onEvent
        lock()
        defer { unlock() }
        guard connectLocked(timeout: timeout) else {
            throw PlaybackError(.audioOutput, source: "PulseAudio", reason: "the sound server does not answer")
        }
        connection.add(self)
    }

    deinit {
        lock()
        closed = true
        unlock()
        connection.remove(id: ObjectIdentifier(self))
    }

    func lock() { connection.lock() }
    func unlock() { connection.unlock() }
    var selfPointer: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    /// Waits for the shared context, subscribes and loads sinks and the default sink. Lock held.
    func connectLocked(timeout: Double) -> Bool {
        guard connection.readyLocked(timeout: timeout), let c = context else { return false }
        let mask =
            PA_SUBSCRIPTION_MASK_SINK.rawValue | PA_SUBSCRIPTION_MASK_SINK_INPUT.rawValue
            | PA_SUBSCRIPTION_MASK_SERVER.rawValue
        wait(pa_context_subscribe(c, pa_subscription_mask_t(mask), MonitorCallbacks.success, selfPointer))
        let collector = SinkCollector(mainloop: mainloop)
        let box = Unmanaged.passRetained(collector)
        wait(pa_context_get_sink_info_list(c, MonitorCallbacks.sinkList, box.toOpaque()))
        box.release()
        sinks = Dictionary(collector.sinks.map { ($0.index, $0) }) { $1 }
        refreshDefaultSinkLocked()
        return true
    }

    func refreshDefaultSinkLocked() {
        guard let c = context else { return }
        let box = Unmanaged.passRetained(StringBox(mainloop: mainloop))
        wait(pa_context_get_server_info(c, MonitorCallbacks.serverInfo, box.toOpaque()))
        if let name = box.takeRetainedValue().value { defaultSinkName = name }
    }

    /// Called on the mainloop thread (lock held) when the shared context fails: reports the loss and waits for the
    /// server again on a queue.
    func connectionLost() {
        guard !closed, !reconnecting else { return }
        reconnecting = true
        sinks = [:]
        post(.serverLost)
        DispatchQueue(label: "playhead.audiosession.reconnect").async { [weak self] in self?.reconnectLoop() }
    }

    private func reconnectLoop() {
        while true {
            lock()
            if closed {
                unlock()
                return
            }
            if connectLocked(timeout: 1) {
                reconnecting = false
                unlock()
                post(.serverBack)
                return
            }
            unlock()
            Thread.sleep(forTimeInterval: 0.1)
        }
    }

    func post(_ event: MonitorEvent) {
        let handler = onEvent
        events.async { handler(event) }
    }

    /// Waits on the mainloop condition (lock held) at most `seconds`.
    func timedWait(_ seconds: Double) { connection.timedWait(seconds) }

    /// Waits (lock held) for an operation to finish, at most 3 seconds; true when it completed.
    @discardableResult
    func wait(_ op: OpaquePointer?) -> Bool {
        connection.wait(for: op, seconds: 3)
    }
}

/// Collects sink infos across a list operation's callbacks (mainloop thread), read after the wait.
final class SinkCollector: @unchecked Sendable {
    let mainloop: OpaquePointer
    var sinks: [SinkInfo] = []
    var inputs: [SinkInputInfo] = []
    init(mainloop: OpaquePointer) { self.mainloop = mainloop }
}

/// One string answered by a callback (mainloop thread), read after the wait.
final class StringBox: @unchecked Sendable {
    let mainloop: OpaquePointer
    var value: String?
    init(mainloop: OpaquePointer) { self.mainloop = mainloop }
}
