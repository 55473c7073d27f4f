import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// Seeks that have nothing to play after them still end: at the item's end, and on a failed item (a QA pass found
/// both never called their handler, and `await seek` waited for good, holding the player and its threads).
@MainActor @Suite(.serialized) struct SeekEndTests {
    func ready(_ url: URL) async throws -> Player {
        let player = Player()
        player.audioOutputChoice = .null(untimed: false)
        let item = PlayerItem(url: url)
        player.replaceCurrentItem(with: item)
        #expect(await eventually { item.status == .readyToPlay }, "\(String(describing: item.error))")
        return player
    }

    /// Paused, an exact seek to the duration and a seek past it finish there, in MP4 (sound and pictures) and WAV.
    @Test(arguments: ["mp4", "wav"]) func aSeekToTheEndFinishes(ext: String) async throws {
        let url = ext == "mp4" ? try Fixtures.numberedVideo() : try Fixtures.tone(seconds: 2, ext: "wav")
        let player = try await ready(url)
        let duration = try #require(player.currentItem?.duration)
        let done = Locked<Bool?>(nil)
        player.seek(to: duration, toleranceBefore: .zero, toleranceAfter: .zero) { f in done.withLock { $0 = f } }
        #expect(await eventually(timeout: 5) { done.current != nil }, "the exact seek to the end never finished")
        #expect(done.current == true)
        #expect(abs(player.currentTime().seconds - duration.seconds) < 0.05, "at \(player.currentTime().seconds)")
        let far = MediaTime(seconds: duration.seconds + 100, preferredTimescale: 1000)
        let past = Task { await player.seek(to: far) }
        let finished = await withTaskGroup(of: Bool?.self) { group in
            group.addTask { await past.value }
            group.addTask {
                try? await Task.sleep(for: .seconds(5))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        #expect(finished == true, "a seek past the end: \(String(describing: finished)) (nil: it never finished)")
        #expect(await player.seek(toFraction: 1), "seek(toFraction: 1)")
    }

    /// A missing file fails; a seek then is refused at once.
    @Test func aSeekOnAFailedItemIsRefused() async throws {
        let player = Player()
        player.audioOutputChoice = .null(untimed: false)
        let item = PlayerItem(url: URL(fileURLWithPath: "/nonexistent/missing.m4a"))
        player.replaceCurrentItem(with: item)
        #expect(await eventually { item.status == .failed })
        let done = Locked<Bool?>(nil)
        player.seek(to: MediaTime(seconds: 1, preferredTimescale: 600)) { f in done.withLock { $0 = f } }
        #expect(await eventually(timeout: 2) { done.current != nil }, "the handler was never called")
        #expect(done.current == false)
        #expect(await player.seek(to: .zero) == false)
    }
}
