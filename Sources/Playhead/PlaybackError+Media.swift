import Foundation
import PlayheadCore
import PlayheadFFmpeg

extension PlaybackError {
    /// The error for an input that failed to open, in words a user understands.
    init(opening source: String, error: any Error) {
        guard let e = error as? FFmpegError else {
            self.init(.io, source: source, reason: "\(error)")
            return
        }
        let isNetwork = source.hasPrefix("http://") || source.hasPrefix("https://")
        switch e.code {
        case FFmpegError.noSuchFile: self.init(.io, source: source, reason: "no such file", code: e.code)
        case FFmpegError.isDirectory:
            self.init(.io, source: source, reason: "is a directory, not a media file", code: e.code)
        case FFmpegError.permissionDenied: self.init(.io, source: source, reason: "permission denied", code: e.code)
        case FFmpegError.invalidData
        where e.detail?.contains("moov atom not found") == true && Self.localStart(of: source).map(Self.isBox) == false:
            // Named .mp4 or .mov, but no MP4 box at its start (FFmpeg's MP4 reader, chosen by the name, found no
            // index in text, zeros or noise).
            let head = Self.localStart(of: source)?.head ?? Data()
            let what =
                Self.isText(head)
                ? "text, not an MP4"
                : head.allSatisfy { $0 == 0 }
                    ? "its start is all zeros: not written yet, or damaged" : "no MP4 box at its start, not an MP4"
            self.init(.parsing, source: source, reason: "not a media file Playhead can read (\(what))", code: e.code)
        case FFmpegError.invalidData where e.detail?.contains("moov atom not found") == true:
            // An MP4 or MOV whose index is written last (the default), cut before it: a partial download.
            self.init(
                .parsing, source: source,
                reason: "an MP4 without its index (moov atom not found): cut short, or not yet fully downloaded",
                code: e.code)
        case FFmpegError.endOfFile where !isNetwork:
            // Its headers, then nothing (a Matroska file cut where its first cluster begins): FFmpeg said "end of file".
            self.init(
                .parsing, source: source,
                reason: "no media data: it ends before its first sample (cut short or damaged)",
                code: e.code)
        case FFmpegError.invalidData,
            FFmpegError.invalidArgument where !isNetwork:
            self.init(
                .parsing, source: source, reason: "not a media file Playhead can read (\(e.message.lowercased()))",
                code: e.code)
        case FFmpegError.httpNotFound: self.init(.network, source: source, reason: "HTTP 404 Not Found", code: e.code)
        case FFmpegError.httpForbidden: self.init(.network, source: source, reason: "HTTP 403 Forbidden", code: e.code)
        case FFmpegError.httpOther4xx:
            self.init(.network, source: source, reason: "HTTP client error (4xx)", code: e.code)
        case FFmpegError.httpServerError:
            self.init(.network, source: source, reason: "HTTP server error (5xx)", code: e.code)
        case FFmpegError.connectionRefused:
            self.init(.network, source: source, reason: "connection refused", code: e.code)
        case FFmpegError.timedOut, FFmpegError.exit:
            self.init(isNetwork ? .network : .io, source: source, reason: "timed out", code: e.code)
        case FFmpegError.decoderNotFound:
            self.init(.unsupported, source: source, reason: "no decoder for this codec", code: e.code)
        default:
            self.init(
                isNetwork ? .network : .parsing, source: source, reason: Self.reason(from: e.message), code: e.code)
        }
    }

    /// The first 512 bytes of `source` and its length when it is a local file (a path or a file URL), else nil.
    static func localStart(of source: String) -> (head: Data, length: Int)? {
        if source.hasPrefix("http://") || source.hasPrefix("https://") { return nil }
        let path = source.hasPrefix("file://") ? URL(string: source)?.path : source
        guard let path, let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 512), let end = try? handle.seekToEnd() else { return nil }
        return (head, Int(clamping: end))
    }

    /// Whether `start` (a file's first bytes and its length) begins with an ISO BMFF box header that fits in the
    /// file: a size of 0 (to the end), 1 (64-bit) or from 8 to the file's length, and a type of four letters,
    /// digits or spaces.
    static func isBox(_ start: (head: Data, length: Int)) -> Bool {
        let b = Array(start.head.prefix(8))
        guard b.count == 8 else { return false }
        let size = b[0..<4].reduce(0) { $0 << 8 | Int($1) }
        let typeOK = b[4..<8].allSatisfy { c in
            (0x30...0x39).contains(c) || (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c) || c == 0x20
        }
        return typeOK && (size == 0 || size == 1 || (8...start.length).contains(size))
    }

    /// Whether `head` reads as text: UTF-8 without control characters other than tabs and line ends.
    static func isText(_ head: Data) -> Bool {
        guard !head.isEmpty, String(data: head, encoding: .utf8) != nil else { return false }
        return head.allSatisfy { $0 >= 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
    }

    /// The error for a read failing after the input opened.
    init(reading source: String, error: FFmpegError) {
        let isNetwork = source.hasPrefix("http://") || source.hasPrefix("https://")
        let text = Self.reason(from: error.message)
        self.init(isNetwork ? .network : .io, source: source, reason: "reading failed: \(text)", code: error.code)
    }

    /// The error for a stream whose decoder cannot open.
    init(decoding source: String, stream: StreamInfo, error: any Error) {
        let why = Self.words(for: error)
        let reason =
            stream.isDecodable
            ? "cannot decode the \(stream.mediaType.rawValue) stream (\(stream.codecName)): \(why)"
            : "unsupported \(stream.mediaType.rawValue) codec '\(stream.codecName)': no decoder in this FFmpeg"
        self.init(stream.isDecodable ? .decoding : .unsupported, source: source, reason: reason)
    }

    /// What went wrong in a user's words: FFmpeg's text for its error (what it logged, else its code's) without the
    /// function's name, any other error's description.
    static func words(for error: any Error) -> String {
        (error as? FFmpegError).map { reason(from: $0.detail ?? $0.message) } ?? "\(error)"
    }

    /// The error for an input with no audio or video Playhead can decode.
    static func noPlayableStream(in source: any MediaSource) -> PlaybackError {
        let codecs = source.tracks.map(\.stream).filter { $0.mediaType == .audio || $0.mediaType == .video }
        if let s = codecs.first(where: { !$0.isDecodable }) {
            return PlaybackError(
                .unsupported, source: source.name,
                reason: "unsupported \(s.mediaType.rawValue) codec '\(s.codecName)': no decoder in this FFmpeg")
        }
        return PlaybackError(.parsing, source: source.name, reason: "no audio or video stream to play")
    }
}
