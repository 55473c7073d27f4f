import CFFmpeg
import Foundation

/// A file's loudness correction (ReplayGain): how much to turn a track, or its whole album, up or down so that
/// songs play at one loudness, and the peaks that bound it. From FFmpeg where it reads it (the tags of FLAC, Vorbis
/// and MP3 files), else from the tags themselves (`REPLAYGAIN_*` in MP4 and Opus files, Opus's `R128_*`). A value
/// type, safe anywhere.
public struct ReplayGain: Sendable, Hashable {
    /// The track's gain in dB.
    public var trackGain: Double?
    /// The track's peak sample, 1 at full scale.
    public var trackPeak: Double?
    /// The album's gain in dB.
    public var albumGain: Double?
    /// The album's peak sample, 1 at full scale.
    public var albumPeak: Double?

    /// A correction of these gains and peaks.
    public init(trackGain: Double? = nil, trackPeak: Double? = nil, albumGain: Double? = nil, albumPeak: Double? = nil)
    {
        self.trackGain = trackGain
        self.trackPeak = trackPeak
        self.albumGain = albumGain
        self.albumPeak = albumPeak
    }

    /// The factor the samples are multiplied by: the album's gain (`album`, else the track's; the other when
    /// only it is known) plus `preamp` dB, as a linear factor, lowered so that the peak it goes with stays at full
    /// scale when that peak is known. Nil when the file has no gain.
    public func factor(album: Bool, preamp: Double = 0) -> Double? {
        let chosen =
            album
            ? (albumGain.map { ($0, albumPeak) } ?? trackGain.map { ($0, trackPeak) })
            : (trackGain.map { ($0, trackPeak) } ?? albumGain.map { ($0, albumPeak) })
        guard let (gain, peak) = chosen else { return nil }
        let factor = pow(10, (gain + preamp) / 20)
        guard let peak, peak > 0 else { return factor }
        return min(factor, 1 / peak)
    }

    /// The correction of `stream` of `c` (FFmpeg's), else the one `tags` (the input's, keys in lower case) hold;
    /// nil without either.
    static func read(_ stream: UnsafeMutablePointer<AVStream>?, tags: [String: String]) -> ReplayGain? {
        var (trackGain, albumGain) = (Int32.min, Int32.min)
        var (trackPeak, albumPeak) = (UInt32(0), UInt32(0))
        if let stream, ph_stream_replay_gain(stream, &trackGain, &trackPeak, &albumGain, &albumPeak) != 0 {
            let gain = { (g: Int32) in g == Int32.min ? nil : Double(g) / 100_000 }
            let peak = { (p: UInt32) in p == 0 ? nil : Double(p) / 100_000 }
            let found = ReplayGain(
                trackGain: gain(trackGain), trackPeak: peak(trackPeak), albumGain: gain(albumGain),
                albumPeak: peak(albumPeak))
            if found.trackGain != nil || found.albumGain != nil { return found }
        }
        return fromTags(tags)
    }

    /// The correction written as tags: `replaygain_track_gain` ("-6.02 dB"), `replaygain_track_peak` ("0.98"), the
    /// album's likewise; or Opus's `r128_track_gain` and `r128_album_gain` (Q7.8 dB toward -23 LUFS, 5 dB under
    /// ReplayGain's -18: 5 dB are added). Nil when no gain tag reads as a number.
    static func fromTags(_ tags: [String: String]) -> ReplayGain? {
        func number(_ key: String) -> Double? {
            guard let text = tags[key] else { return nil }
            let trimmed = text.lowercased().replacingOccurrences(of: "db", with: "")
                .trimmingCharacters(in: .whitespaces)
            guard let value = Double(trimmed), value.isFinite else { return nil }
            return value
        }
        func r128(_ key: String) -> Double? {
            guard let text = tags[key], let q78 = Int(text.trimmingCharacters(in: .whitespaces)),
                abs(q78) < 1 << 15
            else { return nil }
            return Double(q78) / 256 + 5
        }
        let gain = ReplayGain(
            trackGain: number("replaygain_track_gain") ?? r128("r128_track_gain"),
            trackPeak: number("replaygain_track_peak").flatMap { $0 > 0 ? $0 : nil },
            albumGain: number("replaygain_album_gain") ?? r128("r128_album_gain"),
            albumPeak: number("replaygain_album_peak").flatMap { $0 > 0 ? $0 : nil })
        // Gains beyond +-60 dB are no loudness correction a player should apply (a broken tag).
        guard let g = gain.trackGain ?? gain.albumGain, abs(g) <= 60 else { return nil }
        return gain
    }
}
