import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// Progressive HTTP playback: plays, stalls when the server stops sending, resumes by itself, and picks a cut
/// connection up where it broke off.
@MainActor @Suite(.serialized) struct NetworkPlaybackTests {
    @Test func playsARemoteFile() async throws {
        let tone = try Fixtures.tone(seconds: 2)
        let origin = try TestOrigin(serving: tone.deletingLastPathComponent())
        let sink = try TestSink()
        let player = Player.onSink(sink)
        let item = PlayerItem(url: origin.url(tone.lastPathComponent))
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually { item.status == .readyToPlay })
        #expect(abs(item.duration.seconds - 2) < 0.1)
        #expect(item.seekableTimeRanges.first?.duration.seconds ?? 0 > 1.9, "a ranged HTTP file is seekable")
        #expect(await eventually(timeout: 8) { player.timeControlStatus == .paused }, "ended")
        let samples = sink.stopRecording()
        #expect(abs(AudioAnalysis.audibleSeconds(samples) - 2) < 0.1)
        #expect(abs(AudioAnalysis.frequency(samples) - 440) < 4.4)
    }

    /// A scheme in capitals names the same URL (RFC 3986): a file and an HLS stream play (the file was FFmpeg's
    /// "protocol not found", the stream a local file not found).
    @Test func aSchemeInCapitalsIsTheSameURL() async throws {
        let tone = try Fixtures.tone(seconds: 2)
        let origin = try TestOrigin(serving: tone.deletingLastPathComponent())
        let hls = try TestOrigin(serving: try HLSFixtures.root())
        _ = try KeyFixtures.make()
        for (url, scheme) in [
            (origin.url(tone.lastPathComponent), "HTTP"), (hls.url("keys/clear/index.m3u8"), "Http"),
        ] {
            let player = Player()
            player.audioOutputChoice = .null(untimed: true)
            let shouted = try #require(URL(string: scheme + url.absoluteString.dropFirst(4)))
            let item = PlayerItem(url: shouted)
            player.replaceCurrentItem(with: item)
            player.play()
            #expect(
                await eventually(timeout: 10) { player.currentTime().seconds > 1 || item.status == .failed },
                "\(shouted)")
            #expect(item.error == nil, "\(shouted): \(String(describing: item.error))")
            player.close()
        }
    }

    @Test func aConnectionCutMidBodyIsPickedUpWhereItBrokeOff() async throws {
        // 8 s of audio (about 130 kB) from an origin that closes every connection after 30 kB: the player asks for
        // the rest from where it stopped (a Range request) each time, and the whole sound is heard once, in order.
        let tone = try Fixtures.tone(seconds: 8)
        let origin = try TestOrigin(serving: tone.deletingLastPathComponent())
        let sink = try TestSink()
        let player = Player.onSink(sink)
        let item = PlayerItem(url: origin.url(tone.lastPathComponent, ["reset_after": "30000"]))
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually { player.timeControlStatus == .playing })
        #expect(await eventually(timeout: 15) { player.timeControlStatus == .paused }, "did not reach the end")
        #expect(item.status == .readyToPlay && item.error == nil, "\(String(describing: item.error))")
        let samples = sink.stopRecording()
        #expect(
            abs(AudioAnalysis.audibleSeconds(samples) - 8) < 0.2, "heard \(AudioAnalysis.audibleSeconds(samples)) s")
        #expect(abs(AudioAnalysis.frequency(samples) - 440) < 4.4)
        // Each cut was picked up from where it broke off (a Range request from a later offset), never by starting
        // the body over: one request from the start after the 4 KiB probe. (This M4A has its index after its
        // media data, so FFmpeg reads through to the index and then seeks back to the media: two runs of resumes.)
        let ranges = origin.requests.filter { $0.contains(tone.lastPathComponent) }.compactMap { line in
            line.split(separator: " ").last.map(String.init)
        }
        #expect(ranges.filter { $0 == "bytes=0-" }.count == 1, "\(ranges)")
        #expect(ranges.filter { $0.hasPrefix("bytes=") && !$0.hasPrefix("bytes=0-") }.count >= 3, "\(ranges)")
    }

    /// A connection cut for good (an origin that cannot resume: no ranges) after 4 s of an 8 s file: the 4 s that
    /// arrived are heard, then the item fails with the read error (it failed at once, before the first sound: the
    /// buffered media went unheard).
    @Test func aConnectionCutForGoodPlaysWhatArrivedThenFails() async throws {
        let tone = try Fixtures.tone(seconds: 8, ext: "wav")
        let origin = try TestOrigin(serving: tone.deletingLastPathComponent())
        let sink = try TestSink()
        let player = Player.onSink(sink)
        let item = PlayerItem(url: origin.url(tone.lastPathComponent, ["reset_after": "768044", "ranges": "no"]))
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually(timeout: 15) { item.status == .failed }, "did not fail")
        #expect(item.error?.description.contains("reading failed") == true, "\(String(describing: item.error))")
        let samples = sink.stopRecording()
        let heard = AudioAnalysis.audibleSeconds(samples)
        #expect(abs(heard - 4) < 0.3, "heard \(heard) s of the 4 s that arrived")
    }

    /// A web page served where a media file was asked for (an error or login page, 200, as a CDN may send) is
    /// said to be one, by its first bytes, whatever its name and type: FFmpeg's words were "moov atom not found"
    /// for an `.mp4`, "invalid argument" for an `.mp3`.
    @Test func aWebPageInPlaceOfMediaIsSaidToBeOne() async throws {
        let folder = Paths.scratch("web-page")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let page =
            "<!DOCTYPE html>\n<html><head><title>Service unavailable</title></head><body>Try later</body></html>\n"
        for name in ["song.mp3", "film.mp4"] {
            try page.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        let origin = try TestOrigin(serving: folder)
        for (name, type) in [("song.mp3", "text/html"), ("film.mp4", "video/mp4")] {
            let player = Player()
            player.audioOutputChoice = .null(untimed: false)
            let url = origin.url(name, ["type": type])
            let item = PlayerItem(url: url)
            player.replaceCurrentItem(with: item)
            player.play()
            #expect(await eventually(timeout: 10) { item.status == .failed }, "\(name) did not fail")
            player.close()
            #expect(
                item.error?.description == "\(url.absoluteString): an HTML page, not media",
                "\(String(describing: item.error))")
        }
    }

    /// An MP4 with its index at its end (no `+faststart`), from a server that does not serve byte ranges, cannot be
    /// played as it downloads: that is said, not FFmpeg's "input/output error". With ranges it plays.
    @Test func anMP4WithItsIndexAtTheEndFromAServerWithoutRangesIsSaidToBeOne() async throws {
        let film = try Fixtures.make(
            "index-at-end.mp4",
            [
                "-f", "lavfi", "-i", "sine=f=440:d=4", "-f", "lavfi", "-i", "testsrc=s=160x120:d=4", "-c:a", "aac",
                "-c:v", "mpeg4",
            ])
        let origin = try TestOrigin(serving: film.deletingLastPathComponent())
        for ranges in [false, true] {
            let player = Player()
            player.audioOutputChoice = .null(untimed: true)
            let url = origin.url(film.lastPathComponent, ranges ? [:] : ["ranges": "no"])
            let item = PlayerItem(url: url)
            player.replaceCurrentItem(with: item)
            player.play()
            #expect(await eventually(timeout: 10) { item.status == .failed || player.currentTime().seconds > 1 })
            player.close()
            if ranges {
                #expect(item.error == nil, "\(String(describing: item.error))")
            } else {
                #expect(
                    item.error?.description
                        == "\(url.absoluteString): this MP4 has its index at its end and the server does not serve "
                        + "byte ranges, so it cannot be played as it downloads (download it first, or serve it with "
                        + "byte ranges)", "\(String(describing: item.error))")
            }
        }
    }

    @Test func anOriginDownForSecondsMidBodyIsRiddenOut() async throws {
        // 8 s of audio sent at 1.25 x its rate, the connection cut after 60 kB (about 3.7 s of sound, 3 s in), and
        // every request answered 503 from 1 s in for 5 s: the player stalls on what it has, asks again until the
        // origin is back, and plays the rest. (FFmpeg's retries stopped after 1 s before: the item failed.)
        let tone = try Fixtures.tone(seconds: 8)
        let origin = try TestOrigin(serving: tone.deletingLastPathComponent())
        let sink = try TestSink()
        let player = Player.onSink(sink)
        let bytesPerSecond = Int(Double(try tone.resourceValues(forKeys: [.fileSizeKey]).fileSize ?? 0) / 8 * 1.25)
        let url = origin.url(tone.lastPathComponent, ["rate": "\(bytesPerSecond)", "reset_after": "60000"])
        let item = PlayerItem(url: url)
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually { player.timeControlStatus == .playing })
        try await Task.sleep(for: .seconds(1))
        try origin.fail(status: 503, forSeconds: 5)
        #expect(await eventually(timeout: 25) { player.timeControlStatus == .paused }, "did not reach the end")
        #expect(item.status == .readyToPlay && item.error == nil, "\(String(describing: item.error))")
        let samples = sink.stopRecording()
        #expect(
            abs(AudioAnalysis.audibleSeconds(samples) - 8) < 0.3, "heard \(AudioAnalysis.audibleSeconds(samples)) s")
        #expect(AudioAnalysis.longestGap(samples) > 1, "no stall while the origin was down")
        // The origin was asked again while it was down (the same offset more than once) and answered at last.
        let resumes = origin.requests.filter { $0.contains(tone.lastPathComponent) && !$0.hasSuffix("bytes=0-") }
        #expect(resumes.count >= 3 && Set(resumes).count < resumes.count, "\(origin.requests)")
    }

    @Test func stallsAndResumesOnASlowServer() async throws {
        // 8 s of audio (about 130 kB); the server sends 45 kB (about 2.7 s of sound) at once, then stops for 5 s.
        let tone = try Fixtures.tone(seconds: 8)
        let origin = try TestOrigin(serving: tone.deletingLastPathComponent())
        let sink = try TestSink()
        let player = Player.onSink(sink)
        let recorder = StateRecorder(player)
        let url = origin.url(tone.lastPathComponent, ["stall_after": "45000", "stall_for": "5"])
        let item = PlayerItem(url: url)
        item.preferredForwardBufferDuration = 1
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually { player.timeControlStatus == .playing })
        #expect(
            await eventually(timeout: 6) { player.reasonForWaitingToPlay == .toMinimizeStalls },
            "no stall seen: \(recorder.states)")
        #expect(!item.isPlaybackLikelyToKeepUp)
        let stalledAt = player.currentTime().seconds
        try await Task.sleep(for: .milliseconds(500))
        #expect(abs(player.currentTime().seconds - stalledAt) < 0.05, "time moved during the stall")
        #expect(await eventually(timeout: 6) { player.timeControlStatus == .playing }, "did not resume")
        #expect(await eventually(timeout: 12) { player.timeControlStatus == .paused }, "did not reach the end")
        await recorder.stop()
        // The recorder starts after play(): it sees opening, playing, the stall, playing again, the end.
        let seen = recorder.states.filter { $0 != "waiting(evaluating)" }
        #expect(seen == ["playing", "waiting(stalls)", "playing", "paused"], "\(recorder.states)")
        // All 8 s were heard, with one long silence (the stall: about 5 s less the 2.7 s already sent) inside.
        let samples = sink.stopRecording()
        #expect(
            abs(AudioAnalysis.audibleSeconds(samples) - 8) < 0.3, "heard \(AudioAnalysis.audibleSeconds(samples)) s")
        #expect(AudioAnalysis.longestGap(samples) > 1.5)
    }
}
