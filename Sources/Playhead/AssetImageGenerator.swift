import Foundation
import PlayheadCore
import PlayheadFFmpeg
import PlayheadHLS
import PlayheadVideo

/// Pictures of an asset at chosen times, like `AVAssetImageGenerator`: posters, scrubbing thumbnails, a seek bar's
/// preview. The asset is opened once, by the first request, on the generator's own thread, apart from any player
/// playing it; later requests seek in what is open (a file at the keyframe before the time, an HLS stream at the
/// segment that holds it). Requests are served one at a time, in order.
///
/// With the default tolerances (infinite), a picture is the keyframe at or before the time asked: cheap, what
/// scrubbing wants. With zero tolerances it is the picture shown at that time exactly (decoded from the keyframe
/// before it).
///
/// Threads: settings and requests from any thread; the work runs on the generator's serial queue. Releasing the
/// generator, or `cancelAllImageGeneration()`, ends its work and closes the asset's input.
public final class AssetImageGenerator: Sendable {
    /// The asset pictures are taken from.
    public let asset: URLAsset

    private struct Settings {
        var maximumSize = CGSize.zero
        var before = MediaTime.positiveInfinity
        var after = MediaTime.positiveInfinity
        var format = PixelBuffer.Format.bgra
    }
    private let settings = Locked(Settings())
    private let worker: ImageGeneratorWorker

    /// A generator for `asset`. Any thread.
    public init(asset: URLAsset) {
        self.asset = asset
        worker = ImageGeneratorWorker(asset: asset)
    }

    deinit { worker.close() }

    /// The largest picture handed out (the picture is scaled down to fit, keeping its shape); `.zero` (the
    /// default): the picture's own size. Any thread.
    public var maximumSize: CGSize {
        get { settings.withLock { $0.maximumSize } }
        set { settings.withLock { $0.maximumSize = newValue } }
    }

    /// How much earlier than the time asked the picture may be; `.positiveInfinity` (the default) allows the
    /// keyframe before it. Any thread.
    public var requestedTimeToleranceBefore: MediaTime {
        get { settings.withLock { $0.before } }
        set { settings.withLock { $0.before = newValue } }
    }

    /// How much later than the time asked the picture may be; `.positiveInfinity` by default. Any thread.
    public var requestedTimeToleranceAfter: MediaTime {
        get { settings.withLock { $0.after } }
        set { settings.withLock { $0.after = newValue } }
    }

    /// The layout of the pictures handed out: `.bgra` (the default) or the YUV planes. Any thread.
    public var pixelFormat: PixelBuffer.Format {
        get { settings.withLock { $0.format } }
        set { settings.withLock { $0.format = newValue } }
    }

    /// The picture for `time`, and the time it is shown at, like `AVAssetImageGenerator.image(at:)`. Throws the
    /// asset's error (naming the file or URL: not media, no video, a network failure) or a `.invalidState` error
    /// when cancelled. Any actor; the work runs on the generator's queue.
    public func image(at time: MediaTime) async throws -> (image: PixelBuffer, actualTime: MediaTime) {
        let request = settings.withLock { s in
            ImageGeneratorWorker.Request(
                seconds: time.seconds, before: s.before, after: s.after, maximumSize: s.maximumSize,
                format: s.format)
        }
        guard time.isNumeric else {
            throw PlaybackError(.invalidState, source: asset.url.absoluteString, reason: "no picture at \(time)")
        }
        return try await worker.image(request)
    }

    /// Ends the requests waiting and the one being served (each throws) and closes the input; later requests
    /// open the asset again. Any thread.
    public func cancelAllImageGeneration() { worker.cancel() }
}
