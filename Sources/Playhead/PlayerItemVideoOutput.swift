import Foundation
import PlayheadCore
import PlayheadVideo

/// Pictures of an item for an app that draws with its own toolkit, like `AVPlayerItemVideoOutput`: at each of its
/// display refreshes the app asks which item time that refresh shows (`itemTime(forHostTime:)`), whether a new
/// picture is due by then (`hasNewPixelBuffer(forItemTime:)`), and copies it (`copyPixelBuffer(forItemTime:)`) in
/// the layout it chose (YUV planes or BGRA). The pictures are those the player decodes for the item; nothing is
/// decoded twice, and adding the output reopens nothing.
///
/// Threads: `hasNewPixelBuffer`, `copyPixelBuffer` and `itemTime` from any thread (the app's drawing thread);
/// `PlayerItem.add(_:)` and `remove(_:)` on the main actor.
public final class PlayerItemVideoOutput: Sendable {
    /// The layout of the pictures handed out.
    public let pixelFormat: PixelBuffer.Format

    private struct State {
        /// The player playing the item, while it does.
        weak var player: Player?
        /// The item the output belongs to.
        var item: ObjectIdentifier?
        /// The time of the last picture copied.
        var lastCopied: MediaTime?
    }
    private let state = Locked(State())
    /// Copies pictures out, converting those not in `pixelFormat` already.
    private let maker: PixelBufferMaker

    /// An output handing out pictures in `pixelFormat` (`.bgra` unless asked otherwise). Any thread.
    public init(pixelFormat: PixelBuffer.Format = .bgra) {
        self.pixelFormat = pixelFormat
        maker = PixelBufferMaker(pixelFormat)
    }

    /// The host clock the times passed to `itemTime(forHostTime:)` count on: seconds of the monotonic clock
    /// (`CLOCK_MONOTONIC`, like `CACurrentMediaTime`). Any thread.
    public static var currentHostTime: Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// The item time that host time `hostTime` (`currentHostTime` now, or a display refresh's time to come) shows:
    /// the item's time now moved on at the player's rate (not moving while paused or waiting). `.invalid` while
    /// the item is not playing in a player. Any thread.
    public func itemTime(forHostTime hostTime: Double) -> MediaTime {
        guard let player = state.withLock({ $0.player }), hostTime.isFinite else { return .invalid }
        let timebase = player.timebase
        let (now, rate) = (timebase.time.seconds, timebase.rate)
        let seconds = now + (hostTime - Self.currentHostTime) * rate
        return MediaTime(seconds: max(0, seconds), preferredTimescale: 1_000_000)
    }

    /// Whether a picture of the item other than the last one copied is due at `itemTime`. Any thread.
    public func hasNewPixelBuffer(forItemTime itemTime: MediaTime) -> Bool {
        guard let frame = due(at: itemTime) else { return false }
        return state.withLock { $0.lastCopied != frame.time }
    }

    /// A copy of the item's picture due at `itemTime` (the last one before it; the one on screen while paused), in
    /// `pixelFormat`, with the time it belongs to; nil when the item shows none (not playing, no picture yet, no
    /// video). Converting a picture takes a moment: call it from a drawing thread, not the main actor. Any thread.
    public func copyPixelBuffer(forItemTime itemTime: MediaTime) -> PixelBuffer? {
        guard let frame = due(at: itemTime) else { return nil }
        let buffer = maker.make(frame)
        if buffer != nil { state.withLock { $0.lastCopied = frame.time } }
        return buffer
    }

    /// The picture of this output's item due at `itemTime`, nil when the player shows another item's.
    private func due(at itemTime: MediaTime) -> VideoFrame? {
        let (player, item) = state.withLock { ($0.player, $0.item) }
        guard let player, let item, itemTime.isNumeric else { return nil }
        guard let frame = player.videoFrame(dueAt: itemTime), frame.item == item else { return nil }
        return frame
    }

    /// The item was added to a player, or left it. Main actor.
    func follow(_ player: Player?, item: PlayerItem) {
        state.withLock {
            $0.player = player
            $0.item = ObjectIdentifier(item)
        }
    }

    /// The output was removed from its item. Main actor.
    func leave() {
        state.withLock {
            $0.player = nil
            $0.item = nil
            $0.lastCopied = nil
        }
    }
}

extension PlayerItem {
    /// Adds an output that copies out the item's pictures, like `AVPlayerItem.add(_:)` with an
    /// `AVPlayerItemVideoOutput`: it hands out pictures while the item plays in a player. Main actor.
    public func add(_ output: PlayerItemVideoOutput) {
        guard !itemVideoOutputs.contains(where: { $0 === output }) else { return }
        itemVideoOutputs.append(output)
        output.follow(player, item: self)
    }

    /// Removes an output added with `add(_:)`; it hands out nothing more. Main actor.
    public func remove(_ output: PlayerItemVideoOutput) {
        guard itemVideoOutputs.contains(where: { $0 === output }) else { return }
        itemVideoOutputs.removeAll { $0 === output }
        output.leave()
    }
}
