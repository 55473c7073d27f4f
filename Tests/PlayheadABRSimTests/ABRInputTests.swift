import Foundation
import PlayheadABRSim
import PlayheadTestSupport
import Testing

/// Movies and traces from files: both trace formats, and one-line errors naming the file for bad ones.
@Suite("ABR simulator input files")
struct ABRInputTests {
    func write(_ text: String, _ name: String) throws -> URL {
        let url = Paths.scratch("abr").appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    func message(_ body: () throws -> Void) -> String {
        do {
            try body()
            return ""
        } catch { return "\(error)" }
    }

    @Test("Sabre JSON and Pensieve text traces")
    func formats() throws {
        let sabreTrace = try ABRTrace.load(
            write(
                #"[{"duration_ms": 500, "bandwidth_kbps": 2000, "latency_ms": 40}, {"duration_ms": 1500, "bandwidth_kbps": 0, "latency_ms": 0}]"#,
                "s.json"))
        #expect(
            sabreTrace.periods == [
                .init(duration: 0.5, bandwidth: 2e6, latency: 0.04), .init(duration: 1.5, bandwidth: 0, latency: 0),
            ])
        #expect(sabreTrace.name == "s")
        let pensieve = try ABRTrace.load(write("0.0 1.5\n1.0 3.0\n2.0 0.5\n4 1\n", "p.txt"))
        #expect(
            pensieve.periods.map(\.duration) == [1, 1, 2, 1]
                && pensieve.periods.map(\.bandwidth) == [1.5e6, 3e6, 0.5e6, 1e6])
        #expect(pensieve.periods.allSatisfy { $0.latency == ABRTrace.pensieveLatency })
        let movie = try loadMovie()
        #expect(movie.segmentCount == 199 && movie.segmentDuration == 3 && movie.bitratesKbps.count == 10)
    }

    @Test("bad movies and traces: one line naming the file and what is wrong")
    func badInput() throws {
        let cases: [(String, String, String)] = [
            ("[{\"duration_ms\": -5, \"bandwidth_kbps\": 1, \"latency_ms\": 0}]", "neg.json", "duration_ms is -5.0"),
            ("[{\"duration_ms\": 5, \"bandwidth_kbps\": 0, \"latency_ms\": 0}]", "zero.json", "carries no data"),
            ("[{\"duration_ms\": 5}]", "short.json", "has no number bandwidth_kbps"),
            ("[1, 2", "garbled.json", "not a JSON array"),
            ("0 1\nx y\n", "garbled.txt", "line 2 is not"),
            ("0 1\n0 2\n", "order.txt", "does not follow"),
            ("", "empty.txt", "is empty"),
        ]
        for (text, name, expected) in cases {
            let url = try write(text, name)
            let m = message { _ = try ABRTrace.load(url) }
            #expect(m.contains(url.path) && m.contains(expected) && !m.contains("\n"), "\(name): \(m)")
        }
        let movies: [(String, String)] = [
            (
                #"{"segment_duration_ms": 3000, "bitrates_kbps": [100, 50], "segment_sizes_bits": [[1, 2]]}"#,
                "not increasing"
            ),
            (#"{"segment_duration_ms": 3000, "bitrates_kbps": [100], "segment_sizes_bits": [[-1]]}"#, "is -1.0"),
            (
                #"{"segment_duration_ms": 3000, "bitrates_kbps": [100, 200], "segment_sizes_bits": [[1]]}"#,
                "has 1 sizes for 2"
            ),
            (
                #"{"segment_duration_ms": 0, "bitrates_kbps": [100], "segment_sizes_bits": [[1]]}"#,
                "segment_duration_ms"
            ),
            (#"{"bitrates_kbps": [100]}"#, "segment_duration_ms is missing"),
            ("{", "not a JSON object"),
        ]
        for (text, expected) in movies {
            let url = try write(text, "movie.json")
            let m = message { _ = try ABRMovie.load(url) }
            #expect(m.contains(url.path) && m.contains(expected) && !m.contains("\n"), "\(m)")
        }
        let missing = message { _ = try ABRMovie.load(URL(fileURLWithPath: "/nonexistent/m.json")) }
        #expect(missing.contains("/nonexistent/m.json") && missing.contains("cannot read"), "\(missing)")
        let folder = Paths.scratch("abr-empty")
        let empty = message { _ = try ABRTrace.load(paths: [folder.path]) }
        #expect(empty.contains(folder.path) && empty.contains("no trace file"), "\(empty)")
    }

    /// Arrivals at 1, 2.5 (after 1.4 s of transfer: asked for at 1.1), a switch, 4 (not counted: a playlist came
    /// first), 5 (asked for at 4.3) and 6 (asked for at 4.8, before 5: 0). Gaps 0.1, 0.3 and 0: the median is 0.1.
    @Test("the player's reaction time, from its log: the median wait from an arrival to the next request")
    func reactionTime() {
        let log = [
            #"{"event":"segment-loaded","time":1,"seconds":1,"bytes":10}"#,
            #"{"event":"segment-loaded","time":2.5,"seconds":1.4,"bytes":10}"#,
            #"{"event":"variant-switch","time":2.6,"bitrate":1000}"#,
            #"{"event":"segment-loaded","time":4,"seconds":1.2,"bytes":10}"#, "not an event",
            #"{"event":"segment-loaded","time":5,"seconds":0.7,"bytes":10}"#,
            #"{"event":"segment-loaded","time":6,"seconds":1.2,"bytes":10}"#,
        ].joined(separator: "\n")
        #expect(abs(ABRPlayerLog.reactionTime(jsonLines: log) - 0.1) < 1e-9)
        #expect(ABRPlayerLog.reactionTime(jsonLines: "") == 0)
    }
}
