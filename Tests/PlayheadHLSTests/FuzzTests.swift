import Foundation
import Testing

@testable import PlayheadHLS

/// SplitMix64: a tiny deterministic generator, so every run mutates the same way.
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

/// Random mutations of playlist bytes: bit flips, interesting bytes, truncation, line duplication, deletion and
/// swaps, attribute garbage and stray tags.
enum PlaylistMutator {
    static let interesting: [UInt8] = Array("\",={$}@#:-09xX.\n\r\t ".utf8) + [0x00, 0xFF, 0xC3]
    static let garbage = [
        ",BANDWIDTH=99999999999999999999999", "=\"", ",URI=\"{$x}\"", ",BYTERANGE=\"5@\"", ",IV=0x",
        ",IV=0x"
            + String(
                repeating: "f", count: 40), ", A=1", ",RESOLUTION=0x0", ",DURATION=-1", "\"", ",,", ",X-Y=\"a,b\"",
        ",TIME-OFFSET=1e308", ",SKIPPED-SEGMENTS=9999999999",
    ]
    static let tags = [
        "#EXT-X-SKIP:SKIPPED-SEGMENTS=3", "#EXT-X-DEFINE:NAME=\"x\",VALUE=\"{$x}\"", "#EXT-X-DEFINE:IMPORT=\"y\"",
        "#EXT-X-DEFINE:QUERYPARAM=\"x\"", "#EXT-X-PART:DURATION=1,URI=\"p\",BYTERANGE=\"10\"", "#EXT-X-BYTERANGE:5",
        "#EXT-X-DISCONTINUITY", "#EXT-X-PROGRAM-DATE-TIME:2024-02-30T25:61:61.9999+99:99", "#EXT-X-MAP:URI=\"i\"",
        "#EXT-X-KEY:METHOD=NONE", "#EXT-X-STREAM-INF:BANDWIDTH=1", "#EXTINF:99999999999999999999,", "{$x}",
        "#EXT-X-PRELOAD-HINT:TYPE=PART,URI=\"h\"", "#EXT-X-DATERANGE:ID=\"d\",START-DATE=\"x\"", "#EXTM3U",
    ]

    static func mutate(_ input: [UInt8], using rng: inout SplitMix64) -> [UInt8] {
        var bytes = input
        for _ in 0..<Int.random(in: 1...4, using: &rng) {
            switch Int.random(in: 0..<8, using: &rng) {
            case 0 where !bytes.isEmpty:
                let index = Int.random(in: 0..<bytes.count, using: &rng)
                bytes[index] ^= 1 << UInt8.random(in: 0..<8, using: &rng)
            case 1 where !bytes.isEmpty:
                bytes[Int.random(in: 0..<bytes.count, using: &rng)] = interesting.randomElement(using: &rng)!
            case 2 where !bytes.isEmpty:
                bytes.removeLast(Int.random(in: 0..<bytes.count, using: &rng))
            case 3, 4, 5:
                var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
                guard !lines.isEmpty else { continue }
                let index = Int.random(in: 0..<lines.count, using: &rng)
                switch Int.random(in: 0..<4, using: &rng) {
                case 0: lines.insert(lines[index], at: index)
                case 1: lines.remove(at: index)
                case 2: lines.swapAt(index, Int.random(in: 0..<lines.count, using: &rng))
                default: lines[index] += Array(garbage.randomElement(using: &rng)!.utf8)
                }
                bytes = Array(lines.joined(separator: [0x0A]))
            default:
                var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
                lines.insert(
                    Array(tags.randomElement(using: &rng)!.utf8), at: Int.random(in: 0...lines.count, using: &rng))
                bytes = Array(lines.joined(separator: [0x0A]))
            }
        }
        return bytes
    }

    /// Runs every entry point on one input. Each must return a value or throw; a crash ends the process.
    /// Returns the inputs whose written form does not parse back to an equal value.
    @discardableResult
    static func exercise(_ bytes: [UInt8]) -> [String] {
        let url = URL(string: "https://example.com/live/index.m3u8?x=1&token=t")
        var roundTripFailures: [String] = []
        for options in [PlaylistParserOptions.lenient, .strict, PlaylistParserOptions(importedVariables: ["y": "1"])] {
            guard let playlist = try? PlaylistParser(options: options).parse(Data(bytes), url: url) else { continue }
            let text = PlaylistWriter().write(playlist)
            let again = try? PlaylistParser(options: PlaylistParserOptions(importedVariables: ["y": "1"])).parse(
                text, url: url)
            // A value that itself contains `{$` cannot be written literally (HLS has no escape): skip those.
            if !text.contains("{$"), again.map(withoutWarnings) != withoutWarnings(playlist) {
                roundTripFailures.append(String(decoding: bytes, as: UTF8.self))
            }
            _ = PlaylistJSON.data(for: playlist)
            _ = ProbeReport.text(for: playlist)
            if let media = playlist.media { _ = try? media.applyingDeltaUpdate(to: media) }
        }
        return roundTripFailures
    }
}

@Suite("Fuzzing (seeded random mutations)")
struct FuzzTests {
    @Test("every mutated corpus playlist gives a value or an error, quickly")
    func seededMutations() throws {
        let files =
            Corpus.files(in: "hls/videojs-m3u8-parser/test/fixtures/integration", withExtension: "m3u8")
            + Corpus.files(in: "hls/grafov-m3u8/sample-playlists", withExtension: "m3u8")
        let seeds = files.compactMap { try? Array(Data(contentsOf: $0)) }.filter { $0.count < 64 * 1024 }
        try #require(seeds.count > 80)
        let seconds = ProcessInfo.processInfo.environment["PLAYHEAD_FUZZ_SECONDS"].flatMap(Double.init)
        let deadline = seconds.map { Date().addingTimeInterval($0) }
        var rng = SplitMix64(state: 0x706C_6179_6865_6164)
        var executions = 0
        var slowest = 0.0
        var roundTripFailures: [String] = []
        while deadline.map({ Date() < $0 }) ?? (executions < 2000) {
            let input = PlaylistMutator.mutate(seeds.randomElement(using: &rng)!, using: &rng)
            let start = Date()
            roundTripFailures += PlaylistMutator.exercise(input)
            slowest = max(slowest, Date().timeIntervalSince(start))
            executions += 1
        }
        print("HLS fuzz: \(executions) executions, 0 crashes, slowest input \(Int(slowest * 1000)) ms")
        #expect(slowest < 2, "an input took \(slowest) s: possible hang")
        #expect(roundTripFailures.isEmpty, "parse → write → parse differs for:\n\(roundTripFailures.prefix(3))")
    }
}
