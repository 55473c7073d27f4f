import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// Video outputs added to the player itself (a window's layer) show whatever it plays: every item, across
/// replacements and queue advances, the current picture at once when added, and on demand for a window that
/// draws at each display refresh.
@MainActor @Suite(.serialized) struct PlayerVideoOutputTests {
    static func number(_ frame: VideoFrame?) -> Int? {
        frame.map { f in Fixtures.frameNumber { x, y in f.luma(x: x, y: y) } }
    }

    @Test func anOutputOfThePlayerShowsEveryItemItPlays() async throws {
        let video = try Fixtures.numberedVideo()
        let sink = try TestSink()
        let player = Player.onSink(sink)
        let layer = VideoOutputAttachTests.numberedOutput()
        // Added before there is anything to show.
        player.add(layer)
        #expect(layer.frames.isEmpty && player.currentVideoFrame == nil)
        player.replaceCurrentItem(with: PlayerItem(url: video))
        player.play()
        #expect(await eventually { player.timeControlStatus == .playing })
        try await Task.sleep(for: .milliseconds(600))
        #expect(layer.frames.count >= 10, "\(layer.frames.count) pictures in 0.6 s")
        let due = Int(player.currentTime().seconds * 25)
        let last = try #require(layer.frames.last).value
        #expect(abs(last - due) <= 3, "frame \(last) shown at frame \(due)")
        let pulled = try #require(Self.number(player.currentVideoFrame), "no picture to pull")
        #expect(abs(pulled - due) <= 3, "pulled frame \(pulled) at frame \(due)")

        // Another item, from 6 s: the same output goes on with its pictures.
        let second = PlayerItem(url: video)
        second.seek(to: MediaTime(seconds: 6, preferredTimescale: 1000))
        player.replaceCurrentItem(with: second)
        #expect(player.currentVideoFrame != nil, "the last picture left the screen at the change")
        #expect(await eventually { (layer.frames.last?.value ?? 0) >= 150 }, "the second item's pictures never came")

        // Paused: an output added now shows the current picture at once, and nothing more.
        player.pause()
        try await Task.sleep(for: .milliseconds(300))
        let pausedAt = Int(player.currentTime().seconds * 25)
        let late = VideoOutputAttachTests.numberedOutput()
        player.add(late)
        #expect(late.frames.count == 1, "\(late.frames.count) pictures at once")
        if let first = late.frames.first { #expect(abs(first.value - pausedAt) <= 1, "\(first.value) at \(pausedAt)") }
        try await Task.sleep(for: .milliseconds(200))
        #expect(late.frames.count == 1, "pictures keep coming while paused")

        // A removed output is sent nothing more; the other goes on.
        player.remove(layer)
        let told = layer.frames.count
        player.play()
        try await Task.sleep(for: .milliseconds(400))
        #expect(layer.frames.count == told, "a removed output got \(layer.frames.count - told) more pictures")
        #expect(late.frames.count >= 5, "the output still added does not follow the clock")
        player.close()
        _ = sink.stopRecording()
    }

    @Test func anOutputOfAQueuePlayerFollowsTheQueue() async throws {
        let video = try Fixtures.numberedVideo()
        let sink = try TestSink()
        let first = PlayerItem(url: video)
        first.seek(to: MediaTime(seconds: 8.5, preferredTimescale: 1000))
        let player = QueuePlayer(items: [first, PlayerItem(url: video)])
        player.audioOutputChoice = .pulse(device: sink.name)
        let layer = VideoOutputAttachTests.numberedOutput()
        player.add(layer)
        player.play()
        #expect(await eventually { (layer.frames.last?.value ?? 0) >= 220 }, "the first item's pictures never came")
        // The next item from its start: the numbers fall back below 50 and rise again.
        #expect(await eventually(timeout: 6) { (layer.frames.last?.value ?? 255) < 50 }, "no picture of the next item")
        let values = layer.frames.map(\.value)
        let drop = try #require(values.indices.first { $0 > 0 && values[$0] < values[$0 - 1] })
        #expect(values[..<drop].allSatisfy { $0 >= 212 }, "the first item showed pictures before its start")
        #expect(values[drop...].allSatisfy { $0 < 50 }, "pictures of the first item after the advance")
        player.close()
        _ = sink.stopRecording()
    }
}

extension PlayerVideoOutputTests {
    /// A window drawing at 100 Hz asks for the picture due at its next refresh, 20 ms ahead: it gets the picture
    /// whose time that refresh shows (the next one, still waiting for its time, once it is due by then), where the
    /// picture on screen now would be one frame late half the time at 25 fps. Paused, the picture on screen.
    @Test func aWindowGetsThePictureDueAtItsNextRefresh() async throws {
        let sink = try TestSink()
        let player = Player.onSink(sink)
        player.replaceCurrentItem(with: PlayerItem(url: try Fixtures.numberedVideo()))
        player.play()
        #expect(await eventually { player.timeControlStatus == .playing })
        try await Task.sleep(for: .milliseconds(500))
        var exact = 0
        var ahead = 0
        var offByMore: [String] = []
        var behindNow = 0
        for _ in 0..<150 {
            let refresh = player.timebase.time.seconds + 0.020
            let due = Int((refresh * 25).rounded(.down))
            guard
                let pulled = Self.number(
                    player.videoFrame(dueAt: MediaTime(seconds: refresh, preferredTimescale: 90_000)))
            else { continue }
            if pulled == due { exact += 1 }
            if pulled > due { ahead += 1 }
            if abs(pulled - due) > 1 { offByMore.append("\(pulled) for \(due)") }
            if let now = Self.number(player.currentVideoFrame), now < due { behindNow += 1 }
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(ahead == 0, "\(ahead) pictures handed out before their time")
        #expect(offByMore.isEmpty, "\(offByMore)")
        #expect(exact >= 130, "the picture due at the refresh \(exact) times in 150")
        // The check above means something: the picture on screen would often have been a frame late.
        #expect(behindNow >= 30, "the screen's picture was late only \(behindNow) times")
        player.pause()
        try await Task.sleep(for: .milliseconds(300))
        let shown = Self.number(player.currentVideoFrame)
        let later = MediaTime(seconds: player.currentTime().seconds + 1, preferredTimescale: 90_000)
        #expect(Self.number(player.videoFrame(dueAt: later)) == shown, "paused, a later time gives another picture")
        player.close()
        _ = sink.stopRecording()
    }
}
