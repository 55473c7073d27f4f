import CPulse
import Foundation

/// The C callbacks of the audio session's monitor. They run on its mainloop thread, update the cache, post
/// events to the monitor's queue and signal the waiting thread.
enum MonitorCallbacks {
    static func monitor(_ p: UnsafeMutableRawPointer?) -> PulseContextMonitor? {
        p.map { Unmanaged<PulseContextMonitor>.fromOpaque($0).takeUnretainedValue() }
    }

    static func sinkInfo(_ i: UnsafePointer<pa_sink_info>) -> SinkInfo {
        let s = i.pointee
        let port = s.active_port?.pointee
        var type = PulseContextMonitor.portType(portType: port?.type, properties: s.proplist)
        if let driver = s.driver, String(cString: driver).contains("null-sink") { type = .null }
        return SinkInfo(
            index: s.index, name: String(cString: s.name),
            description: s.description.map { String(cString: $0) } ?? String(cString: s.name),
            activePort: port.map { String(cString: $0.name) },
            activePortAvailable: port.map { $0.available != Int32(PA_PORT_AVAILABLE_NO.rawValue) } ?? true,
            portType: type)
    }

    static let success: pa_context_success_cb_t = { _, _, userdata in
        guard let m = monitor(userdata) else { return }
        pa_threaded_mainloop_signal(m.mainloop, 0)
    }

    /// Userdata: a `StringBox`, set to "ok" or "failed".
    static let contextSuccess: pa_context_success_cb_t = { _, ok, userdata in
        guard let userdata else { return }
        let box = Unmanaged<StringBox>.fromOpaque(userdata).takeUnretainedValue()
        box.value = ok != 0 ? "ok" : "failed"
        pa_threaded_mainloop_signal(box.mainloop, 0)
    }

    /// Userdata: a `SinkCollector`.
    static let sinkList: pa_sink_info_cb_t = { _, info, eol, userdata in
        guard let userdata else { return }
        let collector = Unmanaged<SinkCollector>.fromOpaque(userdata).takeUnretainedValue()
        if eol == 0, let info { collector.sinks.append(sinkInfo(info)) }
        if eol != 0 { pa_threaded_mainloop_signal(collector.mainloop, 0) }
    }

    /// Userdata: a `SinkCollector`.
    static let sinkInputList: pa_sink_input_info_cb_t = { _, info, eol, userdata in
        guard let userdata else { return }
        let collector = Unmanaged<SinkCollector>.fromOpaque(userdata).takeUnretainedValue()
        if eol == 0, let i = info?.pointee {
            let pid = pa_proplist_gets(i.proplist, PA_PROP_APPLICATION_PROCESS_ID).flatMap {
                Int32(String(cString: $0))
            }
            collector.inputs.append(
                SinkInputInfo(index: i.index, processID: pid, volume: i.volume, corked: i.corked != 0))
        }
        if eol != 0 { pa_threaded_mainloop_signal(collector.mainloop, 0) }
    }

    /// Userdata: the monitor (a subscription's follow-up lookup).
    static let sinkUpdate: pa_sink_info_cb_t = { _, info, eol, userdata in
        guard let m = monitor(userdata), eol == 0, let info else { return }
        m.sinkArrived(sinkInfo(info))
    }

    /// Userdata: a `StringBox` for the default sink's name.
    static let serverInfo: pa_server_info_cb_t = { _, info, userdata in
        guard let userdata else { return }
        let box = Unmanaged<StringBox>.fromOpaque(userdata).takeUnretainedValue()
        box.value = info?.pointee.default_sink_name.map { String(cString: $0) }
        pa_threaded_mainloop_signal(box.mainloop, 0)
    }

    /// Userdata: the monitor.
    static let defaultSinkUpdate: pa_server_info_cb_t = { _, info, userdata in
        guard let m = monitor(userdata), let name = info?.pointee.default_sink_name else { return }
        m.defaultSinkName = String(cString: name)
    }

}
