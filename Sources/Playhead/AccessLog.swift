import Foundation

/// One period of playback on one variant, like `AVPlayerItemAccessLogEvent`. A value type, safe anywhere.
public struct AccessLogEvent: Sendable, Hashable {
    /// The URI of the stream.
    public var uri: String
    /// When the period began.
    public var playbackStartDate: Date
    /// The variant's declared bit rate (`BANDWIDTH`), bits per second.
    public var indicatedBitrate: Double
    /// The variant's picture size, zero for audio.
    public var resolution: Size
    /// Bytes of media downloaded in the period.
    public var numberOfBytesTransferred: Int64 = 0
    /// Segments downloaded in the period.
    public var numberOfMediaRequests = 0
    /// Seconds spent downloading them.
    public var transferDuration: Double = 0
    /// The throughput measured over the period's downloads, bits per second (0 before any).
    public var observedBitrate: Double {
        transferDuration > 0 ? Double(numberOfBytesTransferred) * 8 / transferDuration : 0
    }
    /// The player's bandwidth estimate after the period's last download, bits per second.
    public var estimatedBitrate: Double = 0
    /// Segment downloads given up because they would not arrive before the buffer ran out (`downloadOverdue`).
    public var downloadOverdue = 0
    /// Stalls during the period.
    public var numberOfStalls = 0
    /// Late video frames dropped during the period.
    public var numberOfDroppedVideoFrames = 0
    /// Whether the period began with a switch from another variant (false for the first).
    public var isSwitch: Bool
    /// Seconds from starting the item to being ready to play (first period only; 0 in later ones).
    public var startupTime: Double = 0
    /// The host the period's media came from: the variant playlist's, with the port when its URI names one
    /// (`AVFoundation` gives an IP address here); nil for local or `data:` playlists.
    public var serverAddress: String?
    /// The content steering pathway of the period's variant (`PATHWAY-ID`; "." for a variant without one).
    public var pathwayID: String?
    /// The sound playing: an HLS audio rendition's `NAME` (the display name of the track playing, as
    /// `MediaSelectionOption` gives it); nil before the item opens. Follows a switch within the period.
    public var audibleOption: String?
    /// The subtitles shown, named likewise; nil for none.
    public var legibleOption: String?
}

extension PlayerItem {
    /// Starts a new access log period on a variant.
    func accessLogDidSwitch(to v: VariantChoice) {
        var period = AccessLogEvent(
            uri: asset.url.absoluteString, playbackStartDate: Date(), indicatedBitrate: Double(v.bitRate),
            resolution: Size(width: Double(v.width), height: Double(v.height)), isSwitch: !accessLog.isEmpty)
        period.serverAddress = v.host
        period.pathwayID = v.pathway
        (period.audibleOption, period.legibleOption) = (playingOptionName(.audio), playingOptionName(.subtitle))
        accessLog.append(period)
    }

    /// Counts a downloaded segment in the current period.
    func accessLogDidLoad(bytes: Int, seconds: Double, estimate: Double) {
        accessLogUpdate {
            $0.numberOfBytesTransferred += Int64(bytes)
            $0.numberOfMediaRequests += 1
            $0.transferDuration += seconds
            $0.estimatedBitrate = estimate
        }
    }

    /// Records the start-up time in the first period (main actor; `timestamp` in seconds since process start).
    func accessLogDidBecomeReady(at timestamp: Double) {
        guard accessLog.count == 1, accessLog[0].startupTime == 0, let started = engineStartedAt else { return }
        accessLog[0].startupTime = max(timestamp - started, 0)
    }

    /// Changes the current period, if there is one.
    func accessLogUpdate(_ change: (inout AccessLogEvent) -> Void) {
        guard !accessLog.isEmpty else { return }
        change(&accessLog[accessLog.count - 1])
    }
}
