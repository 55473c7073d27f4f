import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// Rule 5: a seek to a time that is not a number (`.indefinite`, `.invalid`, NaN-based) is refused with `false` and
/// changes nothing, and a seek by fraction is a no-op on a live item, whose duration is not numeric.
@MainActor @Suite(.serialized) struct SeekRefusalTests {
    @Test func seeksToTimesThatAreNotNumbersAndByFractionAreRefusedOnALiveItem() async throws {
        let stream = try LiveHLSStream("live-seek-refusal", tone: 440)
        try stream.waitForSegments(4)
        let player = Player()
        player.audioOutputChoice = .null(untimed: false)
        let item = PlayerItem(url: try HLSFixtures.url(stream.path))
        let seeks = Locked(0)
        let events = player.events()
        Task { @MainActor in
            for await e in events { if case .seekStarted = e.kind { seeks.withLock { $0 += 1 } } }
        }
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually(timeout: 20) { item.status == .readyToPlay }, "\(String(describing: item.error))")
        #expect(await eventually { player.currentTime().seconds > 0 && player.timeControlStatus == .playing })
        #expect(item.duration.isIndefinite, "\(item.duration)")
        let refused: [(String, MediaTime)] = [
            ("indefinite", .indefinite), ("invalid", .invalid),
            ("NaN seconds", MediaTime(seconds: .nan, preferredTimescale: 600)),
            ("NaN * 2", MediaTime(seconds: Double.nan * 2, preferredTimescale: 1000)),
        ]
        for (name, time) in refused {
            let before = player.currentTime().seconds
            #expect(await player.seek(to: time) == false, "\(name) was not refused")
            let handled = Locked<Bool?>(nil)
            player.seek(to: time, toleranceBefore: .zero, toleranceAfter: .zero) { ok in handled.withLock { $0 = ok } }
            #expect(handled.current == false, "\(name): the handler said \(String(describing: handled.current))")
            let after = player.currentTime().seconds
            #expect(after >= before && after - before < 0.5, "\(name): the position moved \(before) → \(after)")
        }
        #expect(await player.seek(toFraction: 0.5) == false, "a seek by fraction on a live item")
        #expect(await player.seek(toFraction: 0) == false)
        try await Task.sleep(for: .milliseconds(300))
        // Nothing started a seek, and the item plays on as before.
        #expect(seeks.current == 0, "\(seeks.current) seeks started")
        #expect(player.timeControlStatus == .playing && player.rate == 1 && item.status == .readyToPlay)
        #expect(item.error == nil, "\(String(describing: item.error))")
        player.close()
        stream.stop()
    }

    @Test func aSeekByFractionOfANumericDurationLandsThere() async throws {
        let tone = try Fixtures.tone(seconds: 6)
        let player = Player()
        player.audioOutputChoice = .null(untimed: false)
        let item = PlayerItem(url: tone)
        player.replaceCurrentItem(with: item)
        #expect(await eventually { item.status == .readyToPlay && item.duration.isNumeric })
        #expect(await player.seek(toFraction: 0.5))
        #expect(abs(player.currentTime().seconds - 3) < 0.1, "\(player.currentTime().seconds)")
        #expect(await player.seek(toFraction: .nan) == false)
        #expect(abs(player.currentTime().seconds - 3) < 0.1, "\(player.currentTime().seconds)")
        player.close()
    }
}
