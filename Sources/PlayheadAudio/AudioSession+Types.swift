import Foundation

extension AudioSession {
    /// What the process does with sound, like `AVAudioSession.Category`. Value type, safe anywhere.
    ///
    /// On Linux the category (with the mode) decides the `media.role` of every stream the process opens, which
    /// is what the sound server's policy modules (`module-role-cork`, `module-role-ducking`, stream restore) act on.
    public enum Category: String, Sendable, Hashable, CaseIterable {
        /// Playback is central (music, video, podcasts): role `music` (`video` with `.moviePlayback`).
        case playback
        /// Calls and recording with playback: role `phone` with `.voiceChat`/`.videoChat`, else `production`.
        case playAndRecord
        /// Sound that mixes with others (game effects): role `event`. Never corked by a call.
        case ambient
        /// The default: sound that silences others on iOS (games): role `game`.
        case soloAmbient
        /// Recording only; any output stream opened anyway carries role `production`.
        case record

        /// Whether the category mixes with other applications without `.mixWithOthers`.
        public var mixesByDefault: Bool { self == .ambient }
    }

    /// A refinement of the category, like `AVAudioSession.Mode`. Value type, safe anywhere.
    public enum Mode: String, Sendable, Hashable, CaseIterable {
        /// No special behaviour.
        case `default`
        /// Film and video playback (`.playback` only): role `video`.
        case moviePlayback
        /// Podcasts and audio books (`.playback`, `.playAndRecord`): role `music`.
        case spokenAudio
        /// Video calls (`.playAndRecord` only): role `phone`, asks for echo cancellation (`filter.want`).
        case videoChat
        /// Voice calls (`.playAndRecord` only): role `phone`, asks for echo cancellation (`filter.want`).
        case voiceChat
    }

    /// How the session treats other applications and devices, like `AVAudioSession.CategoryOptions`.
    /// Value type, safe anywhere.
    public struct CategoryOptions: OptionSet, Sendable, Hashable {
        /// The raw bits.
        public let rawValue: UInt
        /// Options from raw bits.
        public init(rawValue: UInt) { self.rawValue = rawValue }

        /// Plays alongside others: activation pauses no other player, and a cork request from the server is not
        /// treated as an interruption (the server may still mute the stream for the call).
        public static let mixWithOthers = CategoryOptions(rawValue: 1)
        /// Lowers the volume of other applications' streams (their sink inputs) while the session is active,
        /// and restores it on deactivation. Implies mixing. `.playback` and `.playAndRecord` only.
        public static let duckOthers = CategoryOptions(rawValue: 2)
        /// Mixes with others but pauses other players of spoken audio on activation (here: like
        /// `.mixWithOthers`; MPRIS does not say what a player plays). `.playback` and `.playAndRecord` only.
        public static let interruptSpokenAudioAndMixWithOthers = CategoryOptions(rawValue: 4)
        /// `.playAndRecord` only. Linux has no earpiece: the default sink is used, as with this option on iOS.
        public static let defaultToSpeaker = CategoryOptions(rawValue: 8)
        /// `.playAndRecord` and `.record` only. Accepted; the Bluetooth profile (A2DP or HFP) is the sound
        /// server's choice (its card profile), not the stream's.
        public static let allowBluetoothHFP = CategoryOptions(rawValue: 16)
    }

    /// Options for `setActive(_:options:)`, like `AVAudioSession.SetActiveOptions`.
    public struct SetActiveOptions: OptionSet, Sendable, Hashable {
        /// The raw bits.
        public let rawValue: UInt
        /// Options from raw bits.
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// On deactivation, resumes the other players that activation paused (exclusive audio).
        public static let notifyOthersOnDeactivation = SetActiveOptions(rawValue: 1)
    }

    /// Whether an interruption begins or ends, like `AVAudioSession.InterruptionType`.
    public enum InterruptionType: UInt, Sendable, Hashable {
        /// The server asked our streams to stop (a call began).
        case began = 1
        /// The server allows our streams to play again.
        case ended = 0
    }

    /// What an ended interruption allows, like `AVAudioSession.InterruptionOptions`.
    public struct InterruptionOptions: OptionSet, Sendable, Hashable {
        /// The raw bits.
        public let rawValue: UInt
        /// Options from raw bits.
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// The interruption ended by the server un-corking the stream: playback may resume.
        public static let shouldResume = InterruptionOptions(rawValue: 1)
    }

    /// The newer form of the resumption advice (`AVAudioSession.ResumptionRecommendation`).
    public enum ResumptionRecommendation: Int, Sendable, Hashable {
        /// Resume playback.
        case shouldResume = 1
        /// Do not resume.
        case shouldNotResume = 0
    }

    /// Why the route changed, like `AVAudioSession.RouteChangeReason`.
    public enum RouteChangeReason: UInt, Sendable, Hashable {
        /// Unknown.
        case unknown = 0
        /// A sink appeared (a device was plugged in).
        case newDeviceAvailable = 1
        /// The sink our stream played on was removed, or its active port became unavailable (headphones
        /// pulled). The player pauses.
        case oldDeviceUnavailable = 2
        /// The category or mode changed (stream properties were updated).
        case categoryChange = 3
        /// The output was chosen (`setPreferredOutput`) or another program moved our stream.
        case override = 4
        /// The sink's configuration changed (for example its active port).
        case routeConfigurationChange = 8
    }

    /// The kind of an output port, like `AVAudioSession.Port`, from the sink's port type and device properties.
    public enum PortType: String, Sendable, Hashable {
        /// Wired headphones or a headset.
        case headphones
        /// The built-in speaker.
        case builtInSpeaker
        /// HDMI or DisplayPort.
        case hdmi
        /// A USB audio device.
        case usbAudio
        /// Bluetooth, high-quality playback profile.
        case bluetoothA2DP
        /// Bluetooth, hands-free (call) profile.
        case bluetoothHFP
        /// A line output or S/PDIF.
        case lineOut
        /// A sink on another machine (tunnel, RAOP): Linux's counterpart of AirPlay.
        case network
        /// A null sink: sound goes nowhere (tests, headless machines). Linux-specific.
        case null
        /// Anything else.
        case other
    }

    /// One output, like `AVAudioSessionPortDescription`: a PulseAudio sink. Value type, safe anywhere.
    public struct PortDescription: Sendable, Hashable {
        /// The sink's human-readable description.
        public var portName: String
        /// The kind of port.
        public var portType: PortType
        /// The sink's name (stable, what `--audio-device` takes).
        public var uid: String
        /// The sink's active port name, if it has ports.
        public var activePort: String?

        /// A port description.
        public init(portName: String, portType: PortType, uid: String, activePort: String? = nil) {
            self.portName = portName
            self.portType = portType
            self.uid = uid
            self.activePort = activePort
        }
    }

    /// Where sound goes now, like `AVAudioSessionRouteDescription`. Value type, safe anywhere.
    public struct RouteDescription: Sendable, Hashable {
        /// The sinks our streams play on (or would play on).
        public var outputs: [PortDescription]
        /// Inputs (none: Playhead does not record).
        public var inputs: [PortDescription] = []

        /// A route of `outputs`.
        public init(outputs: [PortDescription]) { self.outputs = outputs }
    }

    /// Something the session reports, delivered to `addObserver` handlers and `events()` and posted as the
    /// matching `Notification` on `NotificationCenter.default`. Value type, safe anywhere.
    public enum Event: Sendable, Hashable {
        /// An interruption began or ended (`interruptionNotification`); `.ended` carries `.shouldResume` when
        /// the server un-corked our stream.
        case interruption(InterruptionType, options: InterruptionOptions)
        /// The newer form of `.interruption(.ended, ...)` (`resumptionRecommendationNotification`).
        case resumptionRecommendation(ResumptionRecommendation)
        /// The route changed (`routeChangeNotification`).
        case routeChange(RouteChangeReason, previousRoute: RouteDescription)
        /// The sound server went away (`mediaServicesWereLostNotification`).
        case mediaServicesWereLost
        /// A sound server answers again; streams were rebuilt (`mediaServicesWereResetNotification`).
        case mediaServicesWereReset
    }

    /// A call the session refuses, with a message naming what is wrong. Value type, safe anywhere.
    public struct SessionError: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong.
        public var description: String
        /// An error saying `description`.
        public init(_ description: String) { self.description = description }
    }

    /// Posted for `.interruption` events; userInfo has `interruptionTypeKey` (UInt) and, on `.ended`,
    /// `interruptionOptionKey` (UInt).
    public static let interruptionNotification = Notification.Name("PlayheadAudioSessionInterruption")
    /// Posted with `.interruption(.ended)`; userInfo has `resumptionContextKey` (a `ResumptionRecommendation`).
    public static let resumptionRecommendationNotification = Notification.Name("PlayheadAudioSessionResumption")
    /// Posted for route changes; userInfo has `routeChangeReasonKey` (UInt) and `routeChangePreviousRouteKey`.
    public static let routeChangeNotification = Notification.Name("PlayheadAudioSessionRouteChange")
    /// Posted when the sound server went away.
    public static let mediaServicesWereLostNotification = Notification.Name("PlayheadAudioSessionMediaServicesLost")
    /// Posted when a sound server answers again and streams were rebuilt.
    public static let mediaServicesWereResetNotification = Notification.Name(
        "PlayheadAudioSessionMediaServicesReset")
    /// userInfo key: the `InterruptionType` raw value.
    public static let interruptionTypeKey = "AVAudioSessionInterruptionTypeKey"
    /// userInfo key: the `InterruptionOptions` raw value.
    public static let interruptionOptionKey = "AVAudioSessionInterruptionOptionKey"
    /// userInfo key: the `ResumptionRecommendation`.
    public static let resumptionContextKey = "AVAudioSessionResumptionContextKey"
    /// userInfo key: the `RouteChangeReason` raw value.
    public static let routeChangeReasonKey = "AVAudioSessionRouteChangeReasonKey"
    /// userInfo key: the previous `RouteDescription`.
    public static let routeChangePreviousRouteKey = "AVAudioSessionRouteChangePreviousRouteKey"
}
