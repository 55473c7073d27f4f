import CFFmpeg

/// A failure code from an FFmpeg function, with the function's name: the one choke point where FFmpeg's
/// negative return values become Swift errors. A value type, safe on any thread.
public struct FFmpegError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The `AVERROR` value the function returned (negative).
    public var code: Int32
    /// The FFmpeg function that failed, such as `"avformat_open_input"`.
    public var function: String
    /// What FFmpeg logged at error level as the call failed ("moov atom not found"), where it was captured (the
    /// open of an input); nil otherwise.
    public var detail: String?

    /// An error for `code` returned by `function`, with what FFmpeg logged about it.
    public init(code: Int32, function: String, detail: String? = nil) {
        self.code = code
        self.function = function
        self.detail = detail
    }

    /// End of the stream (`AVERROR_EOF`).
    public static let endOfFile = ph_averror_eof()
    /// Try again after feeding or draining (`AVERROR(EAGAIN)`).
    public static let tryAgain = ph_averror_eagain()
    /// The operation was interrupted by the interrupt callback (`AVERROR_EXIT`).
    public static let exit = ph_averror_exit()
    /// The input is not valid media (`AVERROR_INVALIDDATA`).
    public static let invalidData = ph_averror_invaliddata()

    /// Invalid argument (`AVERROR(EINVAL)`); when opening, FFmpeg's answer to some unreadable inputs.
    public static let invalidArgument = ph_averror(EINVAL)
    /// No such file (`AVERROR(ENOENT)`).
    public static let noSuchFile = ph_averror(ENOENT)
    /// The path is a directory (`AVERROR(EISDIR)`).
    public static let isDirectory = ph_averror(EISDIR)
    /// Permission denied (`AVERROR(EACCES)`).
    public static let permissionDenied = ph_averror(EACCES)
    /// A bare input/output error (`AVERROR(EIO)`): FFmpeg's answer when a host does not resolve or TLS fails.
    public static let ioError = ph_averror(EIO)
    /// Connection refused (`AVERROR(ECONNREFUSED)`).
    public static let connectionRefused = ph_averror(ECONNREFUSED)
    /// Timed out (`AVERROR(ETIMEDOUT)`).
    public static let timedOut = ph_averror(ETIMEDOUT)
    /// No decoder for the codec (`AVERROR_DECODER_NOT_FOUND`).
    public static let decoderNotFound = ph_averror_decoder_not_found()
    /// HTTP 404 (`AVERROR_HTTP_NOT_FOUND`).
    public static let httpNotFound = ph_averror_http_not_found()
    /// HTTP 403 (`AVERROR_HTTP_FORBIDDEN`).
    public static let httpForbidden = ph_averror_http_forbidden()
    /// Another HTTP 4xx (`AVERROR_HTTP_OTHER_4XX`).
    public static let httpOther4xx = ph_averror_http_other_4xx()
    /// HTTP 5xx (`AVERROR_HTTP_SERVER_ERROR`).
    public static let httpServerError = ph_averror_http_server_error()

    /// FFmpeg's own text for the code (`av_strerror`).
    public var message: String { Self.message(for: code) }

    /// `"avformat_open_input: No such file or directory"`.
    public var description: String { "\(function): \(message)" }

    /// FFmpeg's text for any error code.
    public static func message(for code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        if av_strerror(code, &buffer, buffer.count) < 0 { return "error \(code)" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// Throws an `FFmpegError` naming `function` when `code` is negative; returns non-negative codes.
@discardableResult
@inline(__always)
func check(_ code: Int32, _ function: @autoclosure () -> String) throws(FFmpegError) -> Int32 {
    if code < 0 { throw FFmpegError(code: code, function: function()) }
    return code
}

/// Process-wide FFmpeg set-up: quiets FFmpeg's own log (Playhead reports errors itself) and initialises
/// networking once. Safe to call from any thread, any number of times.
public enum FFmpegLibrary {
    private static let once: Void = {
        ph_set_log_level(ph_log_quiet())
        avformat_network_init()
    }()

    /// Performs the one-time set-up.
    public static func initialize() { _ = once }

    /// Lets FFmpeg print its own warnings and errors to stderr (for `-v`).
    public static func setVerbose(_ verbose: Bool) {
        initialize()
        ph_set_log_level(verbose ? ph_log_warning() : ph_log_quiet())
    }

    /// Whether this FFmpeg build has a decoder called `name` ("h264", "aac", "hevc").
    public static func hasDecoder(named name: String) -> Bool { avcodec_find_decoder_by_name(name) != nil }

    /// The libavformat version string, e.g. "59.27.100".
    public static var versionString: String {
        let v = avformat_version()
        return "\(v >> 16).\((v >> 8) & 0xFF).\(v & 0xFF)"
    }
}
