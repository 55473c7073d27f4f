import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// HLS streams whose sound is an audio rendition beside video-only variants (issue 14), heard at the sink: a seek
/// keeps the rendition and the position; live, both playlists reload on their own schedules and the pictures keep
/// to the sound's clock. The live stream starts with the suite, so that it lists segments when its test (the
/// last) comes.
@MainActor
@Suite(.serialized, .liveStreams { [try LiveHLSStream(renditions: "live-renditions", tone: 520, listSize: 5)] })
struct HLSRenditionTests {
    /// The one rendition of `renditionLadder` whose segments `requests` fetched (the player's choice comes from
    /// this process's languages); nil when none or both were.
    nonisolated static func fetchedRendition(_ requests: [String]) -> HLSFixtures.AudioRendition? {
        let fetched = HLSFixtures.audioRenditions.filter { r in
            requests.contains { $0.contains("/renditions/a-\(r.language)/seg") }
        }
        return fetched.count == 1 ? fetched[0] : nil
    }

    @Test func aSeekKeepsTheRenditionsSoundAndThePosition() async throws {
        let path = try HLSFixtures.renditionLadder()
        let sink = try TestSink()
        let player = Player.onSink(sink)
        let before = try HLSFixtures.requestCount()
        let item = PlayerItem(url: try HLSFixtures.url(path))
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually(timeout: 20) { player.currentTime().seconds > 1 }, "\(String(describing: item.error))")
        // Every rendition is a sound track of the item, in the playlist's order, in its language.
        let sounds = item.tracks.filter { $0.mediaType == .audio }
        #expect(sounds.map(\.languageCode) == ["en", "de"], "\(item.tracks)")
        #expect(item.tracks.filter { $0.mediaType == .video }.count == 1, "\(item.tracks)")
        let target = MediaTime(seconds: 5, preferredTimescale: 600)
        #expect(await player.seek(to: target, toleranceBefore: .zero, toleranceAfter: .zero))
        let landed = sink.samplesSoFar.count
        #expect(abs(player.currentTime().seconds - 5) < 0.3, "at \(player.currentTime().seconds) after the seek")
        #expect(await eventually(timeout: 10) { player.currentTime().seconds > 7.2 })
        let heard = Array(sink.samplesSoFar.dropFirst(landed))
        let requests = try HLSFixtures.requests(since: before)
        let rendition = try #require(Self.fetchedRendition(requests), "renditions fetched: \(requests)")
        #expect(
            abs(AudioAnalysis.frequency(heard) - Double(rendition.tone)) < 4, "\(AudioAnalysis.frequency(heard)) Hz")
        #expect(AudioAnalysis.audibleSeconds(heard) > 1.8, "\(AudioAnalysis.audibleSeconds(heard)) s after the seek")
        #expect(AudioAnalysis.longestGap(heard) < 0.05, gapMessage(heard))
        #expect(item.error == nil, "\(String(describing: item.error))")
        player.close()
        _ = sink.stopRecording()
    }

    /// `loadMediaSelectionGroup(for: .audible)` lists the renditions (name, language, the default), and
    /// `select(_:in:)` while playing switches the sound in place where playback is: the other tone at the sink
    /// without a gap, the position kept, only the chosen rendition fetched from then on (the variant not opened or
    /// fetched again); `currentMediaSelection` follows.
    @Test func selectingAnotherRenditionSwitchesTheSoundWherePlaybackIs() async throws {
        let url = try HLSFixtures.url(try HLSFixtures.renditionLadder())
        let asset = URLAsset(url: url)
        let group = try #require(try await asset.loadMediaSelectionGroup(for: .audible))
        #expect(group.options.map(\.displayName) == ["English", "Deutsch"], "\(group.options)")
        #expect(group.options.map(\.extendedLanguageTag) == ["en", "de"])
        #expect(!group.allowsEmptySelection && group.options.allSatisfy(\.isPlayable))
        let legible = try await asset.loadMediaSelectionGroup(for: .legible)
        #expect(legible == nil, "\(String(describing: legible))")
        let first = try #require(group.defaultOption)
        let other = try #require(group.options.first { $0 != first })

        let sink = try TestSink()
        let player = Player.onSink(sink)
        let item = PlayerItem(asset: asset)
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(
            await eventually(timeout: 20) { player.currentTime().seconds > 1.5 }, "\(String(describing: item.error))")
        #expect(item.currentMediaSelection.selectedMediaOption(in: group) == first)
        #expect(item.accessLog.last?.audibleOption == first.displayName, "\(item.accessLog)")
        let before = try HLSFixtures.requestCount()
        let (opens, decoders) = (PlaybackCounters.mediaOpens, PlaybackCounters.decoderCreations)
        let landed = sink.samplesSoFar.count
        let (position, asked) = (player.currentTime().seconds, MonotonicClock.now())
        item.select(other, in: group)
        #expect(await eventually(timeout: 10) { item.currentMediaSelection.selectedMediaOption(in: group) == other })
        // The access log names the rendition playing.
        #expect(item.accessLog.last?.audibleOption == other.displayName, "\(item.accessLog)")
        #expect(player.timeControlStatus == .playing)
        // Time went on as the clock did: nothing restarted or jumped.
        let (now, elapsed) = (player.currentTime().seconds, MonotonicClock.now() - asked)
        #expect(abs(now - position - elapsed) < 0.3, "switched at \(position), \(elapsed) s later at \(now)")
        #expect(await eventually(timeout: 10) { player.currentTime().seconds > position + 3 })
        let heard = Array(sink.samplesSoFar.dropFirst(landed))
        // The old tone (briefly: the output's buffer), then the new one within a video segment's duration (2 s) of
        // the choice, with no gap.
        let tones = AudioAnalysis.toneSequence(heard)
        #expect(
            tones.last == renditionTone(other)
                && Set(tones).isSubset(of: [renditionTone(first), renditionTone(other)]), "\(tones)")
        let windows = stride(from: 0, to: heard.count - 4_800, by: 2_400)
        let change = windows.first {
            abs(AudioAnalysis.frequency(Array(heard[$0..<($0 + 4_800)])) - Double(renditionTone(other))) < 10
        }
        #expect(
            (change.map { Double($0) / 48_000 } ?? .infinity) < 2, "the new tone from \(String(describing: change))")
        #expect(AudioAnalysis.longestGap(heard) < 0.05, gapMessage(heard))
        let requests = try HLSFixtures.requests(since: before)
        let otherDir = "/renditions/a-\(other.extendedLanguageTag ?? "")/"
        let firstDir = "/renditions/a-\(first.extendedLanguageTag ?? "")/"
        #expect(requests.first { $0.contains(otherDir + "seg") }?.hasSuffix("seg00.ts") == true, "\(requests)")
        #expect(!requests.contains { $0.contains(firstDir) }, "the first rendition after the switch: \(requests)")
        // In place: the new rendition opened with its one decoder; the variant was not opened again.
        #expect(PlaybackCounters.mediaOpens - opens == 1, "\(PlaybackCounters.mediaOpens - opens) media opened")
        #expect(PlaybackCounters.decoderCreations - decoders == 1, "\(PlaybackCounters.decoderCreations - decoders)")
        #expect(!requests.contains { $0.contains("/renditions/v") }, "the variant fetched again: \(requests)")
        #expect(item.error == nil, "\(String(describing: item.error))")
        player.close()
        _ = sink.stopRecording()
    }

    /// Each beep's item time minus its flash's frame time, for the flash-and-beep stream at `path`, played untimed
    /// into a WAV file with every picture captured. The item starts exactly at 0.5 s, so the sound written starts
    /// at item time 0.5 (an exact start drops what comes before): a beep's item time is its place in the file
    /// plus 0.5.
    func beepsMinusFlashes(_ path: String) async throws -> [Double] {
        let (beeps, flashes) = try await beepsAndFlashes(try HLSFixtures.url(path))
        #expect(beeps.count == 5 && flashes.count == 5, "\(path): beeps at \(beeps), flashes at \(flashes)")
        return zip(beeps, flashes).map { $0 - $1 }
    }

    /// The item times of the beeps and of the flashes of the flash-and-beep stream at `url`, played untimed from
    /// 0.5 s into a WAV file with every picture captured (`beepsMinusFlashes`).
    func beepsAndFlashes(_ url: URL) async throws -> (beeps: [Double], flashes: [Double]) {
        let start = 0.5
        let wav = Paths.scratch("flash-beep").appendingPathComponent("\(UUID().uuidString).wav")
        defer { try? FileManager.default.removeItem(at: wav) }
        let player = Player()
        player.untimed = true
        player.audioOutputChoice = .wav(path: wav.path)
        let capture = CaptureVideoOutput { frame in frame.luma(x: 160, y: 120) > 128 ? 1 : 0 }
        let item = PlayerItem(url: url)
        item.add(capture)
        item.seek(to: MediaTime(seconds: start, preferredTimescale: 1000))
        let ended = endedFlag(player)
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually(timeout: 20) { ended.value }, "\(String(describing: item.error))")
        player.close()
        var flashes: [Double] = []
        var wasBright = false
        for frame in capture.frames {
            let bright = frame.value == 1
            if bright && !wasBright { flashes.append(frame.time.seconds) }
            wasBright = bright
        }
        let beeps = AudioAnalysis.onsets(AudioAnalysis.wavSamples(wav), threshold: 0.2, minGap: 0.5).map { $0 + start }
        return (beeps, flashes)
    }

    /// A/V sync with an audio rendition whose segments are not the video's (4 s against 2 s, another encode): on
    /// the item's timeline each beep starts where its flash does, within 40 ms of the same clip with both in one
    /// variant, which is itself in sync.
    @Test func aRenditionsSoundKeepsToThePicturesAsInOneVariant() async throws {
        let (muxed, renditions) = try HLSFixtures.flashBeepStreams()
        let reference = try await beepsMinusFlashes(muxed)
        let separate = try await beepsMinusFlashes(renditions)
        #expect(reference.count == 5 && reference.allSatisfy { abs($0) < 0.05 }, "one variant: \(reference)")
        #expect(separate.count == 5, "\(separate)")
        for (one, two) in zip(reference, separate) {
            #expect(abs(one - two) < 0.040, "beep minus flash: \(reference) in one variant, \(separate) apart")
        }
    }

    /// A video segment missing from its playlist (`EXT-X-GAP`) or from every variant (404 each time): its time
    /// stays on the timeline, so the pictures after it keep to the rendition's sound. Every beep is heard (the
    /// sound is whole), the flashes of the missing seconds are not seen, and those after the hole come with their
    /// beeps (before, the hole was cut out of the pictures' timeline only: the flashes of 4 and 5 s came at 2 and
    /// 3 s, with the beeps of those seconds, and the pictures ended 2 s before the sound).
    @Test(arguments: [true, false])
    func aVideoSegmentMissingKeepsThePicturesAfterItWithTheSound(marked: Bool) async throws {
        let origin = try TestOrigin(serving: try HLSFixtures.root())
        let (beeps, flashes) = try await beepsAndFlashes(
            origin.url(try HLSFixtures.flashBeepWithVideoGap(marked: marked)))
        #expect(beeps.count == 5, "beeps at \(beeps)")
        #expect(flashes.count == 3, "flashes at \(flashes)")
        let expected = [1.0, 4, 5]
        #expect(
            zip(flashes, expected).allSatisfy { abs($0 - $1) < 0.05 }, "flashes at \(flashes), expected \(expected)")
        for flash in flashes {
            #expect(beeps.contains { abs($0 - flash) < 0.05 }, "the flash at \(flash) has no beep: \(beeps)")
        }
        #expect(!origin.requests.contains { $0.contains("video/seg01") } == marked, "\(origin.requests)")
    }

    @Test func aLiveStreamWithAnAudioRenditionPlaysWithBothPlaylistsReloading() async throws {
        let stream = try LiveStreams.stream("live-renditions")
        try stream.waitForSegments(4)
        let sink = try TestSink()
        let player = Player.onSink(sink)
        let timebase = player.timebase
        // Each picture's distance from the sound's clock when it was shown, in microseconds.
        let capture = CaptureVideoOutput { frame in
            Int(((timebase.time.seconds - frame.time.seconds) * 1_000_000).rounded())
        }
        let before = try HLSFixtures.requestCount()
        let item = PlayerItem(url: try HLSFixtures.url(stream.path))
        item.add(capture)
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually(timeout: 20) { item.status == .readyToPlay }, "\(String(describing: item.error))")
        #expect(await eventually { player.timeControlStatus == .playing })
        try await Task.sleep(for: .seconds(1))
        let start = sink.samplesSoFar.count
        capture.reset()
        // A minute, as the issue asks: each playlist reloads on its own schedule all along.
        try await Task.sleep(for: .seconds(60))
        #expect(item.error == nil, "\(String(describing: item.error))")
        let heard = Array(sink.samplesSoFar.dropFirst(start))
        #expect(abs(AudioAnalysis.frequency(heard) - 520) < 4, "\(AudioAnalysis.frequency(heard)) Hz")
        #expect(AudioAnalysis.audibleSeconds(heard) > 59.5, "\(AudioAnalysis.audibleSeconds(heard)) s of 60")
        #expect(AudioAnalysis.longestGap(heard) < 0.05, gapMessage(heard))
        // The pictures went on with the sound: 25 a second, each shown within 40 ms of the clock.
        let frames = capture.frames
        #expect(frames.count > 60 * 25 - 30, "\(frames.count) pictures in 60 s")
        let late = frames.filter { abs($0.value) > 40_000 }
        #expect(late.count <= frames.count / 50, "\(late.count) of \(frames.count) pictures off the clock")
        // Both playlists were reloaded all along, and each segment fetched once.
        let requests = try HLSFixtures.loggedRequests(since: before)
        for media in ["video", "audio"] {
            let reloads = requests.filter { $0.path == "/live-renditions/\(media)/index.m3u8" }
            #expect(reloads.count >= 25, "\(reloads.count) loads of the \(media) playlist in 61 s")
            let segments = requests.filter { $0.path.hasPrefix("/live-renditions/\(media)/seg") }.map(\.path)
            #expect(segments.count >= 28 && Set(segments).count == segments.count, "\(media): \(segments)")
        }
        player.close()
        _ = sink.stopRecording()
        stream.stop()
    }
}
