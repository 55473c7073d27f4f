import Foundation
import Testing

@testable import PlayheadFFmpeg

/// Time stamps that jump where two MPEG-TS recordings were joined, made to go on (`DiscontinuousTimeline`).
struct DiscontinuousTimelineTests {
    /// One packet of stream `index` at `seconds` lasting `duration`, in 1/90000.
    func packet(_ index: Int, at seconds: Double, lasting duration: Double) throws -> Packet {
        let p = try Packet()
        p.pointer.pointee.stream_index = Int32(index)
        p.pointer.pointee.pts = Int64((seconds * 90_000).rounded())
        p.pointer.pointee.dts = p.pointer.pointee.pts
        p.pointer.pointee.duration = Int64((duration * 90_000).rounded())
        return p
    }

    /// A 6 s recording from `start`: pictures (stream 0) every 40 ms, sound (stream 1) every 21.33 ms starting
    /// 20 ms after them and ending 37 ms after them, and a subtitle (stream 2) 2 s in; in time order.
    func recording(from start: Double) throws -> [(Packet, StreamInfo.MediaType)] {
        var all: [(Double, Int, Double)] = []
        for i in 0..<150 { all.append((start + Double(i) * 0.04, 0, 0.04)) }
        for i in 0..<283 { all.append((start + 0.02 + Double(i) * 1024 / 48_000, 1, 1024 / 48_000)) }
        all.append((start + 2, 2, 2))
        return try all.sorted { $0.0 < $1.0 }.map { t, index, d in
            (try packet(index, at: t, lasting: d), [.video, .audio, .subtitle][index])
        }
    }

    /// The second recording's time stamps begin 86 s before the first's end: it goes on after the first, its
    /// sound right after the first's sound, its pictures and its subtitle in step with its sound. (A subtitle,
    /// minutes apart from the one before in a broadcast, took its own gap for a jump and came 6 s early.)
    @Test func aJoinedRecordingGoesOnInStep() throws {
        var timeline = DiscontinuousTimeline()
        let first = try recording(from: 100)
        let second = try recording(from: 20)
        for (p, type) in first + second {
            timeline.correct(p, timeBase: (1, 90_000), type: type)
        }
        let seconds = { (p: Packet) in Double(p.pts ?? 0) / 90_000 }
        let firstSoundEnd = first.filter { $0.1 == .audio }.map { seconds($0.0) }.max()! + 1024 / 48_000
        let shift = seconds(second.first { $0.1 == .audio }!.0) - 20.02
        // The sound goes on without a gap or an overlap.
        #expect(abs(seconds(second.first { $0.1 == .audio }!.0) - firstSoundEnd) < 0.001, "shift \(shift)")
        // Pictures (after the first, read before the sound measured the jump) and subtitle moved as far as the
        // sound.
        #expect(abs(seconds(second.last { $0.1 == .video }!.0) - (25.96 + shift)) < 0.001)
        #expect(abs(seconds(second.first { $0.1 == .subtitle }!.0) - (22 + shift)) < 0.001)
        // Every stream's time stamps rise.
        for type: StreamInfo.MediaType in [.video, .audio, .subtitle] {
            let times = (first + second).filter { $0.1 == type }.map { seconds($0.0) }
            #expect(zip(times.dropFirst(), times).allSatisfy { $0 > $1 }, "\(type)")
        }
    }
}
