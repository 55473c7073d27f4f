import Foundation

/// A live sliding-window HLS stream written in real time by an `ffmpeg -re` process into the nginx root: MPEG-TS
/// segments of `segmentSeconds` with a small test picture and a tone, `listSize` segments in the playlist, older
/// ones deleted. Killed (SIGKILL, so no `EXT-X-ENDLIST` is written) by `stop()` or when released. Safe from any
/// thread.
public final class LiveHLSStream: @unchecked Sendable {
    private let process: Process
    /// The stream's folder in the nginx root.
    public let name: String
    /// The playlist's path on the test nginx.
    public let path: String
    /// The playlist file.
    public let playlist: URL

    /// Starts writing `name/index.m3u8` (an old stream of that name is removed first); with `event`, an event
    /// playlist (`EXT-X-PLAYLIST-TYPE:EVENT`) that keeps every segment instead of a sliding window.
    public init(_ name: String, tone: Int, listSize: Int = 5, segmentSeconds: Int = 2, event: Bool = false) throws {
        self.name = name
        let dir = try HLSFixtures.root().appendingPathComponent(name)
        try? FileManager.default.removeItem(at: dir)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        playlist = dir.appendingPathComponent("index.m3u8")
        path = "\(name)/index.m3u8"
        process = Process()
        process.executableURL = URL(fileURLWithPath: try Run.which("ffmpeg"))
        let gop = 25 * segmentSeconds
        process.arguments = [
            "-nostdin", "-v", "error", "-re", "-f", "lavfi", "-i", "testsrc=s=160x90:r=25",
            "-f", "lavfi", "-i", "sine=frequency=\(tone):sample_rate=48000",
            "-c:v", "libx264", "-preset", "ultrafast", "-g", "\(gop)", "-keyint_min", "\(gop)", "-sc_threshold", "0",
            "-pix_fmt", "yuv420p", "-c:a", "aac", "-ac", "2", "-b:a", "64k",
            "-f", "hls", "-hls_time", "\(segmentSeconds)",
        ]
        process.arguments! +=
            event
            ? ["-hls_playlist_type", "event", "-hls_flags", "temp_file"]
            : ["-hls_list_size", "\(listSize)", "-hls_flags", "delete_segments+temp_file"]
        process.arguments! += [
            "-hls_segment_filename", dir.appendingPathComponent("seg%05d.ts").path, playlist.path,
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try Run.start(process)
    }

    /// Starts writing a live two-variant ladder: `name/master.m3u8` over `v0/index.m3u8` (160x90, 300 kb/s) and
    /// `v1/index.m3u8` (320x180, 1.2 Mb/s), 2 s segments, `listSize` in each playlist, the same tone in both.
    /// `playlist` is the upper variant's playlist (for `waitForSegments`); `path` the multivariant playlist's. The
    /// pictures are small so that the writer leaves the CPU to the player under test (640x360 and 320x180 took 30 %
    /// of a core, these 18 %); the bit rates are what the tests' adaptation needs.
    public init(ladder name: String, tone: Int, listSize: Int = 6) throws {
        self.name = name
        let dir = try HLSFixtures.root().appendingPathComponent(name)
        try? FileManager.default.removeItem(at: dir)
        for v in 0..<2 {
            try FileManager.default.createDirectory(
                at: dir.appendingPathComponent("v\(v)"), withIntermediateDirectories: true)
        }
        playlist = dir.appendingPathComponent("v1/index.m3u8")
        path = "\(name)/master.m3u8"
        process = Process()
        process.executableURL = URL(fileURLWithPath: try Run.which("ffmpeg"))
        process.arguments = [
            "-nostdin", "-v", "error", "-re", "-f", "lavfi", "-i", "testsrc=s=320x180:r=25",
            "-f", "lavfi", "-i", "sine=frequency=\(tone):sample_rate=48000",
            "-filter_complex", "[0:v]split=2[a][b];[b]scale=160:90[c]",
            "-map", "[c]", "-map", "1:a", "-map", "[a]", "-map", "1:a",
            "-c:v", "libx264", "-preset", "ultrafast", "-g", "50", "-keyint_min", "50", "-sc_threshold", "0",
            "-pix_fmt", "yuv420p", "-b:v:0", "300k", "-b:v:1", "1200k", "-c:a", "aac", "-ac", "2", "-b:a", "64k",
            "-f", "hls", "-hls_time", "2", "-hls_list_size", "\(listSize)",
            "-hls_flags", "delete_segments+temp_file+independent_segments",
            "-master_pl_name", "master.m3u8", "-var_stream_map", "v:0,a:0 v:1,a:1",
            "-hls_segment_filename", dir.appendingPathComponent("v%v/seg%05d.ts").path,
            dir.appendingPathComponent("v%v/index.m3u8").path,
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try Run.start(process)
    }

    /// Starts writing a live stream whose sound is an audio rendition: `name/master.m3u8` over a video-only
    /// variant `video/index.m3u8` (160x90) naming the group `group_aud`, whose one rendition `audio/index.m3u8`
    /// (English, `DEFAULT`) carries the tone; 2 s segments, `listSize` in each playlist. `playlist` is the audio
    /// rendition's (for `waitForSegments`); `path` the multivariant playlist's.
    public init(renditions name: String, tone: Int, listSize: Int = 5) throws {
        self.name = name
        let dir = try HLSFixtures.root().appendingPathComponent(name)
        try? FileManager.default.removeItem(at: dir)
        for sub in ["video", "audio"] {
            try FileManager.default.createDirectory(
                at: dir.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        playlist = dir.appendingPathComponent("audio/index.m3u8")
        path = "\(name)/master.m3u8"
        process = Process()
        process.executableURL = URL(fileURLWithPath: try Run.which("ffmpeg"))
        process.arguments = [
            "-nostdin", "-v", "error", "-re", "-f", "lavfi", "-i", "testsrc=s=160x90:r=25",
            "-f", "lavfi", "-i", "sine=frequency=\(tone):sample_rate=48000", "-map", "0:v", "-map", "1:a",
            "-c:v", "libx264", "-preset", "ultrafast", "-g", "50", "-keyint_min", "50", "-sc_threshold", "0",
            "-pix_fmt", "yuv420p", "-c:a", "aac", "-ac", "2", "-b:a", "64k",
            "-f", "hls", "-hls_time", "2", "-hls_list_size", "\(listSize)",
            "-hls_flags", "delete_segments+temp_file+independent_segments", "-master_pl_name", "master.m3u8",
            "-var_stream_map", "v:0,agroup:aud,name:video a:0,agroup:aud,name:audio,language:en,default:yes",
            "-hls_segment_filename", dir.appendingPathComponent("%v/seg%05d.ts").path,
            dir.appendingPathComponent("%v/index.m3u8").path,
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try Run.start(process)
    }

    /// Waits until the playlist lists `count` segments; throws after `timeout` seconds.
    public func waitForSegments(_ count: Int, timeout: Double = 60) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if segmentCount >= count { return }
            Thread.sleep(forTimeInterval: 0.1)
        }
        throw TestSupportError("the live stream listed \(segmentCount) segments after \(timeout) s")
    }

    /// How many segments the playlist lists now.
    public var segmentCount: Int {
        let text = (try? String(contentsOf: playlist, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { $0.hasPrefix("#EXTINF") }.count
    }

    /// The playlist's `EXT-X-MEDIA-SEQUENCE` now.
    public var mediaSequence: Int {
        let text = (try? String(contentsOf: playlist, encoding: .utf8)) ?? ""
        let line = text.split(separator: "\n").first { $0.hasPrefix("#EXT-X-MEDIA-SEQUENCE:") }
        return line.flatMap { Int($0.split(separator: ":")[1]) } ?? 0
    }

    /// Kills the writer: the playlist stops changing and never ends.
    public func stop() { Run.kill(process) }

    deinit { Run.kill(process) }
}
