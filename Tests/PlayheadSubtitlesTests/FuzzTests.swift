import Foundation
import PlayheadSubtitles
import Testing

/// A seeded random-mutation fuzzer over the W3C corpus files and a few SubRip samples: every mutated input must
/// give a document or an error from both parsers, its cue text must parse, and a timeline must index it — never a
/// crash, a trap or a hang. The run is deterministic (fixed seed, fixed count); `PLAYHEAD_FUZZ_SECONDS=N` runs
/// it for N seconds instead (`scripts/fuzz-subtitles.sh`).
@Suite("Subtitle fuzzing")
struct FuzzTests {
    static let dictionary: [[UInt8]] =
        [
            "-->", "\r", "\n", "\r\n", "\0", "<", ">", "&", "&#x", "&#", "&amp;", "&notin", ";", "<v ", "</", ".", ":",
            "00:00:00.000", "00:00.000", "99:59:59.999", "00:00:01,000 --> 00:00:02,000", "REGION\n", "STYLE\n",
            "NOTE ", "WEBVTT\n\n", "line:", "position:", "size:", "align:", "vertical:", "region:", "id:", "%", ",",
            "X-TIMESTAMP-MAP=MPEGTS:", "LOCAL:", "{\\an8}", "<ruby>", "<rt>", "<c.a.b>", "<lang en>", "<font color=",
            "X1:", "\u{FEFF}", "99999999999999999999", "\t", "\u{0C}", " ",
        ].map { Array($0.utf8) } + [[0xFF], [0xC3], [0xE2, 0x82], [0xEF, 0xBB, 0xBF]]

    static func seeds() -> [[UInt8]] {
        var seeds: [[UInt8]] = []
        for folder in ["wpt-file-parsing", "wpt-cue-parsing"] {
            let url = Corpus.webVTTTests(folder)
            for name in Corpus.files(in: url, withExtension: "vtt") {
                if let data = try? Data(contentsOf: url!.appendingPathComponent(name)) { seeds.append(Array(data)) }
            }
        }
        seeds.append(Array("1\n00:00:01,000 --> 00:00:02,000 X1:1 X2:2 Y1:3 Y2:4\n<i>a</i> {\\an8}<font size=3>b".utf8))
        seeds.append(
            Array("\u{FEFF}2\r\n0:01.5 --> 0:02.25\r\n<b>x</B>\r\n\r\n\r\n00:00:03.000 --> 00:00:04.000\r\n".utf8))
        return seeds
    }

    struct SplitMix64: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static func mutate(_ input: [UInt8], seeds: [[UInt8]], random: inout SplitMix64) -> [UInt8] {
        var bytes = input
        for _ in 0..<Int.random(in: 1...8, using: &random) {
            let position = bytes.isEmpty ? 0 : Int.random(in: 0...bytes.count, using: &random)
            switch Int.random(in: 0..<6, using: &random) {
            case 0 where position < bytes.count:
                bytes[position] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &random)
            case 1:
                bytes.insert(UInt8.random(in: 0...255, using: &random), at: position)
            case 2 where position < bytes.count:
                bytes.removeSubrange(position..<min(bytes.count, position + Int.random(in: 1...64, using: &random)))
            case 3:
                bytes.insert(contentsOf: dictionary.randomElement(using: &random)!, at: position)
            case 4 where position < bytes.count:
                let end = min(bytes.count, position + Int.random(in: 1...256, using: &random))
                bytes.insert(contentsOf: bytes[position..<end], at: Int.random(in: 0...bytes.count, using: &random))
            default:
                let other = seeds.randomElement(using: &random)!
                guard !other.isEmpty else { continue }
                let start = Int.random(in: 0..<other.count, using: &random)
                let end = min(other.count, start + Int.random(in: 1...512, using: &random))
                bytes.insert(contentsOf: other[start..<end], at: position)
            }
        }
        return bytes
    }

    /// Runs every parser over one input and checks what must hold whatever the input.
    static func exercise(_ input: [UInt8]) -> Bool {
        var documents = [SRTParser.parse(input)]
        if let document = try? WebVTTParser.parse(input) { documents.append(document) }
        for document in documents {
            for cue in document.cues {
                _ = cue.parsedText.plainText
                guard cue.sourceLine >= 1 else { return false }
            }
            let timeline = CueTimeline(document)
            for cue in document.cues.prefix(8) {
                let active = timeline.activeCueIndices(at: cue.startTime)
                if cue.endTime > cue.startTime, !active.contains(where: { document.cues[$0] == cue }) { return false }
                _ = timeline.nextChange(after: cue.startTime)
            }
        }
        _ = WebVTTCueTextParser.parse(String(decoding: input, as: UTF8.self))
        return true
    }

    @Test("mutated corpus files give a value or an error", .timeLimit(.minutes(60)))
    func mutations() throws {
        let seeds = Self.seeds()
        try #require(seeds.count > 40)
        // Capped below the test's time limit; use scripts/fuzz-subtitles.sh (libFuzzer) for longer runs.
        let seconds = ProcessInfo.processInfo.environment["PLAYHEAD_FUZZ_SECONDS"].flatMap(Double.init).map {
            min($0, 3300)
        }
        let deadline = Date().addingTimeInterval(seconds ?? 0)
        var random = SplitMix64(state: 0x5EED_0F_5AB7)
        var executions = 0
        var failures: [String] = []
        var slowest: (Double, [UInt8]) = (0, [])
        while seconds == nil ? executions < 5000 : Date() < deadline {
            let input = Self.mutate(seeds[executions % seeds.count], seeds: seeds, random: &random)
            let start = Date()
            if !Self.exercise(input) { failures.append(String(decoding: input.prefix(200), as: UTF8.self)) }
            let elapsed = Date().timeIntervalSince(start)
            if elapsed > slowest.0 { slowest = (elapsed, input) }
            executions += 1
        }
        print("subtitle fuzzing: \(executions) executions, \(failures.count) failures, slowest \(slowest.0) s")
        #expect(failures.isEmpty, "\(failures.prefix(3))")
        // A hang shows up as one input that takes far longer than the rest (inputs are a few kilobytes).
        #expect(slowest.0 < 1, "slowest input (\(slowest.1.count) bytes) took \(slowest.0) s")
    }
}
