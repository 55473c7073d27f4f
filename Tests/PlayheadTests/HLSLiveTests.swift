import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// Live HLS: sliding-window streams written in real time by `ffmpeg -re` into the nginx root, one per test, all
/// started when the suite begins (each is listing segments when its test comes).
@MainActor
@Suite(
    .serialized,
    .liveStreams {
        [
            try LiveHLSStream("live-follow", tone: 440, listSize: 5),
            try LiveHLSStream("live-behind", tone: 520, listSize: 4),
            try LiveHLSStream("live-seek", tone: 640, listSize: 6),
            try LiveHLSStream(ladder: "live-ladder", tone: 480),
            try LiveHLSStream("live-event", tone: 560, event: true),
            try LiveHLSStream("live-long-window", tone: 600, listSize: 10),
        ]
    })
struct HLSLiveTests {
    @Test func followsTheLiveEdgeReloadingOnScheduleThenAStalledPlaylistIsAnError() async throws {
        let stream = try LiveStreams.stream("live-follow")
        try stream.waitForSegments(4)
        let sink = try TestSink()
        let player = Player.onSink(sink)
        let url = try HLSFixtures.url(stream.path)
        let before = try HLSFixtures.requestCount()
        let item = PlayerItem(url: url)
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually(timeout: 20) { item.status == .readyToPlay }, "\(String(describing: item.error))")
        #expect(item.duration.isIndefinite, "a live stream's duration: \(item.duration)")
        #expect(await eventually { player.currentTime().seconds > 0 })
        let firstWindow = try #require(item.seekableTimeRanges.first)
        // It starts three target durations (6 s) from the live edge: at the seekable window's end.
        #expect(
            abs(player.currentTime().seconds - firstWindow.end.seconds) < 2.5,
            "started at \(player.currentTime().seconds), window \(firstWindow)")
        try await Task.sleep(for: .seconds(30))
        let window = try #require(item.seekableTimeRanges.first)
        let position = player.currentTime().seconds
        #expect(item.error == nil, "\(String(describing: item.error))")
        #expect(window.start.seconds - firstWindow.start.seconds > 22, "the window slid: \(firstWindow) → \(window)")
        #expect(abs(position - window.end.seconds) < 4, "the play head \(position) keeps to the edge: \(window)")
        let samples = sink.stopRecording()
        #expect(abs(AudioAnalysis.frequency(samples) - 440) < 4)
        #expect(AudioAnalysis.audibleSeconds(samples) > 28, "\(AudioAnalysis.audibleSeconds(samples)) s of sound")
        #expect(AudioAnalysis.longestGap(samples) < 0.05, gapMessage(samples))

        // Reloads (RFC 8216 6.3.4): a target duration (2 s) after a load that found the playlist changed, half of
        // it after one that did not, never faster, never slower.
        let reloads = try HLSFixtures.loggedRequests(since: before).filter { $0.path == "/" + stream.path }
        let intervals = zip(reloads.dropFirst(), reloads).map { $0.time - $1.time }.dropFirst()
        #expect(reloads.count > 13, "\(reloads.count) playlist loads in 30 s")
        #expect(intervals.allSatisfy { $0 > 0.9 && $0 < 2.4 }, "\(intervals)")
        #expect(intervals.filter { $0 > 1.8 }.count > 9, "reloads a target duration apart: \(intervals)")
        let segments = try HLSFixtures.requests(since: before).filter { $0.hasSuffix(".ts") }
        #expect(Set(segments).count == segments.count, "a segment fetched twice: \(segments)")

        // The writer dies without ending the playlist: an error naming the playlist, not a hang.
        let stopped = try HLSFixtures.requestCount()
        stream.stop()
        #expect(await eventually(timeout: 30) { item.status == .failed })
        let message = item.error?.description ?? ""
        #expect(message.hasPrefix(url.absoluteString) && message.contains("stopped changing"), "\(message)")
        #expect(item.errorLog.last?.uri == url.absoluteString)
        // Unchanged reloads come half a target duration apart; six of them make the error.
        let last = try HLSFixtures.loggedRequests(since: stopped).filter { $0.path == "/" + stream.path }
        let unchanged = zip(last.dropFirst(), last).map { $0.time - $1.time }.suffix(5)
        #expect(unchanged.count == 5 && unchanged.allSatisfy { $0 > 0.9 && $0 < 1.3 }, "\(unchanged)")
    }

    @Test func aLiveLadderSwitchesUpByMediaSequenceReloadingOnlyTheVariantPlaying() async throws {
        let stream = try LiveStreams.stream("live-ladder")
        try stream.waitForSegments(4)
        // 3 Mb/s: room for the 1.2 Mb/s variant once measured.
        let origin = try TestOrigin(serving: try HLSFixtures.root(), trace: [(600, 3e6)])
        let sink = try TestSink()
        let player = Player.onSink(sink)
        let item = PlayerItem(url: origin.url(stream.path))
        let switches = Locked([Int]())
        let stalls = Locked(0)
        let events = player.events()
        Task { @MainActor in
            for await e in events {
                switch e.kind {
                case .variantSwitch(let bitRate, _, _): switches.withLock { $0.append(bitRate) }
                case .stalled: stalls.withLock { $0 += 1 }
                default: break
                }
            }
        }
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually(timeout: 20) { item.status == .readyToPlay }, "\(String(describing: item.error))")
        #expect(await eventually(timeout: 30) { switches.current.count >= 2 }, "no switch: \(switches.current)")
        try await Task.sleep(for: .seconds(8))
        #expect(item.error == nil, "\(String(describing: item.error))")
        #expect(stalls.current == 0)
        let samples = sink.stopRecording()
        #expect(AudioAnalysis.longestGap(samples) < 0.05, gapMessage(samples))
        // Segments follow one another by media sequence number across the switch: none twice, none skipped.
        let requests = origin.requests
        let numbers = requests.compactMap { r -> Int? in
            guard let name = r.split(separator: " ")[1].split(separator: "/").last, name.hasSuffix(".ts") else {
                return nil
            }
            return Int(name.dropFirst(3).dropLast(3))
        }
        #expect(numbers == Array((numbers.first ?? 0)..<((numbers.first ?? 0) + numbers.count)), "\(requests)")
        let v0 = requests.lastIndex { $0.contains("/v0/") } ?? 0
        let v1 = requests.firstIndex { $0.contains("/v1/") } ?? 0
        #expect(v0 < v1, "the lower variant was still fetched after the switch: \(requests)")
    }

    @Test func anEventPlaylistKeepsItsStartSeekableAndStartsNearItsEdge() async throws {
        let stream = try LiveStreams.stream("live-event")
        try stream.waitForSegments(5)
        let player = Player()
        player.audioOutputChoice = .null(untimed: false)
        let item = PlayerItem(url: try HLSFixtures.url(stream.path))
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually(timeout: 20) { item.status == .readyToPlay }, "\(String(describing: item.error))")
        #expect(item.duration.isIndefinite)
        #expect(await eventually { player.currentTime().seconds > 0 })
        let first = try #require(item.seekableTimeRanges.first)
        #expect(first.start.seconds == 0, "\(first)")
        // Three target durations from the edge, not at the beginning.
        #expect(player.currentTime().seconds > 3, "started at \(player.currentTime().seconds)")
        // The window grows at its end (two more segments) and keeps its start.
        #expect(
            await eventually(timeout: 10) {
                (item.seekableTimeRanges.first?.end.seconds ?? 0) > first.end.seconds + 3
            }, "\(first) → \(item.seekableTimeRanges)")
        let later = try #require(item.seekableTimeRanges.first)
        #expect(later.start.seconds == 0 && later.end.seconds > first.end.seconds + 3, "\(first) → \(later)")
        // Its beginning stays reachable.
        let done = await player.seek(
            to: MediaTime(value: 1, timescale: 1), toleranceBefore: .zero, toleranceAfter: .zero)
        #expect(done)
        #expect(abs(player.currentTime().seconds - 1) < 0.1, "\(player.currentTime().seconds)")
        #expect(await eventually { player.currentTime().seconds > 1.5 })
        #expect(item.error == nil, "\(String(describing: item.error))")
    }
}
