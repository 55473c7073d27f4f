import PlayheadCore
import PlayheadVideo

extension Player {
    /// Adds a video output that shows whatever the player plays, as an `AVPlayerLayer` does: the current item's
    /// pictures, then those of the items that follow (replaced, advanced in a queue, looped), with the last picture
    /// kept on screen until the next one comes. It shows the picture on screen now at once when there is one. An
    /// HLS item picks no variant much larger than the largest of these outputs (and of the item's own). Does
    /// nothing while `decodesVideo` is false. Main actor.
    public func add(_ output: any VideoOutput) {
        guard decodesVideo else { return }
        videoRenderer.attach(output)
    }

    /// Removes a video output added with `add(_:)`; it is sent nothing more, at once. Main actor.
    public func remove(_ output: any VideoOutput) {
        videoRenderer.detach(output)
    }

    /// The picture the player shows now (the last one presented, kept while paused and across item changes);
    /// nil before the first. For a window that draws at each display refresh instead of when told. Any thread.
    public nonisolated var currentVideoFrame: VideoFrame? { videoRenderer.currentFrame }

    /// The picture due at `time` on the current item's timeline: the next picture when it is due by then (decoded
    /// and waiting for its time), else the one on screen now (paused: always that one, at once). A window asks for
    /// the item time its next display refresh will show (`timebase`'s time plus the time to that refresh), so
    /// each picture appears at the refresh nearest its time. Like `AVPlayerItemVideoOutput.copyPixelBuffer(
    /// forItemTime:)`. Any thread.
    public nonisolated func videoFrame(dueAt time: MediaTime) -> VideoFrame? {
        videoRenderer.frame(dueAt: time.seconds)
    }
}
