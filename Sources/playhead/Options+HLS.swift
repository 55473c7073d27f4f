import Foundation
import Playhead

/// The HLS options of `playhead` (mpv's names where mpv has them), mapped to the item's caps. Main actor for
/// `makeItem`; parsing is pure.
struct HLSOptions {
    /// `--hls-bitrate`: which variants the adaptive policy may choose.
    enum Bitrate: Equatable {
        /// Adaptive, no cap.
        case auto
        /// The lowest variant only.
        case min
        /// Start on the highest variant (adaptive afterwards, so a network that cannot carry it still plays).
        case max
        /// Adaptive among variants of at most this many bits per second.
        case cap(Double)
    }

    var bitrate = Bitrate.auto
    /// `--hls-max-resolution=WxH`: the largest picture to choose.
    var maxResolution: Size?
    /// `--network-timeout=SECONDS`: how long a request may wait for a byte.
    var networkTimeout: Double?
    /// `--hls-retries=N`: how many times a failed HLS request is tried again.
    var retries: Int?

    /// The longest `--network-timeout` (a day): a request silent for longer is not coming back.
    static let maximumNetworkTimeout = 86_400.0

    /// Takes `name=value` when it is an HLS option; false when it is not one.
    mutating func parse(_ name: String, _ value: String?) throws(Options.UsageError) -> Bool {
        switch name {
        case "--hls-bitrate":
            bitrate = try Self.bitrate(value)
        case "--hls-max-resolution":
            guard let value, let size = Self.size(value) else {
                throw Options.UsageError(description: "--hls-max-resolution: expected WIDTHxHEIGHT, e.g. 1280x720")
            }
            maxResolution = size
        case "--network-timeout":
            guard let value, let seconds = Options.decimal(value), seconds > 0, seconds <= Self.maximumNetworkTimeout
            else {
                throw Options.UsageError(
                    description:
                        "--network-timeout: expected seconds above 0 and at most \(Int(Self.maximumNetworkTimeout))")
            }
            networkTimeout = seconds
        case "--hls-retries":
            guard let value, let n = Int(value), (0...10).contains(n) else {
                throw Options.UsageError(description: "--hls-retries: expected a count from 0 to 10")
            }
            retries = n
        default:
            return false
        }
        return true
    }

    private static func bitrate(_ value: String?) throws(Options.UsageError) -> Bitrate {
        switch value?.lowercased() {
        case "auto"?, "no"?: return .auto
        case "min"?: return .min
        case "max"?: return .max
        case let v?:
            // A number of bits per second, with an optional k or M suffix.
            var digits = Substring(v)
            var scale = 1.0
            if v.hasSuffix("k") {
                scale = 1e3
                digits = digits.dropLast()
            } else if v.hasSuffix("m") {
                scale = 1e6
                digits = digits.dropLast()
            }
            if let n = Options.decimal(digits), n > 0, (n * scale) <= 1e12 { return .cap(n * scale) }
            fallthrough
        default:
            throw Options.UsageError(
                description: "--hls-bitrate: expected min, max, auto or bits per second (e.g. 2000000 or 2M)")
        }
    }

    private static func size(_ text: String) -> Size? {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Options.decimal(parts[0]), let h = Options.decimal(parts[1]), w > 0, h > 0,
            w <= 65_536,
            h <= 65_536
        else { return nil }
        return Size(width: w, height: h)
    }

    /// The item for `url` with these options applied; also turns on the remembered bandwidth estimate.
    @MainActor func makeItem(url: URL, subtitleFiles: [URL] = []) -> PlayerItem {
        BandwidthMemory.isEnabled = true
        BandwidthMemory.startEstimate = bitrate == .max ? 1e12 : nil
        var assetOptions: [URLAsset.OptionKey: any Sendable] = [:]
        if !subtitleFiles.isEmpty { assetOptions[.subtitleFiles] = subtitleFiles }
        if let networkTimeout { assetOptions[.networkTimeout] = networkTimeout }
        if let retries { assetOptions[.hlsRetries] = retries }
        let item = PlayerItem(asset: URLAsset(url: url, options: assetOptions))
        switch bitrate {
        case .auto, .max: break
        // Below every variant: the policy keeps the lowest one alone.
        case .min: item.preferredPeakBitRate = 1
        case .cap(let n): item.preferredPeakBitRate = n
        }
        if let maxResolution { item.preferredMaximumResolution = maxResolution }
        return item
    }

    static let help = """
          --hls-bitrate=auto|min|max|N   HLS variants: adaptive (auto), lowest only, start on the highest, or
                                         adaptive up to N bits/s (k and M suffixes accepted)
          --hls-max-resolution=WxH       HLS: never choose a variant larger than this picture
          --network-timeout=SECONDS      give up a request after this long without data (default 10)
          --hls-retries=N                HLS: try a failed segment, key or playlist again N times, waiting
                                         longer each time (0-10, default 3); then skip the segment
        """
}

extension EventLog {
    /// Writes the item's error-log entries not written yet (`error-log` events with the entry's fields).
    func writeErrorLog(of item: PlayerItem, input: String) {
        let log = item.errorLog
        let written = errorLogWritten[ObjectIdentifier(item)] ?? 0
        guard log.count > written else { return }
        for entry in log[written...] {
            write([
                "event": "error-log", "input": input, "uri": entry.uri, "domain": entry.errorDomain,
                "status": entry.errorStatusCode, "comment": entry.errorComment,
                "date": entry.date.timeIntervalSince1970,
            ])
        }
        errorLogWritten[ObjectIdentifier(item)] = log.count
    }
}
