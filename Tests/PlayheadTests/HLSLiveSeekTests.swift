import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// Live HLS paused and seeking (streams started by the suite, `HLSLiveTests`): the window kept current while
/// paused, the jump forward on resume, seeks to the edge and inside the window, and a seek that does not wait for
/// the next playlist reload.
extension HLSLiveTests {
    @Test func aPausedLiveItemKeepsItsWindowCurrentJumpsForwardOnResumeAndSeeksStayInTheWindow() async throws {
        let stream = try LiveStreams.stream("live-behind")
        try stream.waitForSegments(4)
        let sink = try TestSink()
        let player = Player.onSink(sink)
        let item = PlayerItem(url: try HLSFixtures.url(stream.path))
        // A small forward buffer: it is full soon after the pause, and the demux thread stops reading.
        item.preferredForwardBufferDuration = 2
        let jumps = Locked([(from: Double, to: Double)]())
        let notified = Locked(0)
        let observer = NotificationCenter.default.addObserver(
            forName: PlayerItem.timeJumpedNotification, object: item, queue: nil
        ) { _ in notified.withLock { $0 += 1 } }
        defer { NotificationCenter.default.removeObserver(observer) }
        let events = player.events()
        Task { @MainActor in
            for await e in events {
                if case .timeJumped(let from, let to) = e.kind { jumps.withLock { $0.append((from, to)) } }
            }
        }
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually(timeout: 20) { item.status == .readyToPlay }, "\(String(describing: item.error))")
        try await Task.sleep(for: .seconds(2))
        player.pause()
        let pausedAt = player.currentTime().seconds
        let before = try HLSFixtures.requestCount()
        // 16 s paused: the window (4 segments, 8 s) moves past everything buffered, and the seekable range follows
        // it as with AVPlayer.
        var ends: [Double] = []
        for _ in 0..<16 {
            try await Task.sleep(for: .seconds(1))
            ends.append(item.seekableTimeRanges.first?.end.seconds ?? 0)
        }
        let moves = zip(ends.dropFirst(), ends).filter { $0 > $1 }.count
        #expect((ends.last ?? 0) - (ends.first ?? 0) > 10 && moves >= 6, "the seekable end while paused: \(ends)")
        #expect(jumps.current.isEmpty && notified.current == 0, "jumped while paused: \(jumps.current)")
        #expect(abs(player.currentTime().seconds - pausedAt) < 0.05, "\(player.currentTime().seconds) \(pausedAt)")
        // The playlist is reloaded on the RFC schedule (a target duration, 2 s, apart), and no media is fetched.
        let paused = try HLSFixtures.loggedRequests(since: before)
        let reloads = paused.filter { $0.path == "/" + stream.path }
        let intervals = zip(reloads.dropFirst(), reloads).map { $0.time - $1.time }
        #expect(reloads.count >= 6, "\(reloads.count) playlist loads in 16 s paused")
        #expect(intervals.allSatisfy { $0 > 0.9 && $0 < 2.4 }, "\(intervals)")
        let segments = paused.filter { $0.path.hasSuffix(".ts") }.count
        #expect(segments <= 1, "\(segments) segments fetched while paused")

        let resumedAt = sink.samplesSoFar.count
        player.play()
        #expect(await eventually(timeout: 20) { !jumps.current.isEmpty }, "no time jump")
        let jump = try #require(jumps.current.first)
        #expect(jump.to - jump.from > 8, "jumped \(jump)")
        #expect(abs(jump.from - pausedAt) < 0.5, "jumped from \(jump.from), paused at \(pausedAt)")
        // Notifications come from the item's notification queue, after the event.
        #expect(await eventually { notified.current >= 1 }, "no time-jumped notification")
        #expect(
            await eventually { player.currentTime().seconds >= jump.to },
            "\(player.currentTime().seconds) \(jump) \(item.seekableTimeRanges) \(player.timeControlStatus)")
        // What follows the jump is heard: the stream's tone, without gaps.
        let landed = sink.samplesSoFar.count
        #expect(await eventually { player.currentTime().seconds >= jump.to + 2.5 })
        #expect(item.error == nil, "\(String(describing: item.error))")
        let heard = Array(sink.samplesSoFar.dropFirst(landed))
        #expect(abs(AudioAnalysis.frequency(heard) - 520) < 4, "\(AudioAnalysis.frequency(heard)) Hz")
        #expect(AudioAnalysis.audibleSeconds(heard) > 1.5, "\(AudioAnalysis.audibleSeconds(heard)) s of sound")
        #expect(AudioAnalysis.longestGap(heard) < 0.05, gapMessage(heard))
        // The resume is heard from the new place at once: not a few milliseconds of the old one, then silence
        // while the jump loads, then the new place.
        let resumed = Array(sink.samplesSoFar.dropFirst(resumedAt))
        let start = try #require(resumed.firstIndex { abs($0) > 0.01 })
        let onset = Array(resumed[start..<min(resumed.count, start + 4_800)])
        #expect(AudioAnalysis.longestGap(onset) < 0.005, "the first 0.1 s heard after play(): \(gapMessage(onset))")

        // A seek to +infinity goes to the live start point (the window's end), as with AVPlayer.
        let edge = try #require(item.seekableTimeRanges.first).end.seconds
        #expect(await player.seek(to: .positiveInfinity, toleranceBefore: .zero, toleranceAfter: .zero))
        #expect(abs(player.currentTime().seconds - edge) < 2.5, "\(player.currentTime().seconds) for \(edge)")
        #expect(await eventually { player.currentTime().seconds > edge - 2 + 0.5 }, "not playing at the edge")

        // A seek inside the window lands there (the seekable window of 4 segments is 2 s: 8 s less the hold-back).
        let window = try #require(item.seekableTimeRanges.first)
        let target = window.start.seconds + window.duration.seconds / 2
        let done = await player.seek(
            to: MediaTime(seconds: target, preferredTimescale: 1000), toleranceBefore: .zero, toleranceAfter: .zero)
        #expect(done)
        #expect(abs(player.currentTime().seconds - target) < 0.1, "\(player.currentTime().seconds) for \(target)")
        #expect(await eventually { player.currentTime().seconds > target + 0.5 }, "not playing after the seek")
        #expect(item.error == nil, "\(String(describing: item.error))")

        // A seek to a time the window has moved past (the item's start) lands at the window's start, and its sound
        // is heard at once: it said it was at the time asked for, and played silence until the clock reached the
        // window (10 s and more).
        let moved = try #require(item.seekableTimeRanges.first)
        #expect(moved.start.seconds > 10, "\(moved)")
        #expect(await player.seek(to: .zero, toleranceBefore: .zero, toleranceAfter: .zero))
        #expect(
            player.currentTime().seconds >= moved.start.seconds - 0.1, "at \(player.currentTime().seconds) for \(moved)"
        )
        let seekHeard = sink.samplesSoFar.count
        try await Task.sleep(for: .seconds(1.5))
        let afterSeek = Array(sink.samplesSoFar.dropFirst(seekHeard))
        #expect(AudioAnalysis.audibleSeconds(afterSeek) > 1, "\(AudioAnalysis.audibleSeconds(afterSeek)) s heard")
    }

    @Test func aSeekDoesNotWaitForTheNextLiveReload() async throws {
        let stream = try LiveStreams.stream("live-seek")
        try stream.waitForSegments(5)
        let sink = try TestSink()
        let player = Player.onSink(sink)
        let item = PlayerItem(url: try HLSFixtures.url(stream.path))
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually(timeout: 20) { item.status == .readyToPlay }, "\(String(describing: item.error))")
        #expect(await eventually { player.currentTime().seconds > 1 })
        // The forward buffer (30 s) is never full on a live stream: the source reads up to the live edge, then
        // sleeps until its next reload, a target duration (2 s) after the last one. Seek right after it reloaded and
        // fetched the new segment.
        let mark = try HLSFixtures.requestCount()
        var reload: HLSFixtures.LoggedRequest?
        #expect(
            await eventually(timeout: 6) {
                let logged = (try? HLSFixtures.loggedRequests(since: mark)) ?? []
                guard let i = logged.lastIndex(where: { $0.path == "/" + stream.path }),
                    logged[(i + 1)...].contains(where: { $0.path.hasSuffix(".ts") })
                else { return false }
                reload = logged[i]
                return true
            }, "no reload and segment")
        let reloaded = try #require(reload)
        let window = try #require(item.seekableTimeRanges.first)
        // Back inside the seekable window (6 s: 12 s listed less the 6 s hold-back), clear of its ends.
        let target = window.start.seconds + 2.5
        let before = try HLSFixtures.requestCount()
        let started = Date().timeIntervalSince1970
        let done = await player.seek(
            to: MediaTime(seconds: target, preferredTimescale: 1000), toleranceBefore: .zero, toleranceAfter: .zero)
        let finished = Date().timeIntervalSince1970
        #expect(done)
        // The seek did not wait for the reload due at `reloaded.time + 2`: it was done long before, and no
        // playlist load came between.
        #expect(finished - started < 1, "the seek took \(finished - started) s")
        #expect(finished < reloaded.time + 2, "done \(finished - reloaded.time) s after the last reload")
        let during = try HLSFixtures.loggedRequests(since: before).filter {
            $0.path == "/" + stream.path && $0.time <= finished
        }
        #expect(during.isEmpty, "\(during.count) playlist loads during the seek")
        #expect(abs(player.currentTime().seconds - target) < 0.1, "\(player.currentTime().seconds) for \(target)")
        // It plays on from there: the stream's tone, without gaps.
        let landed = sink.samplesSoFar.count
        #expect(await eventually { player.currentTime().seconds > target + 2.5 }, "not playing after the seek")
        #expect(item.error == nil, "\(String(describing: item.error))")
        let heard = Array(sink.samplesSoFar.dropFirst(landed))
        #expect(abs(AudioAnalysis.frequency(heard) - 640) < 4, "\(AudioAnalysis.frequency(heard)) Hz")
        #expect(AudioAnalysis.audibleSeconds(heard) > 1.5, "\(AudioAnalysis.audibleSeconds(heard)) s of sound")
        #expect(AudioAnalysis.longestGap(heard) < 0.05, gapMessage(heard))
    }
}
