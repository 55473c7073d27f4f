import Foundation
import PlayheadCore

/// The app's answer to resources the player cannot load itself, like `AVAssetResourceLoaderDelegate`: today the
/// keys of an HLS stream (`EXT-X-KEY` URIs), including custom schemes such as `skd://` or `myapp-key://`.
///
/// Called on the queue given to `AssetResourceLoader.setDelegate(_:queue:)` (a private serial queue when none is
/// given), never on the player's threads.
public protocol AssetResourceLoaderDelegate: AnyObject, Sendable {
    /// Whether the delegate will answer `loadingRequest` (now or later, with `finishLoading`); false lets the
    /// player load it itself (http, https, file and data URLs) or fail. Called on the delegate queue.
    func resourceLoader(
        _ resourceLoader: AssetResourceLoader,
        shouldWaitForLoadingOfRequestedResource loadingRequest: AssetResourceLoadingRequest
    ) -> Bool
}

/// One request to the delegate, like `AVAssetResourceLoadingRequest`: answer it once with the resource's bytes
/// (for a key: its 16 bytes) or an error. Safe from any thread; later answers are ignored.
public final class AssetResourceLoadingRequest: Sendable {
    /// What is asked for.
    public let url: URL
    private let outcome = Locked<Result<Data, PlaybackError>?>(nil)
    private let done = DispatchSemaphore(value: 0)
    private let cancelledFlag = Locked(false)

    init(url: URL) { self.url = url }

    /// Whether an answer was given. Any thread.
    public var isFinished: Bool { outcome.current != nil }

    /// Whether the player stopped waiting (it stopped, or the network time-out passed). Any thread.
    public var isCancelled: Bool { cancelledFlag.current }

    /// Answers with the resource's bytes. Any thread.
    public func finishLoading(with data: Data) { finish(.success(data)) }

    /// Answers with an error: the item fails with it, named with the request's URL. Any thread.
    public func finishLoading(with error: any Error) {
        let reason = (error as? PlaybackError)?.reason ?? "\(error)"
        finish(.failure(PlaybackError(.network, source: "", reason: "the resource loader failed: \(reason)")))
    }

    private func finish(_ result: Result<Data, PlaybackError>) {
        let first = outcome.withLock { o -> Bool in
            guard o == nil else { return false }
            o = result
            return true
        }
        if first { done.signal() }
    }

    /// Waits for the answer (the player's thread), at most `seconds`, giving up when `stopping` says so.
    func wait(seconds: Double, stopping: () -> Bool) -> Result<Data, PlaybackError>? {
        let end = MonotonicClock.now() + seconds
        while done.wait(timeout: .now() + 0.1) == .timedOut {
            if stopping() || MonotonicClock.now() > end {
                cancelledFlag.withLock { $0 = true }
                return nil
            }
        }
        return outcome.current
    }
}

/// An asset's resource loader, like `AVAssetResourceLoader`: holds the app's delegate (weakly, as AVFoundation
/// does) and the queue it is called on. Safe from any thread.
public final class AssetResourceLoader: Sendable {
    private struct Delegate {
        weak var delegate: (any AssetResourceLoaderDelegate)?
        var queue: DispatchQueue?
    }

    private let state = Locked(Delegate())
    private let privateQueue = DispatchQueue(label: "Playhead.AssetResourceLoader")

    init() {}

    /// The delegate, if it is still alive. Any thread.
    public var delegate: (any AssetResourceLoaderDelegate)? { state.withLock { $0.delegate } }

    /// The queue the delegate is called on; nil for a private serial queue. Any thread.
    public var delegateQueue: DispatchQueue? { state.withLock { $0.queue } }

    /// Sets the delegate (kept weakly) and the queue to call it on. Any thread; takes effect from the next request.
    public func setDelegate(_ delegate: (any AssetResourceLoaderDelegate)?, queue: DispatchQueue?) {
        state.withLock { $0 = Delegate(delegate: delegate, queue: queue) }
    }

    /// Asks the delegate for `url` and waits for its answer (the engine's demux thread, or the asset's loading
    /// thread): nil when there is no delegate or it declines; an error naming `name` when it fails, or does not
    /// answer within `seconds`.
    func load(
        _ url: URL, name: String, within seconds: Double, stopping: () -> Bool
    ) throws(PlaybackError) -> Data? {
        let (delegate, queue) = state.withLock { ($0.delegate, $0.queue) }
        guard let delegate else { return nil }
        let request = AssetResourceLoadingRequest(url: url)
        let accepted = Locked(Bool?.none)
        let asked = DispatchSemaphore(value: 0)
        (queue ?? privateQueue).async {
            let answer = delegate.resourceLoader(self, shouldWaitForLoadingOfRequestedResource: request)
            accepted.withLock { $0 = answer }
            asked.signal()
        }
        let end = MonotonicClock.now() + seconds
        while asked.wait(timeout: .now() + 0.1) == .timedOut {
            if stopping() { throw PlaybackError(.network, source: name, reason: "cancelled") }
            if MonotonicClock.now() > end { break }
        }
        guard accepted.current != false else { return nil }
        let remaining = max(0, end - MonotonicClock.now())
        switch request.wait(seconds: accepted.current == nil ? 0 : remaining, stopping: stopping) {
        case .success(let data)?:
            return data
        case .failure(let error)?:
            throw PlaybackError(.network, source: name, reason: error.reason)
        case nil:
            if stopping() { throw PlaybackError(.network, source: name, reason: "cancelled") }
            throw PlaybackError(
                .network, source: name,
                reason: "the resource loader delegate did not answer within \(Int(seconds.rounded())) s")
        }
    }
}
