/// The error a player, item or asset reports to the user, grouped by cause like Media3's `PlaybackException`.
///
/// Its `description` is one line that names the file or URL and says what is wrong, ready to print. A value type,
/// safe on any thread.
public struct PlaybackError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is.
    public enum Category: String, Sendable, Hashable {
        /// The file could not be read: missing, a directory, no permission, or empty.
        case io
        /// The network failed: unreachable host, HTTP error status, time-out.
        case network
        /// The bytes are not a media format Playhead can read, or are damaged.
        case parsing
        /// A decoder failed on the media.
        case decoding
        /// The sound server refused or lost the stream.
        case audioOutput
        /// The video output failed.
        case videoOutput
        /// The media is valid but uses something Playhead cannot play here (a codec, a scheme).
        case unsupported
        /// A call was made in a state that does not allow it.
        case invalidState
    }

    /// The kind of failure.
    public var category: Category
    /// What was being played or opened: a path or a URL string, or empty when nothing in particular.
    public var source: String
    /// What went wrong, in words for a user, without the source.
    public var reason: String
    /// The underlying C library code (an `AVERROR`, a PulseAudio error, an HTTP status), when there is one.
    public var code: Int32?

    /// An error about `source` of the given category.
    public init(_ category: Category, source: String, reason: String, code: Int32? = nil) {
        self.category = category
        self.source = source
        self.reason = reason
        self.code = code
    }

    /// A library's message as the reason after "source: ": its first word in lower case, unless that word is a
    /// name or an acronym ("Could not resolve host" -> "could not resolve host"; "OpenSSL/3.0: ..." and "HTTP ..."
    /// stay as they are). Safe on any thread.
    public static func reason(from message: String) -> String {
        let word = message.prefix { !$0.isWhitespace }
        guard let first = word.first, first.isUppercase, !word.dropFirst().contains(where: \.isUppercase) else {
            return message
        }
        return first.lowercased() + message.dropFirst()
    }

    /// `"<source>: <reason>"`, or just the reason when there is no source.
    public var description: String { source.isEmpty ? reason : "\(source): \(reason)" }
}
