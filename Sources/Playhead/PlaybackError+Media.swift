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
        case FFmpegError.invalidData where e.detail?.contains("moov atom not found") == true:
            // An MP4 or MOV whose index is written last (the default), cut before it: a partial download.
            self.init(
                .parsing, source: source,
                reason: "an MP4 without its index (moov atom not found): cut short, or not yet fully downloaded",
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
