import CPulse
import Foundation

extension PulseContextMonitor {
    /// The sinks known now, sorted by index. Any thread.
    var sinkList: [SinkInfo] {
        lock()
        defer { unlock() }
        return sinks.values.sorted { $0.index < $1.index }
    }

    /// The server's default sink name. Any thread.
    var defaultSink: String? {
        lock()
        defer { unlock() }
        return defaultSinkName
    }

    /// Whether the server still has a sink named `name`, asked of the server now (not the cache). Any thread.
    func sinkExists(_ name: String) -> Bool {
        lock()
        defer { unlock() }
        guard let c = context else { return false }
        let collector = SinkCollector(mainloop: mainloop)
        let box = Unmanaged.passRetained(collector)
        wait(pa_context_get_sink_info_by_name(c, name, MonitorCallbacks.sinkList, box.toOpaque()))
        box.release()
        return !collector.sinks.isEmpty
    }

    /// Moves sink input `index` to the sink `name`; true when the server did it. Any thread.
    @discardableResult
    func moveSinkInput(_ index: UInt32, to name: String) -> Bool {
        lock()
        defer { unlock() }
        guard let c = context else { return false }
        let result = Unmanaged.passRetained(StringBox(mainloop: mainloop))
        wait(pa_context_move_sink_input_by_name(c, index, name, MonitorCallbacks.contextSuccess, result.toOpaque()))
        return result.takeRetainedValue().value == "ok"
    }

    /// Every sink input on the server with its owner's process id and volume. Any thread.
    func sinkInputs() -> [SinkInputInfo] {
        lock()
        defer { unlock() }
        guard let c = context else { return [] }
        let collector = SinkCollector(mainloop: mainloop)
        let box = Unmanaged.passRetained(collector)
        wait(pa_context_get_sink_input_info_list(c, MonitorCallbacks.sinkInputList, box.toOpaque()))
        box.release()
        return collector.inputs
    }

    /// Sets sink input `index` to `volume`. Any thread.
    func setVolume(_ volume: pa_cvolume, ofSinkInput index: UInt32) {
        lock()
        defer { unlock() }
        guard let c = context else { return }
        var v = volume
        let result = Unmanaged.passRetained(StringBox(mainloop: mainloop))
        wait(pa_context_set_sink_input_volume(c, index, &v, MonitorCallbacks.contextSuccess, result.toOpaque()))
        result.release()
    }

    /// Stops the reconnection and the subscription (the shared connection stays). Any thread.
    func close() {
        lock()
        closed = true
        unlock()
    }

    /// Handles a subscription event (mainloop thread): sinks are looked up asynchronously, removals answered
    /// from the cache.
    func subscriptionEvent(_ type: pa_subscription_event_type_t, index: UInt32) {
        guard !closed, let c = context else { return }
        let facility = type.rawValue & PA_SUBSCRIPTION_EVENT_FACILITY_MASK.rawValue
        let kind = type.rawValue & PA_SUBSCRIPTION_EVENT_TYPE_MASK.rawValue
        switch facility {
        case PA_SUBSCRIPTION_EVENT_SINK.rawValue:
            if kind == PA_SUBSCRIPTION_EVENT_REMOVE.rawValue {
                if let old = sinks.removeValue(forKey: index) { post(.sinkRemoved(old)) }
            } else if let op = pa_context_get_sink_info_by_index(c, index, MonitorCallbacks.sinkUpdate, selfPointer) {
                pa_operation_unref(op)
            }
        case PA_SUBSCRIPTION_EVENT_SINK_INPUT.rawValue:
            if kind == PA_SUBSCRIPTION_EVENT_NEW.rawValue { post(.sinkInputAdded(index)) }
        case PA_SUBSCRIPTION_EVENT_SERVER.rawValue:
            if let op = pa_context_get_server_info(c, MonitorCallbacks.defaultSinkUpdate, selfPointer) {
                pa_operation_unref(op)
            }
        default: break
        }
    }

    /// A sink's new description arrived (mainloop thread).
    func sinkArrived(_ info: SinkInfo) {
        if let old = sinks[info.index] {
            sinks[info.index] = info
            if old != info { post(.sinkChanged(old: old, new: info)) }
        } else {
            sinks[info.index] = info
            post(.sinkAdded(info))
        }
    }

    /// The kind of port a sink is, from its active port's type, then its properties.
    static func portType(portType: UInt32?, properties: OpaquePointer?) -> AudioSession.PortType {
        func prop(_ key: String) -> String? {
            properties.flatMap { pa_proplist_gets($0, key) }.map { String(cString: $0) }
        }
        switch portType.map({ pa_device_port_type_t(rawValue: $0) }) {
        case PA_DEVICE_PORT_TYPE_HEADPHONES?, PA_DEVICE_PORT_TYPE_HEADSET?: return .headphones
        case PA_DEVICE_PORT_TYPE_SPEAKER?: return .builtInSpeaker
        case PA_DEVICE_PORT_TYPE_HDMI?, PA_DEVICE_PORT_TYPE_TV?: return .hdmi
        case PA_DEVICE_PORT_TYPE_USB?: return .usbAudio
        case PA_DEVICE_PORT_TYPE_LINE?, PA_DEVICE_PORT_TYPE_SPDIF?: return .lineOut
        case PA_DEVICE_PORT_TYPE_HANDSFREE?: return .bluetoothHFP
        case PA_DEVICE_PORT_TYPE_NETWORK?: return .network
        default: break
        }
        let bluetoothPort = portType.map { pa_device_port_type_t(rawValue: $0) } == PA_DEVICE_PORT_TYPE_BLUETOOTH
        if bluetoothPort || prop("device.bus") == "bluetooth" || prop("device.api") == "bluez" {
            let profile = prop("bluetooth.protocol") ?? prop("device.profile.name") ?? ""
            return profile.contains("a2dp") ? .bluetoothA2DP : .bluetoothHFP
        }
        if prop("device.bus") == "usb" { return .usbAudio }
        if prop("tunnel.remote.server") != nil || prop("raop.ip") != nil {
            return .network
        }
        switch prop("device.form_factor") {
        case "headphone", "headset": return .headphones
        case "internal", "speaker": return .builtInSpeaker
        default: break
        }
        if prop("device.class") == "abstract" { return .null }
        return .other
    }
}
