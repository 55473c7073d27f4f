import Foundation
import Playhead

/// Everything the MPRIS object answers, as one value: written on the main actor by the bridge, read by the bus
/// thread's property getters. Safe anywhere.
struct MPRISState: Sendable, Equatable {
    /// The `Metadata` map's fields.
    struct Metadata: Sendable, Equatable {
        var trackID = MPRISState.noTrack
        var lengthMicroseconds: Int64?
        var artURL: String?
        var title: String?
        var artists: [String] = []
        var album: String?
        var albumArtists: [String] = []
        var genres: [String] = []
        var trackNumber: Int32?
        var url: String?
        /// The sound and subtitles playing: the option's name and language (`playhead:audioTrack`, ...).
        var audioTrack: String?
        var audioLanguage: String?
        var subtitleTrack: String?
        var subtitleLanguage: String?
    }

    static let noTrack = "/org/mpris/MediaPlayer2/TrackList/NoTrack"

    // org.mpris.MediaPlayer2
    var identity = "Playhead"
    var desktopEntry = "playhead"
    var canQuit = false
    var canRaise = false
    var canSetFullscreen = false
    var fullscreen = false
    var hasTrackList = false
    var supportedURISchemes: [String] = []
    var supportedMIMETypes: [String] = []

    // org.mpris.MediaPlayer2.TrackList (a queue's items, each with its own `trackID`)
    var tracks: [Metadata] = []
    var canEditTracks = false

    // org.mpris.MediaPlayer2.Player
    var playbackStatus = "Stopped"
    var loopStatus = "None"
    var shuffle = false
    var rate = 1.0
    var volume = 1.0
    var minimumRate = 0.25
    var maximumRate = 4.0
    var metadata = Metadata()
    var canGoNext = false
    var canGoPrevious = false
    var canPlay = false
    var canPause = false
    var canSeek = false
    var canSetRate = false
    var canSetLoop = false
    var canSetShuffle = false
    var canSetVolume = false

    /// The elapsed seconds published at `stamp` (monotonic seconds), advancing at `positionRate` since: the
    /// item's own time line, ads included.
    var elapsed = 0.0
    var positionRate = 0.0
    var stamp = 0.0
    /// The item's duration, ads included (the published `mpris:length` leaves the ads out).
    var duration: Double?
    /// The ads, on the item's time line, sorted and not overlapping.
    var ads: [Range<Double>] = []

    /// The position on the item's time line now, extrapolated from the last publication and bounded by the
    /// duration.
    func position(at now: Double) -> Double {
        var p = max(0, elapsed + positionRate * (now - stamp))
        if let duration { p = min(p, duration) }
        return p
    }

    /// The position the desktop sees now (seconds): ads left out.
    func publishedPosition(at now: Double) -> Double { withoutAds(position(at: now)) }

    /// The `Position` property: microseconds, ads left out.
    func positionMicroseconds(at now: Double) -> Int64 { Int64((publishedPosition(at: now) * 1e6).rounded()) }

    /// The ad playing at `time` on the item's time line, if any.
    func ad(at time: Double) -> Range<Double>? { ads.first { $0.contains(time) } }

    /// `time` on the item's time line mapped to the published one: the ads before it (or the part of the one
    /// playing) taken out.
    func withoutAds(_ time: Double) -> Double {
        time - ads.reduce(0) { $0 + max(0, min(time, $1.upperBound) - $1.lowerBound) }
    }

    /// A published position mapped to the item's time line: the length of every ad that starts before it added.
    func withAds(_ published: Double) -> Double {
        var t = published
        for ad in ads where ad.lowerBound < t { t += ad.upperBound - ad.lowerBound }
        return t
    }

    /// The names of the `org.mpris.MediaPlayer2.Player` properties whose values differ from `old`'s.
    func changedPlayerProperties(from old: MPRISState) -> [String] {
        var names: [String] = []
        func check<T: Equatable>(_ name: String, _ path: KeyPath<MPRISState, T>) {
            if self[keyPath: path] != old[keyPath: path] { names.append(name) }
        }
        check("PlaybackStatus", \.playbackStatus)
        check("LoopStatus", \.loopStatus)
        check("Shuffle", \.shuffle)
        check("Rate", \.rate)
        check("Volume", \.volume)
        check("Metadata", \.metadata)
        check("MinimumRate", \.minimumRate)
        check("MaximumRate", \.maximumRate)
        check("CanGoNext", \.canGoNext)
        check("CanGoPrevious", \.canGoPrevious)
        check("CanPlay", \.canPlay)
        check("CanPause", \.canPause)
        check("CanSeek", \.canSeek)
        return names
    }

    /// The names of the `org.mpris.MediaPlayer2` properties whose values differ from `old`'s.
    func changedRootProperties(from old: MPRISState) -> [String] {
        var names: [String] = []
        if canQuit != old.canQuit { names.append("CanQuit") }
        if canRaise != old.canRaise { names.append("CanRaise") }
        if canSetFullscreen != old.canSetFullscreen { names.append("CanSetFullscreen") }
        if fullscreen != old.fullscreen { names.append("Fullscreen") }
        if hasTrackList != old.hasTrackList { names.append("HasTrackList") }
        if identity != old.identity { names.append("Identity") }
        if desktopEntry != old.desktopEntry { names.append("DesktopEntry") }
        if supportedURISchemes != old.supportedURISchemes { names.append("SupportedUriSchemes") }
        if supportedMIMETypes != old.supportedMIMETypes { names.append("SupportedMimeTypes") }
        return names
    }

    /// The names of the `org.mpris.MediaPlayer2.TrackList` properties whose values differ from `old`'s.
    func changedTrackListProperties(from old: MPRISState) -> [String] {
        var names: [String] = []
        if tracks.map(\.trackID) != old.tracks.map(\.trackID) { names.append("Tracks") }
        if canEditTracks != old.canEditTracks { names.append("CanEditTracks") }
        return names
    }
}

/// Writes artwork bytes once to a file under `$XDG_CACHE_HOME/playhead/artwork` (or `~/.cache`), named by a hash
/// of the bytes, and returns its `file://` URL. Safe from any thread.
enum ArtworkCache {
    static func fileURL(for bytes: [UInt8]) -> String? {
        guard !bytes.isEmpty else { return nil }
        let env = ProcessInfo.processInfo.environment
        let base =
            env["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: NSHomeDirectory()).appendingPathComponent(".cache")
        let dir = base.appendingPathComponent("playhead/artwork")
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { hash = (hash ^ UInt64(b)) &* 0x0100_0000_01b3 }
        let ext =
            bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) ? "png" : (bytes.starts(with: [0xFF, 0xD8]) ? "jpg" : "img")
        let file = dir.appendingPathComponent("\(String(hash, radix: 16))-\(bytes.count).\(ext)")
        if !FileManager.default.fileExists(atPath: file.path) {
            do {
                try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
                try Data(bytes).write(to: file, options: .atomic)
            } catch {
                return nil
            }
        }
        return file.absoluteString
    }
}
