import Foundation
import PlayheadTestSupport
import Testing

/// The only sink goes away (no fallback: the server kills the stream): `playhead` pauses, keeps running, rebuilds
/// its stream when a sink appears, and plays on there when asked.
@Suite(.serialized) struct AudioSessionLostSinkTests {
    @Test func theOnlySinkRemovedPausesAndPlayContinuesOnANewSink() throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            throw TestSupportError("DBUS_SESSION_BUS_ADDRESS is not set: run the tests with scripts/test.sh")
        }
        let server = PrivatePulseServer(withFallback: false)
        try server.start()
        let first = try server.record("test_sink")
        // 2.5 s: a second before the sink goes, the rest on the new one.
        let tone = try Fixtures.tone(seconds: 2.5)
        let p = try PlayheadProcess(["--ao=pulse", "--vo=null", tone.path], environment: server.environment)
        #expect(waitUntil(timeout: 10) { AudioAnalysis.audibleSeconds(first.samples) >= 1 }, "no sound")
        let modules = try server.pactl(["list", "short", "modules"]).stdout.split(separator: "\n")
        let module = try #require(modules.first { $0.contains("sink_name=test_sink") }?.split(separator: "\t").first)
        try server.pactl(["unload-module", String(module)])
        let heardBefore = AudioAnalysis.audibleSeconds(first.stop())
        #expect(p.waitFor("route-change"), "events: \(p.names)")
        let change = p.events.first { ($0["event"] as? String) == "route-change" }
        #expect(change?["reason"] as? String == "oldDeviceUnavailable", "\(String(describing: change))")
        Thread.sleep(forTimeInterval: 0.5)
        #expect(p.process.isRunning, "playhead ended without a sink: \(p.stderr)")
        try server.pactl(["load-module", "module-null-sink", "sink_name=new_sink", "rate=48000", "channels=2"])
        let second = try server.record("new_sink")
        Thread.sleep(forTimeInterval: 1)
        #expect(AudioAnalysis.audibleSeconds(second.samples) == 0, "it played on the new sink without being asked")
        #expect(try Run.command("playerctl", ["-p", "playhead", "play"], timeout: 5).status == 0)
        #expect(p.waitForExit() == 0, "stderr: \(p.stderr)")
        let heardAfter = AudioAnalysis.audibleSeconds(second.stop())
        #expect(
            abs(heardBefore + heardAfter - 2.5) < 0.4, "heard \(heardBefore) + \(heardAfter) s of a 2.5 s tone")
    }
}
