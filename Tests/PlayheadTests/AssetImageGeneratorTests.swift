import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// `AssetImageGenerator`: the picture for a time, read back from the picture itself (`Fixtures.numberedVideo`
/// draws each frame's number), from a file and from an HLS stream, exact or at the keyframe before.
@Suite(.serialized) struct AssetImageGeneratorTests {
    /// The frame number drawn in `buffer`, read at its own scale (BGRA).
    static func number(in buffer: PixelBuffer) -> Int {
        let plane = buffer.planes[0]
        let scale = Double(buffer.width) / 320
        return Fixtures.frameNumber { x, y in
            plane.bytes[Int(Double(y) * scale) * plane.bytesPerRow + Int(Double(x) * scale) * 4]
        }
    }

    /// `numberedVideo` as an HLS stream (2 s MPEG-TS segments, a keyframe at each start), on the test server.
    static func numberedStream() throws -> URL {
        let dir = try HLSFixtures.root().appendingPathComponent("numbered-hls")
        let playlist = dir.appendingPathComponent("index.m3u8")
        if !FileManager.default.fileExists(atPath: playlist.path) {
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            let r = try Run.command(
                "ffmpeg",
                [
                    "-nostdin", "-v", "error", "-y", "-i", try Fixtures.numberedVideo().path, "-c", "copy", "-f", "hls",
                    "-hls_time", "2", "-hls_playlist_type", "vod", playlist.path,
                ], timeout: 120)
            guard r.status == 0 else { throw TestSupportError("ffmpeg failed making numbered-hls: \(r.stderr)") }
        }
        return try HLSFixtures.url("numbered-hls/index.m3u8")
    }

    /// `numberedStream` behind a multivariant playlist (`numbered-hls/master.m3u8`) with an I-frame playlist
    /// (`iframes.m3u8`): one entry per segment, the byte range of the segment's keyframe (from its start, so the
    /// program tables come along, to the next picture's first byte, found with ffprobe). Returns the master's URL
    /// and each I-frame's byte count.
    static func numberedStreamWithIFrames() throws -> (URL, [Int]) {
        let media = try numberedStream()
        let dir = try HLSFixtures.root().appendingPathComponent("numbered-hls")
        var lengths: [Int] = []
        var lines = [
            "#EXTM3U", "#EXT-X-VERSION:4", "#EXT-X-TARGETDURATION:2", "#EXT-X-PLAYLIST-TYPE:VOD",
            "#EXT-X-I-FRAMES-ONLY",
        ]
        for i in 0..<5 {
            let segment = dir.appendingPathComponent("index\(i).ts").path
            let r = try Run.command(
                "ffprobe",
                ["-v", "error", "-select_streams", "v", "-show_entries", "packet=pos", "-of", "csv=p=0", segment])
            let positions = r.stdout.split(separator: "\n").compactMap {
                Int($0.trimmingCharacters(in: CharacterSet(charactersIn: ", \r")))
            }
            guard r.status == 0, positions.count >= 2 else { throw TestSupportError("ffprobe \(segment): \(r.stderr)") }
            lengths.append(positions[1])
            lines += ["#EXTINF:2.0,", "#EXT-X-BYTERANGE:\(positions[1])@0", "index\(i).ts"]
        }
        try (lines + ["#EXT-X-ENDLIST", ""]).joined(separator: "\n").write(
            to: dir.appendingPathComponent("iframes.m3u8"), atomically: true, encoding: .utf8)
        let master = [
            "#EXTM3U", "#EXT-X-VERSION:4",
            "#EXT-X-STREAM-INF:BANDWIDTH=600000,RESOLUTION=320x240,CODECS=\"avc1.64000d,mp4a.40.2\"",
            media.lastPathComponent,
            "#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=90000,RESOLUTION=320x240,CODECS=\"avc1.64000d\",URI=\"iframes.m3u8\"",
            "",
        ]
        try master.joined(separator: "\n").write(
            to: dir.appendingPathComponent("master.m3u8"), atomically: true, encoding: .utf8)
        return (try HLSFixtures.url("numbered-hls/master.m3u8"), lengths)
    }

    @Test func exactPicturesAreTheFramesShownAtTheirTimes() async throws {
        let generator = AssetImageGenerator(asset: URLAsset(url: try Fixtures.numberedVideo()))
        generator.requestedTimeToleranceBefore = .zero
        generator.requestedTimeToleranceAfter = .zero
        // In any order, between keyframes (every 2 s) and on them; 7.3 s shows frame 182 (from 7.28 s).
        for (seconds, frame) in [(3.0, 75), (7.3, 182), (0.0, 0), (9.99, 249), (2.04, 51), (1.96, 49)] {
            let (image, actual) = try await generator.image(at: MediaTime(seconds: seconds, preferredTimescale: 600))
            #expect(Self.number(in: image) == frame, "at \(seconds) s")
            #expect(abs(actual.seconds - Double(frame) / 25) < 0.001, "at \(seconds) s: \(actual.seconds)")
            #expect(image.width == 320 && image.height == 240)
        }
    }

    @Test func byDefaultThePictureIsTheKeyframeBefore() async throws {
        let generator = AssetImageGenerator(asset: URLAsset(url: try Fixtures.numberedVideo()))
        let (image, actual) = try await generator.image(at: MediaTime(seconds: 7.3, preferredTimescale: 600))
        #expect(Self.number(in: image) == 150)
        #expect(abs(actual.seconds - 6) < 0.001, "\(actual.seconds)")
        // A tolerance of half a second after, none before: the next picture within it (7.32 s: frame 183 is the
        // first after 7.3 s).
        generator.requestedTimeToleranceBefore = .zero
        generator.requestedTimeToleranceAfter = MediaTime(seconds: 0.5, preferredTimescale: 600)
        let (next, at) = try await generator.image(at: MediaTime(seconds: 7.31, preferredTimescale: 600))
        #expect(Self.number(in: next) == 182 || Self.number(in: next) == 183, "\(Self.number(in: next))")
        #expect(abs(at.seconds - Double(Self.number(in: next)) / 25) < 0.001)
    }

    @Test func picturesFitTheMaximumSize() async throws {
        let generator = AssetImageGenerator(asset: URLAsset(url: try Fixtures.numberedVideo()))
        generator.maximumSize = CGSize(width: 160, height: 160)
        generator.requestedTimeToleranceBefore = .zero
        let (image, _) = try await generator.image(at: MediaTime(seconds: 4, preferredTimescale: 600))
        #expect(image.width == 160 && image.height == 120, "\(image.width)x\(image.height)")
        #expect(image.planes[0].height == 120)
        #expect(Self.number(in: image) == 100)
    }

    @Test func anHLSStreamsPictureFetchesTheSegmentThatHoldsIt() async throws {
        let url = try Self.numberedStream()
        let generator = AssetImageGenerator(asset: URLAsset(url: url))
        generator.requestedTimeToleranceBefore = .zero
        generator.requestedTimeToleranceAfter = .zero
        let logged = try HLSFixtures.requests().count
        // The stream's time line starts with its sound, a little before the first picture (AAC priming in
        // MPEG-TS): the first picture's time says where frame 0 is.
        let (first, start) = try await generator.image(at: .zero)
        #expect(Self.number(in: first) == 0)
        #expect(start.seconds >= 0 && start.seconds < 0.05, "\(start.seconds)")
        let (image, actual) = try await generator.image(
            at: MediaTime(seconds: 5 + start.seconds, preferredTimescale: 90_000))
        #expect(Self.number(in: image) == 125)
        #expect(abs(actual.seconds - 5 - start.seconds) < 0.001, "\(actual.seconds)")
        let asked = try HLSFixtures.requests(since: logged).filter { $0.contains("numbered-hls") }
        // The playlist, the first segment (opening probes it), and the segment holding 5 s: nothing else.
        #expect(asked.last?.hasSuffix("index2.ts") == true, "\(asked)")
        #expect(!asked.contains { $0.hasSuffix("index3.ts") || $0.hasSuffix("index4.ts") }, "\(asked)")
    }

    /// The keyframe for 9 s (frame 200, at 8 s) from the I-frame playlist: one byte range of one segment, and
    /// neither the variant's playlist nor a whole segment fetched. An exact picture still comes from the variant.
    @Test func anIFramePlaylistGivesKeyframesOneByteRangeEach() async throws {
        let (url, lengths) = try Self.numberedStreamWithIFrames()
        let generator = AssetImageGenerator(asset: URLAsset(url: url))
        let logged = try HLSFixtures.requests().count
        let (image, actual) = try await generator.image(at: MediaTime(seconds: 9, preferredTimescale: 600))
        #expect(Self.number(in: image) == 200)
        #expect(abs(actual.seconds - 8) < 0.001, "\(actual.seconds)")
        let (early, at) = try await generator.image(at: MediaTime(seconds: 3.5, preferredTimescale: 600))
        #expect(Self.number(in: early) == 50)
        #expect(abs(at.seconds - 2) < 0.001, "\(at.seconds)")
        let asked = try HLSFixtures.loggedRequests(since: logged).filter { $0.path.contains("numbered-hls") }
        #expect(
            asked.map { $0.path.split(separator: "/").last.map(String.init) ?? "" } == [
                "master.m3u8", "iframes.m3u8", "index4.ts", "index1.ts",
            ], "\(asked.map(\.path))")
        #expect(asked.filter { $0.path.hasSuffix(".ts") }.map(\.bytesSent) == [lengths[4], lengths[1]])
        // Exact: decoded from the variant's segment.
        generator.requestedTimeToleranceBefore = .zero
        generator.requestedTimeToleranceAfter = .zero
        let (exact, _) = try await generator.image(at: MediaTime(seconds: 7.1, preferredTimescale: 600))
        #expect(Self.number(in: exact) == 177 || Self.number(in: exact) == 176, "\(Self.number(in: exact))")
    }

    @Test func badInputIsAClearError() async throws {
        let text = Paths.fixtures.appendingPathComponent("not-media.txt")
        try Data("hello\n".utf8).write(to: text)
        await #expect(throws: PlaybackError.self) {
            _ = try await AssetImageGenerator(asset: URLAsset(url: text)).image(at: .zero)
        }
        do {
            _ = try await AssetImageGenerator(asset: URLAsset(url: try Fixtures.tone(seconds: 1))).image(at: .zero)
            Issue.record("a picture from a sound file")
        } catch let error as PlaybackError {
            #expect(error.description.contains("tone-") && error.description.contains("no video"), "\(error)")
        }
        let generator = AssetImageGenerator(asset: URLAsset(url: try Fixtures.numberedVideo()))
        await #expect(throws: PlaybackError.self) { _ = try await generator.image(at: .invalid) }
        // Cancelling closes the input; the next request opens it again.
        generator.cancelAllImageGeneration()
        let (image, _) = try await generator.image(at: MediaTime(seconds: 2, preferredTimescale: 600))
        #expect(Self.number(in: image) == 50)
    }
}
