import Foundation
import PlayheadCore
import PlayheadFFmpeg
import PlayheadHLS

/// A media resource at a URL (a file or `http(s)`), like `AVURLAsset`. Properties load asynchronously:
/// `try await asset.load(.duration, .tracks, .isPlayable)`.
///
/// Safe from any thread or actor. The first load opens the resource once, on a dispatch thread (never the
/// cooperative pool); later loads are answered from what was read. A `PlayerItem` made from the asset reuses
/// that opened input instead of opening the resource again, and a load made while a player opens the asset waits
/// for the player's open: the resource is opened once either way.
public final class URLAsset: Sendable {
    /// Keys of the options dictionary, like `AVURLAssetPreferPreciseDurationAndTimingKey`.
    public struct OptionKey: Hashable, Sendable, RawRepresentable {
        /// The key's name.
        public var rawValue: String
        /// Creates a key.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// `Bool`: compute an exact duration even when that costs more reading (FFmpeg's estimate otherwise).
        public static let preferPreciseDurationAndTiming = OptionKey(rawValue: "preferPreciseDurationAndTiming")
        /// Seconds any network wait may take (default 10), as a `Double` or an `Int`; kept within 0.1 s to a day.
        public static let networkTimeout = OptionKey(rawValue: "networkTimeout")
        /// `Int`: how many times a failed HLS segment, init section or key request is tried again (with exponential
        /// backoff and jitter) before a segment is skipped or the item fails; kept within 0 to 10, 3 when absent.
        public static let hlsRetries = OptionKey(rawValue: "hlsRetries")
        /// `Double` or `Int`: seconds an HLS variant, host or pathway that failed stays out of the choice before it
        /// is tried again; kept within 1 s to an hour, 60 when absent or not a number.
        public static let hlsPenaltySeconds = OptionKey(rawValue: "hlsPenaltySeconds")
        /// `[URL]`: local subtitle files (SubRip, WebVTT, ASS) shown as subtitle tracks after the asset's own, the
        /// last one chosen by default (like mpv's `--sub-file`); a file that cannot be read or holds anything else is
        /// left out with an error-log entry.
        public static let subtitleFiles = OptionKey(rawValue: "subtitleFiles")
    }

    /// The resource.
    public let url: URL
    /// The options given at creation.
    public let options: [OptionKey: any Sendable]
    let loader: AssetLoader
    /// Where the app answers requests the player cannot load itself (HLS keys with custom schemes), like
    /// `AVURLAsset.resourceLoader`: set its delegate before the asset is loaded or played. Any thread.
    public let resourceLoader: AssetResourceLoader

    /// An asset for `url` with `options`; nothing is read until a property is loaded.
    public init(url: URL, options: [OptionKey: any Sendable] = [:]) {
        self.url = url
        self.options = options
        let resourceLoader = AssetResourceLoader()
        self.resourceLoader = resourceLoader
        self.loader = AssetLoader(
            location: URLAsset.location(of: url), timeout: Self.networkTimeout(in: options),
            hls: HLSClientOptions(
                resourceLoader: resourceLoader, retry: Self.retryPolicy(in: options),
                penaltySeconds: Self.penaltySeconds(in: options)),
            subtitleFiles: ((options[.subtitleFiles] as? [URL]) ?? []).filter(\.isFileURL).map(\.path))
    }

    /// The `hlsPenaltySeconds` option, kept within 1 s to an hour; 60 when absent or not a number.
    static func penaltySeconds(in options: [OptionKey: any Sendable]) -> Double {
        let key = OptionKey.hlsPenaltySeconds
        let value = (options[key] as? Double) ?? (options[key] as? Int).map(Double.init)
        guard let value, value.isFinite else { return HLSSource.penaltySeconds }
        return min(max(value, 1), 3600)
    }

    /// The `networkTimeout` option in seconds: a `Double` or an `Int`, kept within 0.1 s to a day; 10 when absent
    /// or not a number.
    static func networkTimeout(in options: [OptionKey: any Sendable]) -> Double {
        let value = (options[.networkTimeout] as? Double) ?? (options[.networkTimeout] as? Int).map(Double.init)
        guard let value, value.isFinite else { return 10 }
        return min(max(value, 0.1), 86_400)
    }

    /// The `hlsRetries` option as a retry policy (kept within `RetryPolicy.retryRange`).
    static func retryPolicy(in options: [OptionKey: any Sendable]) -> RetryPolicy {
        guard let retries = options[.hlsRetries] as? Int else { return RetryPolicy() }
        return RetryPolicy(maximumRetries: retries)
    }

    /// The seconds a network wait may take for this asset (its `networkTimeout` option).
    var networkTimeout: Double { Self.networkTimeout(in: options) }

    /// A path for file URLs, the absolute string otherwise: what FFmpeg and error messages use. Its scheme in
    /// lowercase: schemes are case-insensitive (RFC 3986), and everything below knows them in lowercase (FFmpeg's
    /// protocols too: `HTTP://` was "protocol not found", and `Http://` a missing local file).
    static func location(of url: URL) -> String {
        if url.isFileURL { return url.path }
        let text = url.absoluteString
        guard let scheme = url.scheme, scheme != scheme.lowercased(), text.hasPrefix(scheme + ":") else { return text }
        return scheme.lowercased() + text.dropFirst(scheme.count)
    }

    /// Loads one or several properties at once, like `AVAsset.load(_:)`; throws a `PlaybackError` naming the URL
    /// when the resource cannot be read.
    public func load<each Value: Sendable>(_ property: repeat AssetProperty<each Value>) async throws -> (
        repeat each Value
    ) {
        let info = try await loader.info()
        return (repeat (each property).extract(info))
    }

    /// The loading status of one property, like `AVAsset.status(of:)`.
    public func status<Value>(of property: AssetProperty<Value>) -> AssetPropertyStatus<Value> {
        switch loader.result {
        case nil: return .notYetLoaded
        case .success(let info): return .loaded(property.extract(info))
        case .failure(let error): return .failed(error)
        }
    }
}

/// Where a property stands, like `AVAsyncProperty.Status`.
public enum AssetPropertyStatus<Value> {
    /// No load has finished yet.
    case notYetLoaded
    /// Loaded, with its value.
    case loaded(Value)
    /// Loading failed.
    case failed(PlaybackError)
}

/// A property of an asset that loads asynchronously, like `AVAsyncProperty`. A value type, safe anywhere.
public struct AssetProperty<Value: Sendable>: Sendable {
    let extract: @Sendable (AssetInfo) -> Value
}

extension AssetProperty where Value == MediaTime {
    /// The duration; `.indefinite` when the resource does not say (a live stream).
    public static var duration: AssetProperty<MediaTime> { AssetProperty { $0.duration } }
}

extension AssetProperty where Value == [AssetTrack] {
    /// The audio, video and subtitle tracks.
    public static var tracks: AssetProperty<[AssetTrack]> { AssetProperty { $0.tracks } }
}

extension AssetProperty where Value == Bool {
    /// Whether Playhead can play the resource: it has an audio or video track it can decode.
    public static var isPlayable: AssetProperty<Bool> {
        AssetProperty { $0.tracks.contains { $0.isPlayable && $0.mediaType != .subtitle } }
    }
}

extension AssetProperty where Value == [MetadataItem] {
    /// The common metadata: title, artist, album, artwork... from the file's tags.
    public static var metadata: AssetProperty<[MetadataItem]> { AssetProperty { $0.metadata } }
}

extension AssetProperty where Value == Float {
    /// The natural rate, 1.0 (files carry no preferred rate that FFmpeg reports).
    public static var preferredRate: AssetProperty<Float> { AssetProperty { _ in 1.0 } }
}
