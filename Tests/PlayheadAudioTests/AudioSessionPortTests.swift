import CPulse
import Foundation
import PlayheadCore
import Testing

@testable import PlayheadAudio

/// What real hardware would report and null sinks cannot: port types, and the active port of the sink playing
/// becoming unavailable (headphones pulled). The monitor's events are fed to a session directly.
@Suite struct AudioSessionPortTests {
    @Test func portTypesComeFromThePortThenTheDeviceProperties() {
        func type(_ port: pa_device_port_type_t?, _ props: [String: String] = [:]) -> AudioSession.PortType {
            let list = pa_proplist_new()
            defer { pa_proplist_free(list) }
            for (k, v) in props { pa_proplist_sets(list, k, v) }
            return PulseContextMonitor.portType(portType: port?.rawValue, properties: list)
        }
        #expect(type(PA_DEVICE_PORT_TYPE_HEADPHONES) == .headphones)
        #expect(type(PA_DEVICE_PORT_TYPE_SPEAKER) == .builtInSpeaker)
        #expect(type(PA_DEVICE_PORT_TYPE_HDMI) == .hdmi)
        #expect(type(PA_DEVICE_PORT_TYPE_USB) == .usbAudio)
        #expect(type(PA_DEVICE_PORT_TYPE_SPDIF) == .lineOut)
        #expect(type(nil, ["device.bus": "bluetooth", "bluetooth.protocol": "a2dp_sink"]) == .bluetoothA2DP)
        #expect(type(nil, ["device.bus": "bluetooth", "bluetooth.protocol": "headset_head_unit"]) == .bluetoothHFP)
        #expect(type(nil, ["tunnel.remote.server": "tcp:10.0.0.2"]) == .network)
        #expect(type(nil, ["raop.ip": "10.0.0.3"]) == .network)
        #expect(type(PA_DEVICE_PORT_TYPE_BLUETOOTH, ["bluetooth.protocol": "a2dp_sink"]) == .bluetoothA2DP)
        #expect(type(nil, ["device.bus": "usb"]) == .usbAudio)
        #expect(type(nil, ["device.class": "abstract"]) == .null)
        #expect(type(nil) == .other)
    }

    @Test func theActivePortOfOurSinkGoingAwayIsOldDeviceUnavailable() throws {
        let session = AudioSession()
        let events = Locked<[AudioSession.Event]>([])
        _ = session.addObserver { e in events.withLock { $0.append(e) } }
        let stream = NSObject()
        session.state.withLock { $0.sinkOf[ObjectIdentifier(stream)] = "alsa_output.analog" }
        let plugged = SinkInfo(
            index: 7, name: "alsa_output.analog", description: "Built-in Audio", activePort: "analog-output-headphones",
            activePortAvailable: true, portType: .headphones)
        var pulled = plugged
        pulled.activePortAvailable = false
        var speaker = plugged
        speaker.activePort = "analog-output-speaker"
        speaker.portType = .builtInSpeaker
        let elsewhere = SinkInfo(
            index: 8, name: "hdmi", description: "HDMI", activePort: "hdmi-output-0", activePortAvailable: true,
            portType: .hdmi)
        var elsewherePulled = elsewhere
        elsewherePulled.activePortAvailable = false

        session.handle(.sinkChanged(old: plugged, new: pulled))
        session.handle(.sinkChanged(old: plugged, new: speaker))
        session.handle(.sinkChanged(old: elsewhere, new: elsewherePulled))  // not our sink: no event
        let reasons = events.withLock { $0 }.compactMap { e -> AudioSession.RouteChangeReason? in
            if case .routeChange(let r, _) = e { return r }
            return nil
        }
        #expect(reasons == [.oldDeviceUnavailable, .routeConfigurationChange])
        let previous = events.withLock { $0 }.first.map { e -> [String] in
            if case .routeChange(_, let route) = e { return route.outputs.compactMap(\.activePort) }
            return []
        }
        #expect(previous?.contains("analog-output-headphones") == true, "\(String(describing: previous))")
    }
}
