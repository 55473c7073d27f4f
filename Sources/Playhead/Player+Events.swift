import Foundation

extension Player {
    /// A stream of every playback event from now on (one stream per call). Main actor; the stream may be read
    /// from any task.
    public func events() -> AsyncStream<PlayerEvent> {
        let id = UUID()
        let (stream, continuation) = AsyncStream<PlayerEvent>.makeStream(bufferingPolicy: .bufferingNewest(1024))
        eventContinuations[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { @MainActor in self?.eventContinuations[id] = nil }
        }
        return stream
    }

    /// Ends every stream `events()` has given, each after the events already in it, without stopping playback
    /// (`close()` does this too): a loop over one ends once it has seen everything that happened before this call.
    /// A program that decided to stop (its queue ran out) and must not lose the events that led there (a log of
    /// them) ends its loop this way. A later `events()` gives a new stream. Main actor.
    public func finishEventStreams() {
        for c in eventContinuations.values { c.finish() }
        eventContinuations.removeAll()
    }

    func emit(_ event: PlayerEvent) {
        for c in eventContinuations.values { c.yield(event) }
    }
}
