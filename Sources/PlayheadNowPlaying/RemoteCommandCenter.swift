import Foundation

/// The remote commands the desktop can send, like `MPRemoteCommandCenter`: media keys, GNOME/KDE controls,
/// `playerctl`, all over MPRIS. Main actor: handlers run there.
@MainActor
public final class RemoteCommandCenter {
    /// Play.
    public let playCommand = RemoteCommand()
    /// Pause.
    public let pauseCommand = RemoteCommand()
    /// Stop.
    public let stopCommand = RemoteCommand()
    /// Toggle between play and pause.
    public let togglePlayPauseCommand = RemoteCommand()
    /// Next item.
    public let nextTrackCommand = RemoteCommand()
    /// Previous item.
    public let previousTrackCommand = RemoteCommand()
    /// Skip forward (MPRIS `Seek` with a positive offset when there is no position command).
    public let skipForwardCommand = SkipIntervalCommand()
    /// Skip backward (MPRIS `Seek` with a negative offset when there is no position command).
    public let skipBackwardCommand = SkipIntervalCommand()
    /// Go to a position (MPRIS `SetPosition` and `Seek`).
    public let changePlaybackPositionCommand = RemoteCommand()
    /// Change the rate (MPRIS `Rate`).
    public let changePlaybackRateCommand = ChangePlaybackRateCommand()
    /// Change the repeat mode (MPRIS `LoopStatus`).
    public let changeRepeatModeCommand = ChangeRepeatModeCommand()
    /// Change the shuffle mode (MPRIS `Shuffle`).
    public let changeShuffleModeCommand = ChangeShuffleModeCommand()

    private var observers: [@MainActor () -> Void] = []
    private static var sharedCenter: RemoteCommandCenter?

    /// A command center of its own (a `NowPlayingSession`'s); `shared()` is the app's.
    public init() {
        for command in allCommands { command.onChange = { [weak self] in self?.commandsChanged() } }
    }

    /// The app's command center, whose commands the MPRIS bridge of `NowPlayingInfoCenter.default()` serves.
    public static func shared() -> RemoteCommandCenter {
        if let sharedCenter { return sharedCenter }
        let center = RemoteCommandCenter()
        sharedCenter = center
        return center
    }

    /// Every command, in declaration order.
    public var allCommands: [RemoteCommand] {
        [
            playCommand, pauseCommand, stopCommand, togglePlayPauseCommand, nextTrackCommand, previousTrackCommand,
            skipForwardCommand, skipBackwardCommand, changePlaybackPositionCommand, changePlaybackRateCommand,
            changeRepeatModeCommand, changeShuffleModeCommand,
        ]
    }

    /// Calls `observer` after any command is enabled, disabled, gains or loses a target.
    func observe(_ observer: @escaping @MainActor () -> Void) { observers.append(observer) }

    private func commandsChanged() { for o in observers { o() } }
}
