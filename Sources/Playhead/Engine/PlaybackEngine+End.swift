import PlayheadCore

extension PlaybackEngine {
    /// Where the item stops, in seconds of its timeline (`forwardPlaybackEndTime`); nil plays to the end. Any
    /// thread.
    var endSeconds: Double? { endTime.current }

    /// Moves where the item stops (an app set `forwardPlaybackEndTime` while the item plays): the renderers cut
    /// at the new end from their next samples on, and the clock stops there. An end later than where reading was
    /// already cut short (`control.cutShort`) needs a seek to read on. Any thread.
    func setEnd(_ seconds: Double?) {
        endTime.withLock { end in
            end = seconds
            clock.setLimit(seconds ?? .infinity)
        }
    }
}
