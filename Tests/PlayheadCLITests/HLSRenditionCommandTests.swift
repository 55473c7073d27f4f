import Foundation
import PlayheadTestSupport
import Testing

/// `playhead` on a ladder whose sound is only in audio renditions (issue 14): the rendition of the user's language
/// plays (the `DEFAULT` one otherwise), the whole stream is heard, and only that rendition is fetched.
@Suite(.serialized) struct HLSRenditionCommandTests {
    /// Plays the rendition ladder with `environment` into a WAV file (untimed): the samples and the origin's requests.
    func play(environment: [String: String], options: [String] = []) throws -> (samples: [Float], requests: [String]) {
        let origin = try TestOrigin(serving: try HLSFixtures.root())
        let url = origin.url(try HLSFixtures.renditionLadder())
        let home = Paths.scratch("renditions-home")
        let wav = home.appendingPathComponent("out.wav")
        try? FileManager.default.removeItem(at: wav)
        let r = try Run.command(
            Paths.playheadBinary(),
            ["--ao=wav:\(wav.path)", "--untimed", "--vo=null", "--no-mpris"] + options + [url.absoluteString],
            environment: ["HOME": home.path, "XDG_STATE_HOME": home.path].merging(environment) { $1 }, timeout: 60)
        #expect(r.status == 0, "exit \(r.status): \(r.stderr)")
        return (
            AudioAnalysis.wavSamples(wav),
            origin.requests.map { String($0.split(separator: " ").dropFirst().first ?? "") }
        )
    }

    /// The user's language (`LANG`) chooses, `--alang` and `--aid` (the sound tracks are the renditions, in the
    /// playlist's order) override it; without a match the `DEFAULT` rendition (English) plays.
    @Test(arguments: [
        ("C", [], "en"), ("de_DE.UTF-8", [], "de"), ("fr_FR.UTF-8", [], "en"), ("C", ["--alang=ger"], "de"),
        ("de_DE.UTF-8", ["--alang=en"], "en"), ("C", ["--aid=2"], "de"),
    ])
    func theRenditionOfTheUsersLanguagePlays(lang: String, options: [String], expected: String) throws {
        let rendition = try #require(HLSFixtures.audioRenditions.first { $0.language == expected })
        let other = try #require(HLSFixtures.audioRenditions.first { $0.language != expected })
        let (samples, requests) = try play(
            environment: ["LANG": lang, "LANGUAGE": "", "LC_ALL": ""], options: options)
        let heard = AudioAnalysis.audibleSeconds(samples)
        #expect(abs(heard - 8) < 0.2, "LANG=\(lang): \(heard) s of an 8 s stream")
        let frequency = AudioAnalysis.frequency(samples)
        #expect(abs(frequency - Double(rendition.tone)) < 3, "LANG=\(lang): \(frequency) Hz")
        #expect(requests.contains { $0.contains("/a-\(expected)/seg") }, "\(requests)")
        #expect(!requests.contains { $0.contains("/a-\(other.language)/") }, "the other rendition: \(requests)")
    }
}

extension HLSRenditionCommandTests {
    /// The chosen rendition's playlist answers 404: the other rendition of the group plays instead (the whole
    /// stream, exit 0), and the error log in `--log-json` has the failed request with the rendition's name.
    @Test func aRenditionThatCannotBeHadGivesWayToAnother() throws {
        let path = try HLSFixtures.renditionLadder()
        let dir = try HLSFixtures.root().appendingPathComponent("renditions")
        let master = try String(contentsOf: dir.appendingPathComponent("master.m3u8"), encoding: .utf8)
            .replacingOccurrences(of: "URI=\"a-en/index.m3u8\"", with: "URI=\"a-missing/index.m3u8\"")
        try master.write(to: dir.appendingPathComponent("missing.m3u8"), atomically: true, encoding: .utf8)
        let home = Paths.scratch("renditions-missing")
        let log = home.appendingPathComponent("events.jsonl")
        let wav = home.appendingPathComponent("out.wav")
        try? FileManager.default.removeItem(at: log)
        try? FileManager.default.removeItem(at: wav)
        let url = try HLSFixtures.url(path.replacingOccurrences(of: "master.m3u8", with: "missing.m3u8"))
        let r = try Run.command(
            Paths.playheadBinary(),
            [
                "--ao=wav:\(wav.path)", "--untimed", "--vo=null", "--no-mpris", "--log-json=\(log.path)",
                url.absoluteString,
            ],
            environment: ["HOME": home.path, "XDG_STATE_HOME": home.path, "LANG": "C", "LANGUAGE": ""], timeout: 60)
        #expect(r.status == 0, "exit \(r.status): \(r.stderr)")
        let events = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").compactMap {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let errors = events.filter { $0["event"] as? String == "error-log" }
        #expect(
            errors.contains {
                ($0["uri"] as? String)?.contains("a-missing/index.m3u8") == true
                    && ($0["comment"] as? String)?.contains("the audio rendition \"English\" cannot be played") == true
            }, "\(errors)")
        #expect(events.contains { $0["event"] as? String == "ended" }, "not played to the end: \(events.suffix(3))")
        let samples = AudioAnalysis.wavSamples(wav)
        let german = try #require(HLSFixtures.audioRenditions.first { $0.language == "de" })
        #expect(
            abs(AudioAnalysis.frequency(samples) - Double(german.tone)) < 3, "\(AudioAnalysis.frequency(samples)) Hz")
        #expect(abs(AudioAnalysis.audibleSeconds(samples) - 8) < 0.2, "\(AudioAnalysis.audibleSeconds(samples)) s")
    }

    /// In a terminal, `#` plays the next rendition where playback is: the first tone, then the other, with the
    /// rendition named on the terminal.
    @Test func theHashKeyPlaysTheNextRendition() throws {
        let url = try HLSFixtures.url(try HLSFixtures.renditionLadder())
        let home = Paths.scratch("renditions-key")
        let sink = try TestSink()
        let r = try Run.inTerminal(
            [
                try Paths.playheadBinary(), "--no-mpris", "--vo=null", "--ao=pulse", "--audio-device=\(sink.name)",
                url.absoluteString,
            ], keys: [(2.5, "#")], tail: 8,
            environment: ["HOME": home.path, "XDG_STATE_HOME": home.path, "LANG": "C", "LANGUAGE": ""], timeout: 40)
        #expect(r.status == 0, "exit \(r.status): \(r.stdout)")
        #expect(r.stdout.contains("sound: Deutsch"), "\(r.stdout.suffix(400))")
        let tones = AudioAnalysis.toneSequence(sink.stopRecording())
        #expect(tones == HLSFixtures.audioRenditions.map(\.tone), "\(tones)")
    }
}
