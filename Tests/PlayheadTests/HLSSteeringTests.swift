import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// Content steering (issue 15): the steering manifest orders the pathways, clones one, and a steering server
/// that goes away leaves playback where it is.
@MainActor @Suite(.serialized) struct HLSSteeringTests {
    /// Writes `dir/master.m3u8`: one 6 s stream (1 s segments) on pathway A (origin `a`) and B (origin `b`), one
    /// `STABLE-VARIANT-ID`, steered by `steering` (a URL or a `data:` URI), starting on A.
    nonisolated static func writeMaster(in dir: URL, steering: String, a: TestOrigin, b: TestOrigin) throws {
        let stream = #"#EXT-X-STREAM-INF:BANDWIDTH=400000,CODECS="avc1.64001f,mp4a.40.2",STABLE-VARIANT-ID="v0""#
        let master = [
            "#EXTM3U", #"#EXT-X-CONTENT-STEERING:SERVER-URI="\#(steering)",PATHWAY-ID="A""#,
            stream + #",PATHWAY-ID="A""#, a.url("keys/clear/index.m3u8").absoluteString,
            stream + #",PATHWAY-ID="B""#, b.url("keys/clear/index.m3u8").absoluteString, "",
        ].joined(separator: "\n")
        try master.write(to: dir.appendingPathComponent("master.m3u8"), atomically: true, encoding: .utf8)
    }

    /// One 6 s stream (1 s segments) on pathways A and B (two hosts, one `STABLE-VARIANT-ID`), steered by a third:
    /// first [A, B] with a 1 s `TTL`; then the manifest clones B onto a fourth host (HOST and PARAMS) as C, puts C
    /// first and clones a pathway that does not exist; then the steering server answers 503. Segments come from A,
    /// then from C after the `TTL` (its playlist asked with the clone's parameter), and from C to the end; the
    /// steering server is asked with `_HLS_pathway` and `_HLS_throughput`; no stall, the whole stream heard; the
    /// bad clone and the steering failures are in the error log, naming the steering URL.
    @Test func theManifestMovesPlaybackToAClonedPathwayAndAnUnreachableServerLeavesItThere() async throws {
        _ = try KeyFixtures.make()
        let root = try HLSFixtures.root()
        let a = try TestOrigin(serving: root)
        let b = try TestOrigin(serving: root)
        let c = try TestOrigin(serving: root, logQueries: true)
        let steering = try TestOrigin(serving: root, logQueries: true)
        let dir = root.appendingPathComponent("steering")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let manifest = dir.appendingPathComponent("manifest.json")
        try #"{"VERSION": 1, "TTL": 1, "PATHWAY-PRIORITY": ["A", "B"]}"#.write(
            to: manifest, atomically: true, encoding: .utf8)
        try Self.writeMaster(in: dir, steering: steering.url("steering/manifest.json").absoluteString, a: a, b: b)
        let sink = try TestSink()
        let player = Player.onSink(sink)
        let recorder = SwitchRecorder(player)
        let item = PlayerItem(url: a.url("steering/master.m3u8"))
        item.preferredForwardBufferDuration = 2
        player.replaceCurrentItem(with: item)
        player.play()
        // The new manifest is served from the first ask on, so that its move comes at the first reload, a `TTL`
        // after the start, with segments left to ask the server again from C (the player asks before segments: a
        // move as late as the last segments, when the start took longer, left no reload from C to check).
        let asked = await eventually(timeout: 20) { steering.requests.contains { $0.contains("manifest.json") } }
        #expect(asked, "\(String(describing: item.error))")
        let cHost = "127.0.0.1:\(c.port)"
        try """
        {"VERSION": 1, "TTL": 1, "PATHWAY-PRIORITY": ["C", "A", "B"], "PATHWAY-CLONES": [
          {"BASE-ID": "B", "ID": "C", "URI-REPLACEMENT": {"HOST": "\(cHost)", "PARAMS": {"via": "clone"}}},
          {"BASE-ID": "Z", "ID": "D", "URI-REPLACEMENT": {"HOST": "\(cHost)"}}]}
        """.write(to: manifest, atomically: true, encoding: .utf8)
        let started = await eventually(timeout: 20) { player.currentTime().seconds >= 0.5 }
        #expect(started, "\(String(describing: item.error))")
        #expect(await eventually(timeout: 10) { c.requests.contains { $0.contains("/seg0") } }, "never moved to C")
        try steering.fail(status: 503)
        let steeringDownAt = c.requests.filter { $0.contains("/seg0") }.count
        #expect(await eventually(timeout: 20) { player.timeControlStatus == .paused && item.status != .unknown })
        try await Task.sleep(for: .milliseconds(200))
        player.close()
        let samples = sink.stopRecording()

        #expect(item.error == nil, "\(String(describing: item.error))")
        let heard = AudioAnalysis.audibleSeconds(samples)
        #expect(abs(heard - 6) < 0.25, "\(heard) s of sound")
        #expect(item.accessLog.allSatisfy { $0.numberOfStalls == 0 }, "stalled")
        let fromA = a.requests.filter { $0.contains("/seg0") }
        let fromC = c.requests.filter { $0.contains("/seg0") }
        #expect(fromA.first?.contains("/keys/clear/seg00.ts") == true, "\(fromA)")
        #expect(fromC.last?.contains("/keys/clear/seg05.ts") == true, "\(fromC)")
        #expect(fromA.count + fromC.count == 6, "A: \(fromA), C: \(fromC)")
        #expect(b.requests.filter { $0.contains("/seg0") }.isEmpty, "\(b.requests)")
        #expect(fromC.count > steeringDownAt, "playback left C when the steering server went down")
        #expect(c.requests.first?.contains("/keys/clear/index.m3u8?via=clone") == true, "\(c.requests)")
        let asks = steering.requests.filter { $0.contains("/steering/manifest.json") }
        #expect(asks.first?.contains("_HLS_pathway=A") == true, "\(asks)")
        #expect(asks.contains { $0.contains("_HLS_pathway=C") && $0.contains("_HLS_throughput=") }, "\(asks)")
        let steeringURL = steering.url("steering/manifest.json").absoluteString
        let entries = item.errorLog.map { ($0.uri, $0.errorStatusCode, $0.errorComment) }
        #expect(
            item.errorLog.contains {
                $0.uri.hasPrefix(steeringURL)
                    && $0.errorComment == "pathway clone D copies pathway Z, which does not exist"
            }, "\(entries)")
        #expect(item.errorLog.contains { $0.uri.hasPrefix(steeringURL) && $0.errorStatusCode == 503 }, "\(entries)")
        #expect(!item.errorLog.contains { $0.failoverTarget != nil }, "\(entries)")
        // The access log names each period's pathway and host; the move is one `pathwayChanged` event.
        let periods = item.accessLog.map { "\($0.pathwayID ?? "nil")@\($0.serverAddress ?? "nil")" }
        #expect(periods.first == "A@127.0.0.1:\(a.port)", "\(periods)")
        #expect(periods.last == "C@\(cHost)", "\(periods)")
        #expect(recorder.pathwayChanges.current == ["A→C"], "\(recorder.pathwayChanges.current)")
    }

    /// A steering manifest held in a `data:` URI is read in place: its `PATHWAY-PRIORITY` puts B first, so every
    /// segment comes from B although the playlist lists A first, and the whole stream is heard.
    @Test func aDataSteeringManifestIsReadInPlace() async throws {
        _ = try KeyFixtures.make()
        let root = try HLSFixtures.root()
        let a = try TestOrigin(serving: root)
        let b = try TestOrigin(serving: root)
        let dir = root.appendingPathComponent("steering-data")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let manifest = Data(#"{"VERSION": 1, "TTL": 300, "PATHWAY-PRIORITY": ["B", "A"]}"#.utf8).base64EncodedString()
        try Self.writeMaster(in: dir, steering: "data:application/json;base64,\(manifest)", a: a, b: b)
        let sink = try TestSink()
        let player = Player.onSink(sink)
        let item = PlayerItem(url: a.url("steering-data/master.m3u8"))
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually(timeout: 30) { player.timeControlStatus == .paused && item.status != .unknown })
        try await Task.sleep(for: .milliseconds(200))
        player.close()
        let samples = sink.stopRecording()
        #expect(item.error == nil, "\(String(describing: item.error))")
        let heard = AudioAnalysis.audibleSeconds(samples)
        #expect(abs(heard - 6) < 0.25, "\(heard) s of sound")
        let fromB = b.requests.filter { $0.contains("/seg0") }
        #expect(fromB.count == 6, "\(fromB)")
        #expect(a.requests.filter { $0.contains("/seg0") }.isEmpty, "\(a.requests)")
        #expect(item.errorLog.isEmpty, "\(item.errorLog.map(\.errorComment))")
    }
}
