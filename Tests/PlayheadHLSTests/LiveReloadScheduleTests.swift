import Foundation
import Testing

@testable import PlayheadHLS

/// A live playlist of `count` segments of `duration` seconds from media sequence `first`.
private func live(
    first: Int, count: Int, target: Int = 6, duration: Double = 6, header: String = "", ended: Bool = false
) throws -> MediaPlaylist {
    var text = "#EXTM3U\n#EXT-X-TARGETDURATION:\(target)\n#EXT-X-MEDIA-SEQUENCE:\(first)\n\(header)"
    for n in first..<(first + count) { text += "#EXTINF:\(duration),\nseg\(n).ts\n" }
    if ended { text += "#EXT-X-ENDLIST\n" }
    return try PlaylistParser().parseMediaPlaylist(text)
}

@Suite("Live reload schedule")
struct LiveReloadScheduleTests {
    @Test("RFC 8216 6.3.4: target duration after a change, half after no change, from the load's start")
    func reloadIntervals() throws {
        var schedule = LiveReloadSchedule()
        #expect(schedule.loaded(try live(first: 0, count: 5), startedAt: 100) == .reload(at: 106))
        #expect(schedule.loaded(try live(first: 0, count: 5), startedAt: 106) == .reload(at: 109))
        #expect(schedule.loaded(try live(first: 1, count: 5), startedAt: 109) == .reload(at: 115))
        #expect(schedule.unchangedReloads == 0)
        // A new part (low latency) is a change too.
        let parts = try live(first: 1, count: 5, header: "#EXT-X-PART-INF:PART-TARGET=1\n")
        var withPart = parts
        withPart.trailingParts.append(PartialSegment(uri: "p.mp4", duration: 1))
        _ = schedule.loaded(parts, startedAt: 115)
        #expect(schedule.loaded(withPart, startedAt: 121) == .reload(at: 127))
    }

    @Test("an ended playlist is not reloaded")
    func ended() throws {
        var schedule = LiveReloadSchedule()
        #expect(schedule.loaded(try live(first: 0, count: 3, ended: true), startedAt: 0) == .ended)
    }

    @Test("a playlist that stops changing is stalled after the configured reloads, not polled forever")
    func stalled() throws {
        var schedule = LiveReloadSchedule(stalledAfterUnchangedReloads: 4)
        let playlist = try live(first: 10, count: 4, target: 2, duration: 2)
        var time = 0.0
        var outcomes: [LiveReloadSchedule.Next] = []
        for _ in 0..<5 {
            let next = schedule.loaded(playlist, startedAt: time)
            outcomes.append(next)
            if case .reload(let at) = next { time = at }
        }
        #expect(outcomes[0] == .reload(at: 2))
        #expect(outcomes[1] == .reload(at: 3))
        #expect(outcomes[4] == .stalled(unchangedReloads: 4))
        // Stalled within the configured number of half target durations after the last change.
        #expect(time <= 2 + 3 * 1)
    }

    @Test("start: three target durations from the end, HOLD-BACK, EXT-X-START, PART-HOLD-BACK")
    func startPositions() throws {
        let plain = try live(first: 0, count: 10)  // 60 s
        let start = try #require(LiveReloadSchedule.startPosition(of: plain))
        #expect(start.segmentIndex == 7)  // 60 - 18 = 42 s: inside segment 7 (42..48)
        #expect(start.time == 42)

        let holdBack = try live(first: 0, count: 10, header: "#EXT-X-SERVER-CONTROL:HOLD-BACK=25\n")
        let held = try #require(LiveReloadSchedule.startPosition(of: holdBack))
        #expect(held.segmentIndex == 5 && held.time == 30)  // 35 s lies in segment 5 (30..36)

        let explicit = try live(first: 0, count: 10, header: "#EXT-X-START:TIME-OFFSET=-20,PRECISE=YES\n")
        let exact = try #require(LiveReloadSchedule.startPosition(of: explicit))
        #expect(exact.segmentIndex == 6 && exact.time == 40)
        let positive = try live(first: 0, count: 10, header: "#EXT-X-START:TIME-OFFSET=13\n")
        #expect(LiveReloadSchedule.startPosition(of: positive) == .init(segmentIndex: 2, time: 12))
        let beyond = try live(first: 0, count: 10, header: "#EXT-X-START:TIME-OFFSET=-500\n")
        #expect(LiveReloadSchedule.startPosition(of: beyond) == .init(segmentIndex: 0, time: 0))
        let fromMultivariant = LiveReloadSchedule.startPosition(
            of: plain, multivariantStart: StartPoint(timeOffset: 7))
        #expect(fromMultivariant == .init(segmentIndex: 1, time: 6))

        let lowLatency = try live(
            first: 0, count: 10,
            header: "#EXT-X-SERVER-CONTROL:HOLD-BACK=18,PART-HOLD-BACK=3\n#EXT-X-PART-INF:PART-TARGET=1\n")
        #expect(LiveReloadSchedule.startPosition(of: lowLatency, lowLatency: true)?.segmentIndex == 9)
        #expect(LiveReloadSchedule.startPosition(of: lowLatency)?.segmentIndex == 7)

        let short = try live(first: 0, count: 2)
        #expect(LiveReloadSchedule.startPosition(of: short)?.segmentIndex == 0)
        #expect(LiveReloadSchedule.startPosition(of: try live(first: 0, count: 0)) == nil)
    }

    @Test("falling behind the sliding window is detected")
    func fellBehind() throws {
        let window = try live(first: 100, count: 5)
        #expect(LiveReloadSchedule.fellBehind(nextMediaSequence: 99, in: window))
        #expect(!LiveReloadSchedule.fellBehind(nextMediaSequence: 100, in: window))
        #expect(!LiveReloadSchedule.fellBehind(nextMediaSequence: 105, in: window))
    }
}
