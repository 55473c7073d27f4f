import Foundation
import Playhead

/// Now Playing for one or more players, like `MPNowPlayingSession`: with `automaticallyPublishesNowPlayingInfo`
/// the session publishes the current item's `PlayerItem.nowPlayingInfo` (set by the app) over its tags and
/// artwork, its duration, elapsed time, rate and playback state with no app code, and MPRIS `Seeked` after every
/// seek the player finishes (made by the app or the remote) and at no other time. Its `remoteCommandCenter` has
/// default handlers (play, pause, toggle, stop, seek, skip 15 s, rate) that the app can replace; a live item (no
/// duration) cannot seek or skip. Only the active session is shown to the desktop and receives remote commands.
///
/// Several players (`NowPlayingSession(players: [main, pip])`, the same content in the main view and in Picture
/// in Picture): the session publishes, and its commands control, the player that plays, as Apple's session
/// follows its primary player. "Plays" is a `timeControlStatus` other than `.paused` (waiting to play counts). When
/// several play, the first of them in `players` wins; when none plays, the session stays with the one it published
/// last (the first player until one plays), so pausing never switches what the desktop shows. Separate sessions
/// (one for the main view, one for Picture in Picture) take turns with `becomeActiveIfPossible()`.
/// Main actor.
@MainActor
public final class NowPlayingSession {
    /// The players this session publishes: the one that plays is shown and controlled (see the type's comment).
    public let players: [Player]
    /// This session's commands (not the shared center's).
    public let remoteCommandCenter: RemoteCommandCenter
    /// This session's Now Playing information; published to the desktop while the session is active.
    public let nowPlayingInfoCenter: NowPlayingInfoCenter
    /// Whether the session keeps `nowPlayingInfoCenter` up to date from its player by itself.
    public var automaticallyPublishesNowPlayingInfo = false {
        didSet {
            guard oldValue != automaticallyPublishesNowPlayingInfo else { return }
            if automaticallyPublishesNowPlayingInfo { startPublishing() } else { stopPublishing() }
        }
    }
    /// Called on the main actor after the desktop set the player's volume (MPRIS `Volume`), which no player event
    /// reports: an app that shows the volume redraws it here.
    public var volumeChangeHandler: (@MainActor () -> Void)?
    /// Whether this session is the one the desktop sees.
    public var isActive: Bool { Self.active === self && nowPlayingInfoCenter.mprisBusName != nil }

    private static weak var active: NowPlayingSession?
    var observation: Task<Void, Never>?
    var events: Task<Void, Never>?
    /// The target of the seek the player is carrying out; nil when none is.
    var seekTarget: Double?
    /// The item last published (a new one forgets the seek target).
    var publishedItem: PlayerItem?
    /// Queue sessions: each item's track id, the items played (for previous), tags read ahead.
    var trackIDs: [ObjectIdentifier: (item: PlayerItem, id: String)] = [:]
    var nextTrackNumber = 0
    var history: [PlayerItem] = []
    var isGoingBack = false
    var assetTags: [ObjectIdentifier: NowPlayingInfo] = [:]
    var loadingTags: Set<ObjectIdentifier> = []
    /// Set by the stop command: the paused player shows as stopped until it plays again.
    var isStopped = false
    var defaultTargets: [(RemoteCommand, RemoteCommandTarget)] = []
    /// The index in `players` of the player published and controlled (`followPlayingPlayer()`).
    var followed = 0

    /// A session for `players` (at least one), with default command handlers, not yet active.
    public init(players: [Player]) {
        precondition(!players.isEmpty, "NowPlayingSession needs at least one player")
        self.players = players
        let commands = RemoteCommandCenter()
        remoteCommandCenter = commands
        nowPlayingInfoCenter = NowPlayingInfoCenter(commandCenter: commands, connect: false)
        installDefaultHandlers()
        nowPlayingInfoCenter.openURL = { [weak self] url in await self?.openURL(url) }
        if queue != nil {
            nowPlayingInfoCenter.trackList = queueControl()
            installQueueHandlers()
        }
    }

    /// Makes this the session the desktop sees and remote commands reach, taking over from the active one;
    /// false when no session bus is reachable.
    public func becomeActiveIfPossible() async -> Bool {
        if let current = Self.active, current !== self { current.nowPlayingInfoCenter.disconnect() }
        Self.active = self
        return nowPlayingInfoCenter.connect()
    }

    /// Stops observing the players and leaves the desktop. Call it when the session is no longer needed.
    public func invalidate() {
        automaticallyPublishesNowPlayingInfo = false
        nowPlayingInfoCenter.disconnect()
        if Self.active === self { Self.active = nil }
    }

    /// The player published and controlled now.
    var player: Player { players[followed] }

    /// Follows the first player that plays, if any; else stays with the one followed. Main actor.
    func followPlayingPlayer() {
        if let playing = players.firstIndex(where: { $0.timeControlStatus != .paused }) { followed = playing }
    }
}
