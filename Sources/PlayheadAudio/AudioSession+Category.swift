extension AudioSession {
    /// The `media.role` streams get under `category` and `mode`. The default category, `.soloAmbient`, gives
    /// `music`: an app that never sets a category (most apps that just play media) is interrupted by calls, as
    /// every category is on iOS, and `module-role-cork` corks `music` and `video` streams for a `phone` one.
    /// `.ambient` (mixable background sound) gives `event`, which calls do not cork.
    public static func streamRole(category: Category, mode: Mode) -> String {
        switch (category, mode) {
        case (_, .voiceChat), (_, .videoChat): return "phone"
        case (.playback, .moviePlayback): return "video"
        case (.playback, _): return "music"
        case (.ambient, _): return "event"
        case (.soloAmbient, _): return "music"
        case (.playAndRecord, _), (.record, _): return "production"
        }
    }

    /// The stream properties (PulseAudio proplist keys) for `category` and `mode`: `media.role`, and
    /// `filter.want=echo-cancel` for calls. An empty value means the key is removed.
    static func streamProperties(category: Category, mode: Mode) -> [String: String] {
        let call = mode == .voiceChat || mode == .videoChat
        return ["media.role": streamRole(category: category, mode: mode), "filter.want": call ? "echo-cancel" : ""]
    }

    /// The properties for the current category and mode, for new streams.
    var currentStreamProperties: [String: String] {
        let (c, m) = state.withLock { ($0.category, $0.mode) }
        return Self.streamProperties(category: c, mode: m)
    }

    /// Throws for what `AVAudioSession` rejects: options and modes outside the categories they belong to.
    static func validate(_ category: Category, _ mode: Mode, _ options: CategoryOptions) throws(SessionError) {
        func reject(_ what: String, _ allowed: [Category]) throws(SessionError) {
            let names = allowed.map { ".\($0.rawValue)" }.joined(separator: " or ")
            throw SessionError("setCategory: \(what) needs the category \(names), not .\(category.rawValue)")
        }
        let mixing: [(CategoryOptions, String)] = [
            (.mixWithOthers, ".mixWithOthers"), (.duckOthers, ".duckOthers"),
            (.interruptSpokenAudioAndMixWithOthers, ".interruptSpokenAudioAndMixWithOthers"),
        ]
        for (option, name) in mixing where options.contains(option) {
            if category != .playback && category != .playAndRecord { try reject(name, [.playback, .playAndRecord]) }
        }
        if options.contains(.defaultToSpeaker), category != .playAndRecord {
            try reject(".defaultToSpeaker", [.playAndRecord])
        }
        if options.contains(.allowBluetoothHFP), category != .playAndRecord, category != .record {
            try reject(".allowBluetoothHFP", [.playAndRecord, .record])
        }
        switch mode {
        case .default: break
        case .moviePlayback: if category != .playback { try reject("the mode .moviePlayback", [.playback]) }
        case .spokenAudio:
            if category != .playback && category != .playAndRecord {
                try reject("the mode .spokenAudio", [.playback, .playAndRecord])
            }
        case .voiceChat, .videoChat:
            if category != .playAndRecord { try reject("the mode .\(mode.rawValue)", [.playAndRecord]) }
        }
    }
}
