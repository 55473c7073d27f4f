import Foundation
import PlayheadCore
import PlayheadFFmpeg
import PlayheadHLS
import PlayheadVideo

/// The work of an `AssetImageGenerator`: its input (opened by the first request), its video decoder, and the
/// requests, served one at a time on its serial queue. Safe from any thread: the queue owns the input; `cancel`
/// and `close` interrupt it from anywhere.
final class ImageGeneratorWorker: Sendable {
    /// One picture asked for.
    struct Request: Sendable {
        var seconds: Double
        var before: MediaTime
        var after: MediaTime
        var maximumSize: CGSize
        var format: PixelBuffer.Format
    }

    /// The input and its decoder, once opened. Queue only.
    struct Opened: @unchecked Sendable {
        var source: any MediaSource
        var track: MediaTrack
        var decoder: Decoder
    }

    private let asset: URLAsset
    private let queue = DispatchQueue(label: "playhead.image-generator")
    /// The input (queue only, but `cancel` reaches its source to interrupt a read).
    private let opened = Locked<Opened?>(nil)
    /// Bumped by `cancel`: requests made before it fail.
    private let generation = Locked(0)
    private let closed = Locked(false)
    /// The stream's I-frame playlist once looked for (`.some(nil)`: it has none), and the connection its pictures
    /// are fetched over. Queue only.
    private let iFrames = Locked<IFrameIndex??>(nil)
    private let fetch: HTTPFetch

    init(asset: URLAsset) {
        self.asset = asset
        let closed = self.closed
        fetch = HTTPFetch(
            timeout: asset.networkTimeout, localFiles: asset.url.isFileURL, stopping: { closed.withLock { $0 } })
    }

    /// Serves `request` on the queue.
    func image(_ request: Request) async throws -> (image: PixelBuffer, actualTime: MediaTime) {
        let asked = generation.withLock { $0 }
        return try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result { () throws(PlaybackError) in try self.serve(request, asked) })
            }
        }
    }

    func cancel() {
        generation.withLock { $0 += 1 }
        opened.withLock { $0?.source.interrupt() }
        queue.async { self.closeInput() }
    }

    /// The generator went away: the input closes once the request being served ends.
    func close() {
        closed.withLock { $0 = true }
        cancel()
    }

    private var name: String { asset.loader.location }

    private func closeInput() {
        let input = opened.withLock { o -> Opened? in
            defer { o = nil }
            return o
        }
        input?.source.cancel()
    }

    private func cancelled(_ asked: Int) -> PlaybackError? {
        guard generation.withLock({ $0 }) != asked || closed.withLock({ $0 }) else { return nil }
        return PlaybackError(.invalidState, source: name, reason: "picture generation cancelled")
    }

    private func serve(_ request: Request, _ asked: Int) throws(PlaybackError) -> (PixelBuffer, MediaTime) {
        if let error = cancelled(asked) { throw error }
        let frame: VideoFrame
        if let keyframe = iFramePicture(request) {
            frame = keyframe
        } else {
            frame = try decodedPicture(request, asked)
        }
        let maker = PixelBufferMaker(request.format)
        guard let buffer = maker.make(frame, fitting: request.maximumSize) else {
            throw PlaybackError(
                .decoding, source: name, reason: "cannot convert the picture at \(frame.time.seconds) s")
        }
        return (buffer, frame.time)
    }

    /// The keyframe for `request` from the stream's I-frame playlist, one byte range, when it has one and the
    /// tolerance before allows its keyframe; nil otherwise (and when fetching it failed: playback's way is tried).
    private func iFramePicture(_ request: Request) -> VideoFrame? {
        let before = request.before.isNumeric ? max(0, request.before.seconds) : .infinity
        guard before > 0 else { return nil }
        let index: IFrameIndex?
        if let known = iFrames.withLock({ $0 }) {
            index = known
        } else {
            index = try? IFrameIndex.load(
                name, fetch: fetch, timeout: asset.networkTimeout, maximumSize: request.maximumSize)
            iFrames.withLock { $0 = .some(index) }
        }
        let t = max(0, request.seconds)
        guard let index else { return nil }
        let entry = index.entry(at: t)
        guard t - entry.start <= before else { return nil }
        return try? index.picture(entry, fetch: fetch, name: name)
    }

    /// The picture for `request` decoded from the media as playback reads it. Queue only.
    private func decodedPicture(_ request: Request, _ asked: Int) throws(PlaybackError) -> VideoFrame {
        let input: Opened
        if let already = opened.withLock({ $0 }) { input = already } else { input = try open() }
        if let error = cancelled(asked) { throw error }
        return try picture(request, from: input, name: name) { cancelled(asked) }
    }

    /// Opens the asset for pictures: its video track and a decoder for it. Queue only.
    private func open() throws(PlaybackError) -> Opened {
        let location = name
        let input = try MediaOpener.open(
            location, timeout: asset.networkTimeout, hls: asset.loader.hls,
            stopping: { [weak self] in self.map { $0.closed.withLock { $0 } } ?? true })
        let source = DemuxerSource.make(input: input, location: location, hls: asset.loader.hls)
        source.attach(Self.host)
        guard let video = source.defaultTrack(.video), let track = source.track(video) else {
            source.cancel()
            throw PlaybackError(.unsupported, source: location, reason: "no video stream: no picture to take")
        }
        _ = source.select([video])
        do {
            let decoder = try source.makeDecoder(track: video, threads: 0)
            let result = Opened(source: source, track: source.track(video) ?? track, decoder: decoder)
            opened.withLock { $0 = result }
            return result
        } catch {
            source.cancel()
            throw PlaybackError(decoding: location, stream: track.stream, error: error)
        }
    }

    /// A source host for pictures: nothing plays, nothing jumps; failures end the read that meets them.
    private static let host = SourceHost(
        position: { 0 }, caps: { AdaptiveBitratePolicy.Caps() }, isPlaying: { false }, mayJump: { false },
        seekPending: { false }, requestJump: { _ in }, jumpWaits: {}, post: { _ in }, fail: { _ in },
        failAtEnd: { _ in },
        forwardBufferSeconds: 0)
}
