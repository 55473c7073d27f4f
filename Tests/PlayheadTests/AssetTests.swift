import Foundation
import Observation
import Playhead
import PlayheadTestSupport
import Testing

/// `URLAsset` loading, and every bad input through the API: a `PlaybackError` naming the file or URL.
struct AssetTests {
    @Test func loadsSeveralPropertiesAtOnce() async throws {
        let asset = URLAsset(url: try Fixtures.numberedVideo(), options: [.preferPreciseDurationAndTiming: true])
        let (length, tracks, playable) = try await asset.load(.duration, .tracks, .isPlayable)
        #expect(abs(length.seconds - 10) < 0.1)
        #expect(playable)
        #expect(tracks.map(\.mediaType).sorted { $0.rawValue < $1.rawValue } == [.audio, .video])
        let video = try #require(tracks.first { $0.mediaType == .video })
        #expect(video.naturalSize == Size(width: 320, height: 240))
        #expect(abs(video.nominalFrameRate - 25) < 0.01)
        let rate: Float = try await asset.load(.preferredRate)
        #expect(rate == 1)
        if case .loaded(let d) = asset.status(of: .duration) {
            #expect(d == length)
        } else {
            Issue.record("not loaded")
        }
    }

    /// A track whose language nobody set (MP4's `und`, as ffmpeg writes it) has none: its option is named by its
    /// number, not "Unknown language" (and naming it loads no locale data).
    @Test func anUndeterminedLanguageIsNone() async throws {
        let asset = URLAsset(url: try Fixtures.tone(seconds: 1))
        let tracks = try await asset.load(.tracks)
        let sound = try #require(tracks.first { $0.mediaType == .audio })
        #expect(sound.languageCode == nil)
        let group = try #require(try await asset.loadMediaSelectionGroup(for: .audible))
        #expect(group.options.map(\.displayName) == ["Track 1"])
        #expect(group.options.first?.extendedLanguageTag == nil)
    }

    /// A subtitle file beside the media is an option named by the file (it was "Track 1").
    @Test func aSubtitleFileIsNamedByItsFile() async throws {
        let srt = Paths.fixtures.appendingPathComponent("named-cue.srt")
        try "1\n00:00:00,500 --> 00:00:01,000\nNamed\n".write(to: srt, atomically: true, encoding: .utf8)
        let asset = URLAsset(url: try Fixtures.tone(seconds: 1), options: [.subtitleFiles: [srt]])
        let group = try #require(try await asset.loadMediaSelectionGroup(for: .legible))
        #expect(group.options.map(\.displayName) == ["named-cue.srt"])
    }

    @Test func loadsTagsAndArtwork() async throws {
        let cover = try Fixtures.make("cover.png", ["-f", "lavfi", "-i", "color=c=red:s=64x64:d=1", "-frames:v", "1"])
        let tagged = try Fixtures.make(
            "tagged.mp3",
            [
                "-f", "lavfi", "-i", "sine=frequency=440:duration=1", "-i", cover.path, "-map", "0:a", "-map", "1:v",
                "-c:a", "libmp3lame", "-c:v", "png", "-disposition:v", "attached_pic", "-id3v2_version", "3",
                "-metadata", "title=Test Title", "-metadata", "artist=Test Artist", "-metadata", "album=Test Album",
                "-metadata", "track=3/12",
            ])
        let items = try await URLAsset(url: tagged).load(.metadata)
        #expect(items.string(for: .title) == "Test Title")
        #expect(items.string(for: .artist) == "Test Artist")
        #expect(items.string(for: .albumName) == "Test Album")
        #expect(items.string(for: .trackNumber) == "3/12")
        let art = try #require(items.first { $0.key == .artwork }?.dataValue)
        #expect(Array(art.prefix(4)) == [0x89, 0x50, 0x4E, 0x47], "PNG artwork")
        // The tracks of a file with cover art do not include the picture.
        let tracks = try await URLAsset(url: tagged).load(.tracks)
        #expect(tracks.map(\.mediaType) == [.audio])
    }

    static let badInputs: [(name: String, make: @Sendable () throws -> (URL, String))] = [
        ("missing", { (URL(fileURLWithPath: "/nonexistent/a.m4a"), "no such file") }),
        ("directory", { (Paths.scratch("d"), "directory") }),
        ("empty", { (Fixtures.file("e.mp4", bytes: []), "empty") }),
        (
            "text",
            { (Fixtures.file("t.mp3", bytes: Array(String(repeating: "text ", count: 500).utf8)), "not a media file") }
        ),
        ("unreachable", { (URL(string: "http://127.0.0.1:9/a.mp3")!, "connection refused") }),
        (
            "truncated",
            {
                let whole = try Data(contentsOf: try Fixtures.tone(seconds: 3))
                return (Fixtures.file("cut.m4a", bytes: Array(whole.prefix(whole.count / 3))), "moov atom not found")
            }
        ),
        (
            "unsupported",
            {
                // A WAV whose format tag (0x9999) names no codec FFmpeg knows.
                var wav = Array("RIFF".utf8) + le(UInt32(4036)) + Array("WAVEfmt ".utf8) + le(UInt32(16))
                wav += le(UInt16(0x9999)) + le(UInt16(2)) + le(UInt32(48_000)) + le(UInt32(192_000))
                wav += le(UInt16(4)) + le(UInt16(16)) + Array("data".utf8) + le(UInt32(4000))
                return (Fixtures.file("odd.wav", bytes: wav + [UInt8](repeating: 0, count: 4000)), "unsupported")
            }
        ),
    ]

    @Test(arguments: 0..<badInputs.count)
    @MainActor func badInputThroughTheAPI(_ index: Int) async throws {
        let (url, words) = try Self.badInputs[index].make()
        let source = url.isFileURL ? url.path : url.absoluteString
        do {
            // As with AVFoundation, an asset whose only track cannot be decoded loads, but is not playable.
            let playable = try await URLAsset(url: url).load(.isPlayable)
            #expect(!playable)
            #expect(Self.badInputs[index].name == "unsupported", "\(Self.badInputs[index].name): loading succeeded")
        } catch let error as PlaybackError {
            #expect(error.description.hasPrefix(source), "\(error)")
            #expect(error.description.lowercased().contains(words), "\(error)")
        }
        let item = PlayerItem(url: url)
        let player = Player()
        player.audioOutputChoice = .null(untimed: false)
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually { item.status == .failed })
        let message = item.error?.description ?? ""
        #expect(message.hasPrefix(source) && message.lowercased().contains(words), "\(message)")
    }

    @Test func http404ThroughTheAPI() async throws {
        let origin = try TestOrigin(serving: Paths.fixtures)
        let url = origin.url("missing.m4a")
        do {
            _ = try await URLAsset(url: url).load(.tracks)
            Issue.record("loading succeeded")
        } catch let error as PlaybackError {
            #expect(error.description == "\(url.absoluteString): HTTP 404 Not Found")
            #expect(error.category == .network)
        }
    }

    /// A plain file's URL that redirects to itself forever: the loop is named (FFmpeg, which follows redirects as
    /// far, says only "input/output error"), for the asset's load and the item alike.
    @Test @MainActor func redirectLoopThroughTheAPI() async throws {
        let origin = try TestOrigin(serving: Paths.fixtures)
        let url = origin.url("tone.m4a", ["redirect": "loop"])
        let expected = "\(url.absoluteString): more than 10 redirects (a redirect loop)"
        do {
            _ = try await URLAsset(url: url).load(.tracks)
            Issue.record("loading succeeded")
        } catch let error as PlaybackError {
            #expect(error.description == expected)
        }
        let item = PlayerItem(url: url)
        let player = Player()
        player.audioOutputChoice = .null(untimed: false)
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually { item.status == .failed })
        #expect(item.error?.description == expected)
        player.close()
    }
}

/// Replacing the item while playing.
@MainActor struct ReplaceItemTests {
    @Test func replacingTheItemPlaysTheNewOne() async throws {
        let sink = try TestSink()
        // Both fixtures first: making one runs ffmpeg on the main actor, which must not lengthen the first item's
        // 0.7 s (on a fresh machine the second was made while the first played on, and 0.2 s more was heard).
        let (first, next) = (try Fixtures.tone(seconds: 6), try Fixtures.tone(seconds: 1, frequency: 1000))
        let player = Player.onSink(sink)
        player.replaceCurrentItem(with: PlayerItem(url: first))
        player.play()
        #expect(await eventually { player.timeControlStatus == .playing })
        try await Task.sleep(for: .milliseconds(700))
        let second = PlayerItem(url: next)
        player.replaceCurrentItem(with: second)
        #expect(player.currentItem === second)
        #expect(await eventually { second.status == .readyToPlay })
        #expect(await eventually { player.timeControlStatus == .playing }, "keeps the rate across items")
        #expect(await eventually(timeout: 5) { player.timeControlStatus == .paused })
        let samples = sink.stopRecording()
        // 0.7 s of 440 Hz, then 1 s of 1 kHz, and nothing more of the first item.
        #expect(abs(AudioAnalysis.audibleSeconds(samples) - 1.7) < 0.2, "\(AudioAnalysis.audibleSeconds(samples))")
        let tail = Array(samples.suffix(from: AudioAnalysis.soundSpan(samples)!.upperBound - 24_000))
        #expect(abs(AudioAnalysis.frequency(tail) - 1000) < 10)
    }
}

private func le<T: FixedWidthInteger>(_ v: T) -> [UInt8] { withUnsafeBytes(of: v.littleEndian) { Array($0) } }

/// `@Observable` as an app uses it: `Observations` sees the state changes.
@MainActor struct ObservationTests {
    @Test func observationsSeeTimeControlStatus() async throws {
        let player = Player()
        player.audioOutputChoice = .null(untimed: false)
        let seen = Locked([Player.TimeControlStatus]())
        let watcher = Task { @MainActor in
            for await status in Observations({ player.timeControlStatus }) {
                seen.withLock { $0.append(status) }
                if status == .playing { return }
            }
        }
        player.replaceCurrentItem(with: PlayerItem(url: try Fixtures.tone(seconds: 1)))
        player.play()
        _ = await watcher.value
        #expect(seen.current.first == .paused || seen.current.first == .waitingToPlayAtSpecifiedRate)
        #expect(seen.current.last == .playing)
    }
}
