import PlayheadCore

/// What an HLS source reports to the engine besides variant switches. A value type, safe anywhere.
enum HLSNotice: Sendable {
    /// A segment arrived: its size, its transfer seconds, and the bandwidth estimate after it (bits/s).
    case segment(bytes: Int, seconds: Double, estimate: Double)
    /// The seekable window, in item time (after each live reload; once for VOD), and whether it is live.
    case window(start: Double, end: Double, live: Bool)
    /// The dates of the window's segments (`EXT-X-PROGRAM-DATE-TIME`): where the item's time meets a date, at its
    /// first dated segment and wherever the dates jump (after each live reload; once for VOD).
    case dates([DateAnchor])
    /// Playback fell out of a live window and jumps forward from `from` to `to` (item time).
    case timeJumped(from: Double, to: Double)
    /// A segment download was given up (it would not arrive before the buffer ran out) for a lower variant.
    case abandoned(uri: String)
    /// An error the source recovered from (it tried again): for the error log.
    case recovered(PlaybackError)
    /// An error that ends playback (FFmpeg only sees an I/O error, so the source says which and why).
    case failed(PlaybackError)
}
