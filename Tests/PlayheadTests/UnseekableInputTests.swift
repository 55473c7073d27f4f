import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// A seek in an input that cannot seek (a pipe; likewise HTTP without ranges) beyond what is buffered is refused,
/// like `AVPlayer`'s: the completion says false and nothing changes. (The engine used to flush what it had buffered,
/// move its clock to the target, and only then learn that the input could not seek: the position jumped there and
/// back, and the sound skipped what had been buffered, all of a short file.) A seek ahead within what is buffered is
/// carried out there, as mpv's cache does. An item's start position is reached by reading on to it.
@MainActor @Suite(.serialized) struct UnseekableInputTests {
    /// A named pipe in a scratch folder, and the process writing `file` into it (to terminate when done).
    func pipe(_ file: URL) throws -> (URL, Process) {
        let fifo = Paths.scratch("fifo").appendingPathComponent("pipe")
        guard mkfifo(fifo.path, 0o600) == 0 else { throw TestSupportError("mkfifo \(fifo.path) failed") }
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/bin/sh")
        writer.arguments = ["-c", "cat '\(file.path)' > '\(fifo.path)'"]
        try writer.run()
        return (fifo, writer)
    }

    /// Plays a `seconds` tone through a pipe and, once more than 1 s has played and `buffered` seconds are read, seeks
    /// exactly to `aim(position)` (rounded to the millisecond); then plays to the end. What the seek said, its target,
    /// the position after it, and the seconds heard.
    func seekInAPipe(toneSeconds: Double, buffered: Double, aim: (Double) -> Double) async throws -> (
        finished: Bool, target: Double, after: Double, heard: Double
    ) {
        let (fifo, writer) = try pipe(try Fixtures.tone(seconds: toneSeconds, ext: "wav"))
        defer { if writer.isRunning { writer.terminate() } }
        let sink = try TestSink()
        let player = Player.onSink(sink)
        let ended = endedFlag(player)
        player.replaceCurrentItem(with: PlayerItem(url: fifo))
        player.play()
        #expect(
            await eventually {
                player.currentTime().seconds > 1
                    && player.currentItem?.loadedTimeRanges.first.map { $0.end.seconds >= buffered } == true
            })
        let target = (aim(player.currentTime().seconds) * 1000).rounded() / 1000
        let finished = await player.seek(
            to: MediaTime(seconds: target, preferredTimescale: 1000), toleranceBefore: .zero, toleranceAfter: .zero)
        let after = player.currentTime().seconds
        #expect(await eventually(timeout: 20) { ended.value }, "the item did not end")
        player.close()
        return (finished, target, after, AudioAnalysis.audibleSeconds(sink.stopRecording()))
    }

    /// 10 s into a 12 s tone, from about 1 s: past the 5 s a file buffers ahead.
    @Test func aSeekInAPipeBeyondWhatIsBufferedIsRefusedAndPlaybackGoesOn() async throws {
        let r = try await seekInAPipe(toneSeconds: 12, buffered: 0) { _ in 10 }
        #expect(!r.finished, "a seek in a pipe said it finished")
        #expect(r.after > 0.9 && r.after < 2, "after the refused seek the position is \(r.after) s")
        #expect(abs(r.heard - 12) < 0.3, "\(r.heard) s of the 12 s tone heard")
    }

    /// 2.5 s ahead in an 8 s tone, from about 1 s: within what is buffered, so the seek is carried out there (it was
    /// refused): it finishes at its target and the 2.5 s skipped are not heard.
    @Test func aSeekInAPipeWithinWhatIsBufferedIsCarriedOut() async throws {
        let r = try await seekInAPipe(toneSeconds: 8, buffered: 4.5) { $0 + 2.5 }
        #expect(r.finished, "a seek within what is buffered said it did not finish")
        #expect(
            r.after >= r.target && r.after < r.target + 0.5,
            "after the seek to \(r.target) s the position is \(r.after) s")
        #expect(abs(r.heard - 5.5) < 0.3, "\(r.heard) s of the 8 s tone heard, 2.5 s skipped")
    }

    @Test func anItemStartsAtItsStartPositionInAPipeByReadingOn() async throws {
        // The position chirp (200 + 2t Hz) through a pipe, the item asked to start at 200 s: the first sound heard
        // is 600 Hz, and the play head never shows less than 200 s. (It started from the beginning: 200 Hz.)
        let (fifo, writer) = try pipe(try GaplessFixtures.positionChirp())
        defer { if writer.isRunning { writer.terminate() } }
        let sink = try TestSink()
        let player = Player.onSink(sink)
        let item = PlayerItem(url: fifo)
        let reached = Locked(false)
        item.seek(to: MediaTime(seconds: 200, preferredTimescale: 1000)) { ok in reached.withLock { $0 = ok } }
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually(timeout: 15) { player.timeControlStatus == .playing })
        #expect(player.currentTime().seconds >= 200, "playing at \(player.currentTime().seconds) s")
        #expect(await eventually(timeout: 10) { player.currentTime().seconds > 201.5 })
        #expect(reached.current, "the start's completion did not say it was reached")
        player.close()
        let samples = sink.stopRecording()
        let first = Array(samples[(AudioAnalysis.soundSpan(samples)?.lowerBound ?? 0)...].prefix(24_000))
        #expect(abs(AudioAnalysis.frequency(first) - 600) < 8, "first heard \(AudioAnalysis.frequency(first)) Hz")
    }
}
