import Foundation
import Playhead

/// The command line of `playhead`, parsed and validated before anything plays. Flags follow mpv's names.
struct Options {
    enum AudioOutputKind: Equatable {
        case auto, pulse, null
        case wav(String)
    }

    var inputs: [String] = []
    var audioOutput = AudioOutputKind.auto
    var audioDevice: String?
    var video = VideoOptions()
    var start: Double?
    var end: Double?
    var length: Double?
    var speed: Double = 1
    var volume: Double = 100
    var mute = false
    /// Extra plays of each file: 0 plays once; nil loops forever.
    var loopFile: Int? = 0
    var untimed = false
    var noAudio = false
    var noVideo = false
    var reallyQuiet = false
    var verbose = false
    var logJSON: String?
    var mpris = true
    var playlist = PlaylistOptions()
    var exclusiveAudio = false
    /// `--replaygain`: the loudness correction the items get.
    var replayGain = ReplayGainMode.off
    var listAudioDevices = false
    var hls = HLSOptions()
    var tracks = TrackOptions()
    var showHelp = false
    var showVersion = false

    struct UsageError: Error, CustomStringConvertible {
        var description: String
    }

    /// Parses `arguments` (without the program name).
    static func parse(_ arguments: [String]) throws(UsageError) -> Options {
        var o = Options()
        var onlyInputs = false
        for arg in arguments {
            if onlyInputs || !arg.hasPrefix("-") || arg == "-" {
                // An empty argument (an unset shell variable, "") is not the current folder.
                guard !arg.isEmpty else { throw UsageError(description: "an empty argument is not a file or URL") }
                o.inputs.append(arg)
                continue
            }
            if arg == "--" {
                onlyInputs = true
                continue
            }
            let (name, value) = split(arg)
            switch name {
            case "--help", "-h": o.showHelp = true
            case "--version", "-V": o.showVersion = true
            case "--ao":
                switch try need(name, value) {
                case "auto": o.audioOutput = .auto
                case "pulse": o.audioOutput = .pulse
                case "null": o.audioOutput = .null
                case let v where v.hasPrefix("wav:") && v.count > 4: o.audioOutput = .wav(String(v.dropFirst(4)))
                case let v:
                    throw UsageError(description: "--ao: unknown audio output '\(v)' (auto, pulse, null, wav:PATH)")
                }
            case "--start": o.start = try seconds(name, value)
            case "--end": o.end = try seconds(name, value)
            case "--length":
                let length = try seconds(name, value)
                guard length > 0 else { throw UsageError(description: "--length: must be more than 0") }
                o.length = length
            case "--speed":
                let s = try number(name, value)
                guard s >= 0.25 && s <= 4 else { throw UsageError(description: "--speed: must be between 0.25 and 4") }
                o.speed = s
            case "--volume":
                let v = try number(name, value)
                guard v >= 0 && v <= 100 else { throw UsageError(description: "--volume: must be between 0 and 100") }
                o.volume = v
            case "--mute": o.mute = value.map { $0 != "no" } ?? true
            case "--loop-file", "--loop":
                let v = value ?? "inf"
                if v == "inf" || v == "yes" {
                    o.loopFile = nil
                } else if v == "no" {
                    o.loopFile = 0
                } else if let n = Int(v), n >= 0 {
                    o.loopFile = n
                } else {
                    throw UsageError(description: "\(name): expected a count or 'inf', got '\(v)'")
                }
            case "--untimed": o.untimed = true
            case "--no-audio": o.noAudio = true
            case "--no-video": o.noVideo = true
            case "--really-quiet": o.reallyQuiet = true
            case "-v", "--verbose": o.verbose = true
            case "--log-json": o.logJSON = try need(name, value)
            case "--no-mpris": o.mpris = false
            case _ where try parsePlaylistOption(name, value, into: &o): break
            case _ where try o.parseAudioOption(name, value): break
            case _ where try o.hls.parse(name, value): break
            case _ where try o.tracks.parse(name, value): break
            case _ where try o.video.parse(name, value): break
            default: throw UsageError(description: "unknown option '\(name)' (see --help)")
            }
        }
        if !o.showHelp && !o.showVersion && !o.listAudioDevices && o.inputs.isEmpty {
            throw UsageError(description: "no file or URL to play (see --help)")
        }
        if o.length == nil, let end = o.end, end <= o.start ?? 0 {
            throw UsageError(description: "--end: it must come after --start (\(end) s is not after \(o.start ?? 0) s)")
        }
        return o
    }

    /// The time to stop at, from `--end` or `--start` + `--length`.
    var stopTime: Double? {
        if let length { return (start ?? 0) + length }
        return end
    }

    private static func split(_ arg: String) -> (String, String?) {
        guard let eq = arg.firstIndex(of: "=") else { return (arg, nil) }
        return (String(arg[..<eq]), String(arg[arg.index(after: eq)...]))
    }

    static func need(_ name: String, _ value: String?) throws(UsageError) -> String {
        guard let value, !value.isEmpty else { throw UsageError(description: "\(name): needs a value (\(name)=...)") }
        return value
    }

    private static func number(_ name: String, _ value: String?) throws(UsageError) -> Double {
        let v = try need(name, value)
        guard let d = decimal(v), d.isFinite else { throw UsageError(description: "\(name): '\(v)' is not a number") }
        return d
    }

    /// `text` as a decimal number (digits, a point, a sign, an exponent: `1.5`, `-3`, `2e6`); nil for anything
    /// else, including what `Double(_:)` also reads (`0x1p3`, `inf`, `nan`). Pure.
    static func decimal<S: StringProtocol>(_ text: S) -> Double? {
        guard !text.isEmpty, text.allSatisfy({ "0123456789.eE+-".contains($0) }) else { return nil }
        return Double(text)
    }

    /// The largest time `--start`, `--end` and `--length` take (about 31 years): beyond it the engine's integer
    /// time stamps would overflow.
    static let maximumSeconds = 1e9

    /// Seconds, as a number or `[[hh:]mm:]ss[.fff]` (minutes and seconds after a colon under 60, hours and
    /// minutes whole), from 0 to `maximumSeconds`.
    private static func seconds(_ name: String, _ value: String?) throws(UsageError) -> Double {
        let v = try need(name, value)
        let parts = v.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 3 else { throw UsageError(description: "\(name): '\(v)' is not a time ([[hh:]mm:]ss)") }
        var total = 0.0
        for (i, part) in parts.enumerated() {
            guard let d = decimal(part), d.isFinite else {
                throw UsageError(description: "\(name): '\(v)' is not a time")
            }
            guard d >= 0, !part.hasPrefix("-") else {
                throw UsageError(description: "\(name): '\(v)' is negative: a time is from 0 on")
            }
            let whole = i == parts.count - 1 || d == d.rounded(.towardZero)
            guard whole, i == 0 || d < 60 else {
                throw UsageError(
                    description:
                        "\(name): '\(v)' is not a time ([[hh:]mm:]ss: hours and minutes whole, minutes and seconds "
                        + "under 60)")
            }
            total = total * 60 + d
        }
        guard total <= maximumSeconds else {
            throw UsageError(description: "\(name): '\(v)' is out of range (0 to \(Int(maximumSeconds)) seconds)")
        }
        return total
    }

    static let help = """
        Usage: playhead [options] FILE|FOLDER|URL...
               playhead probe [--json] [--strict] FILE|URL

        Plays local files, folders, http(s) URLs, HLS streams and playlists (M3U, PLS) as one gapless queue.
        probe: what an HLS playlist or a media file holds (tracks, tags), without playing it.

        Options:
          --ao=auto|pulse|null|wav:PATH  audio output (auto: PulseAudio, else silent)
          --audio-device=NAME            PulseAudio sink to play on (help: list them)
          --exclusive-audio              pause other MPRIS players while playing, resume them after
          --replaygain=no|track|album    play at the loudness the files' ReplayGain tags give (the track's or
                                         the album's gain, lowered where the peak would clip; default: no)
        \(VideoOptions.help)
          --start=SECONDS                start position ([[hh:]mm:]ss also accepted)
          --end=SECONDS                  stop at this position
          --length=SECONDS               stop after playing this long from the start
          --speed=X                      playback speed, 0.25 to 4, pitch kept
          --volume=0..100                volume of this player
          --mute                         start muted
          --loop-file=N|inf              play each file N more times (inf: forever)
          --loop-playlist=N|inf          play the whole list N more times (inf: forever)
          --shuffle                      play the entries in random order
          --playlist-start=N             start at entry N (from 0, in the order given)
          --no-resume                    start from the beginning, not where a long item was left
          --untimed                      do not pace: decode as fast as possible
          --no-audio, --no-video         ignore the audio or video track
        \(TrackOptions.help)
          --really-quiet                 print nothing but errors
          --log-json=PATH                write one JSON object per engine event to PATH
          --no-mpris                     do not export Now Playing and remote control over MPRIS (D-Bus)
          -v, --verbose                  show FFmpeg's own warnings
        \(HLSOptions.help)
          --help, --version

        Keys (in a terminal or the window; f and a double click: fullscreen in the window):
          space, p   pause / play          left/right  seek -5 s / +5 s
          up/down    seek +60 s / -60 s    [ / ]       speed down / up
          PgDn/PgUp  next / previous chapter (back to the chapter's start when more than 5 s in)
          . / ,      pause and show the next / previous picture
          z / x      subtitles 0.1 s earlier / later
          l          A-B loop: set A, then B (the part between plays again and again), then off
          9 / 0      volume down / up      m           mute
          #          next sound track (or HLS audio rendition)
          j          next subtitle track (after the last: none)   v  subtitles shown / hidden
          s          save the picture as playhead-shotNNNN.png in the current folder
          i          Picture in Picture: a small window above the others, and back
          > / Enter  next entry            < / Backspace  previous (restarts the entry after 3 s)
          q          quit (a long unfinished item resumes there next time)

        Exit status: 0 when every input played to its end (or you quit), 1 when an input failed,
        2 for a usage error.
        """
}

extension Options {
    /// The paths given relative (inputs, `--sub-file`, `--log-json`, `--ao=wav:`) made relative to `folder`: the
    /// working folder when its name is not UTF-8 (`CommandLineBytes.workingFolderByBytes`).
    mutating func rebase(on folder: String) {
        func rebased(_ path: String) -> String {
            path.hasPrefix("/") || path.contains("://") || path == "-" ? path : folder + "/" + path
        }
        inputs = inputs.map(rebased)
        tracks.subtitleFiles = tracks.subtitleFiles.map(rebased)
        logJSON = logJSON.map(rebased)
        if case .wav(let path) = audioOutput { audioOutput = .wav(rebased(path)) }
    }
}
