import Foundation

/// What a remote command handler did, like `MPRemoteCommandHandlerStatus`. A failure reaches the D-Bus caller as
/// an error reply. Safe anywhere.
public enum RemoteCommandHandlerStatus: Sendable, Hashable {
    /// Done.
    case success
    /// The content asked for does not exist.
    case noSuchContent
    /// Nothing is playing that the command could act on.
    case noActionableNowPlayingItem
    /// The command failed.
    case commandFailed
}

/// A repeat mode, like `MPRepeatType` (MPRIS `LoopStatus`). Safe anywhere.
public enum RepeatType: Sendable, Hashable {
    /// No repeat (`None`).
    case off
    /// Repeat the current item (`Track`).
    case one
    /// Repeat the whole queue (`Playlist`).
    case all
}

/// A shuffle mode, like `MPShuffleType` (MPRIS `Shuffle`). Safe anywhere.
public enum ShuffleType: Sendable, Hashable {
    /// Play in order.
    case off
    /// Shuffle the items.
    case items
}

/// A remote request delivered to a handler on the main actor, like `MPRemoteCommandEvent` and its subclasses:
/// the fields that apply to the command are set. Safe anywhere.
public struct RemoteCommandEvent: Sendable {
    /// The command that fired.
    public let command: RemoteCommand
    /// Skip commands: seconds to skip (positive).
    public var interval: Double?
    /// `changePlaybackPositionCommand`: the position asked for, in seconds.
    public var positionTime: Double?
    /// `changePlaybackRateCommand`: the rate asked for.
    public var playbackRate: Double?
    /// `changeRepeatModeCommand`: the mode asked for.
    public var repeatType: RepeatType?
    /// `changeShuffleModeCommand`: the mode asked for.
    public var shuffleType: ShuffleType?

    /// An event of `command` with no payload; set the field that applies.
    public init(command: RemoteCommand) { self.command = command }
}

/// The token `addTarget(handler:)` returns, for `removeTarget(_:)`. Safe anywhere.
public struct RemoteCommandTarget: Hashable, Sendable {
    let id: Int
}

/// One remote command, like `MPRemoteCommand`. Main actor: handlers run there. The desktop offers the command
/// (its MPRIS `Can*` property is true) while it is enabled and has at least one target.
@MainActor
public class RemoteCommand {
    /// Whether the command is offered; disabling hides it from the desktop.
    public var isEnabled = true { didSet { if oldValue != isEnabled { changed() } } }

    private var targets: [(RemoteCommandTarget, @MainActor (RemoteCommandEvent) -> RemoteCommandHandlerStatus)] = []
    private var nextTarget = 0
    var onChange: (@MainActor () -> Void)?

    init() {}

    /// Whether the command is enabled and has a target: what the desktop sees.
    public var isActive: Bool { isEnabled && !targets.isEmpty }

    /// Adds a handler; returns the token that removes it. Handlers run on the main actor in the order added.
    @discardableResult
    public func addTarget(
        handler: @escaping @MainActor (RemoteCommandEvent) -> RemoteCommandHandlerStatus
    ) -> RemoteCommandTarget {
        nextTarget += 1
        let token = RemoteCommandTarget(id: nextTarget)
        targets.append((token, handler))
        changed()
        return token
    }

    /// Removes the handler of `target`, or every handler when `target` is nil.
    public func removeTarget(_ target: RemoteCommandTarget?) {
        if let target { targets.removeAll { $0.0 == target } } else { targets.removeAll() }
        changed()
    }

    /// Runs every handler with `event`; the result is the first failure, or `.success`.
    /// `.noActionableNowPlayingItem` when the command is disabled or has no handler.
    public func perform(_ event: RemoteCommandEvent) -> RemoteCommandHandlerStatus {
        guard isActive else { return .noActionableNowPlayingItem }
        var result = RemoteCommandHandlerStatus.success
        for (_, handler) in targets {
            let status = handler(event)
            if result == .success { result = status }
        }
        return result
    }

    private func changed() { onChange?() }
}

/// A skip command with its intervals, like `MPSkipIntervalCommand`. Main actor.
@MainActor
public final class SkipIntervalCommand: RemoteCommand {
    /// The intervals offered, in seconds; the first is used for a plain skip. Default 15 s.
    public var preferredIntervals: [Double] = [15]
}

/// The rate command with the rates it accepts, like `MPChangePlaybackRateCommand`. Main actor.
@MainActor
public final class ChangePlaybackRateCommand: RemoteCommand {
    /// The rates accepted; MPRIS `MinimumRate` and `MaximumRate` are their bounds. Default 0.25...4.
    public var supportedPlaybackRates: [Double] = [0.25, 0.5, 1, 1.5, 2, 4] {
        didSet { onChange?() }
    }
}

/// The repeat command, like `MPChangeRepeatModeCommand`. Main actor.
@MainActor
public final class ChangeRepeatModeCommand: RemoteCommand {
    /// The mode in effect, published as MPRIS `LoopStatus`; set it after handling a change.
    public var currentRepeatType: RepeatType = .off { didSet { onChange?() } }
}

/// The shuffle command, like `MPChangeShuffleModeCommand`. Main actor.
@MainActor
public final class ChangeShuffleModeCommand: RemoteCommand {
    /// The mode in effect, published as MPRIS `Shuffle`; set it after handling a change.
    public var currentShuffleType: ShuffleType = .off { didSet { onChange?() } }
}
