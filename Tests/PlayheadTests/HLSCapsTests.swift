import Foundation
import Playhead
import PlayheadTestSupport
import PlayheadVideo
import Testing

/// A video output that reports a window size, as a window on screen does.
final class WindowOutput: VideoOutput, Sendable {
    let size: Locked<CGSize>
    let lastHeight = Locked(0)
    init(width: Int, height: Int) { size = Locked(CGSize(width: width, height: height)) }
    func present(_ frame: VideoFrame) { lastHeight.withLock { $0 = frame.height } }
    func flush() {}
    var displaySize: CGSize { size.current }
}

/// Caps that change while an HLS item plays: the window's size, then the item's own caps, each applied from the
/// next segment. The test origin paces every body to a 16 Mb/s link, where the bandwidth alone would allow the
/// 1080p variant (3.6 Mb/s).
@MainActor @Suite(.serialized) struct HLSCapsTests {
    @Test func theWindowSizeAndTheItemsCapsChooseTheVariantWhilePlaying() async throws {
        let master = try HLSFixtures.tsLadder("ladder-long", seconds: 48)
        let origin = try TestOrigin(serving: try HLSFixtures.root(), trace: [(seconds: 1000, bitsPerSecond: 16e6)])
        func segmentRequests(since: Int) -> [String] {
            origin.requests.dropFirst(since).compactMap { line in
                line.split(separator: " ").dropFirst().first.map(String.init)
            }.filter { $0.hasSuffix(".ts") }
        }
        let sink = try TestSink()
        let window = WindowOutput(width: 640, height: 360)
        let player = Player.onSink(sink)
        let item = PlayerItem(url: origin.url(master))
        item.add(window)
        item.preferredForwardBufferDuration = 6
        let heights = Locked([Int]())
        let events = player.events()
        Task { @MainActor in
            for await e in events {
                if case .variantSwitch(_, _, let height) = e.kind { heights.withLock { $0.append(height) } }
            }
        }
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually { item.status == .readyToPlay }, "\(String(describing: item.error))")
        try await Task.sleep(for: .seconds(4))
        // A 640x360 window: the 360p variant alone, however fast the network.
        var segments = segmentRequests(since: 0)
        #expect(!segments.isEmpty && segments.allSatisfy { $0.contains("/v0/") }, "\(segments)")
        #expect(heights.current == [360], "\(heights.current)")

        // The window grows to 1280x720: up to 720p, never 1080p.
        let mark = origin.requests.count
        window.size.withLock { $0 = CGSize(width: 1280, height: 720) }
        #expect(await eventually(timeout: 15) { heights.current.last == 720 }, "\(heights.current)")
        // The item's own maximum wins over the window: back to 540p.
        item.preferredMaximumResolution = Size(width: 960, height: 540)
        #expect(await eventually(timeout: 15) { heights.current.last == 540 }, "\(heights.current)")
        segments = segmentRequests(since: mark)
        #expect(!segments.contains { $0.contains("/v3/") }, "1080p fetched for a 720p window: \(segments)")
        // A peak bit rate set while playing: the 360p variant (510 kb/s) again.
        item.preferredPeakBitRate = 600_000
        #expect(await eventually(timeout: 15) { heights.current.last == 360 }, "\(heights.current)")
        let switchedAt = origin.requests.count
        try await Task.sleep(for: .seconds(8))
        segments = segmentRequests(since: switchedAt)
        #expect(segments.allSatisfy { $0.contains("/v0/") }, "over the peak bit rate: \(segments)")
        // What is heard and seen now comes from the 360p variant: its 400 Hz tone, its 360-line pictures.
        let samples = sink.stopRecording()
        #expect(abs(AudioAnalysis.frequency(Array(samples.suffix(48_000))) - 400) < 4)
        #expect(window.lastHeight.current == 360, "\(window.lastHeight.current)")
        #expect(item.error == nil, "\(String(describing: item.error))")
        player.pause()
    }
}
