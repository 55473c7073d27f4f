import PlayheadFFmpeg
import PlayheadSubtitles

/// Turns the samples of a text track into cues: SubRip, WebVTT, MP4 timed text (`mov_text`) and ASS/SSA events
/// (their text, with line breaks and `{\anN}` alignment kept; other override tags dropped; the event itself kept
/// with the track's header for a window to draw with its styles). Bitmap subtitles (DVD, PGS) are not text and are
/// not read. A value type, safe on any thread.
struct TextCueReader: Sendable {
    let codec: String
    /// An ASS/SSA track's header (`StreamInfo.subtitleHeader`), which its cues carry in `SubtitleCue.assEvent`.
    let assHeader: String?
    /// The fonts the track's file attaches, shared by its cues' events.
    let assFonts: ASSFonts?

    /// A reader of `stream`'s samples.
    init(_ stream: StreamInfo) {
        codec = stream.codecName
        assHeader = stream.subtitleHeader
        assFonts = stream.subtitleFonts.isEmpty ? nil : ASSFonts(stream.subtitleFonts.map { ($0.name, $0.data) })
    }

    /// The text codecs a reader understands.
    static func supports(_ codecName: String) -> Bool {
        ["subrip", "srt", "webvtt", "mov_text", "ass", "ssa", "text"].contains(codecName)
    }

    /// The cue a sample carries, from `start` for `duration` seconds (a sample without a duration shows for 5 s
    /// at most); nil for an empty sample. A WebVTT cue's identifier and settings come beside its text (Matroska's
    /// WebVTT tracks: FFmpeg's packet side data); the settings are read by `PlayheadSubtitles`, as a file's are.
    func cue(_ packet: Packet, start: Double, duration: Double) -> SubtitleCue? {
        guard var cue = cue(payload: packet.payload, start: start, duration: duration) else { return nil }
        if codec == "webvtt" {
            cue.id = packet.webVTTIdentifier ?? ""
            if let settings = packet.webVTTSettings { cue.settings = CueSettings(webVTTSettings: settings) }
        }
        return cue
    }

    /// The cue of a sample's payload alone (its text), from `start` for `duration` seconds; nil for an empty one.
    func cue(payload: [UInt8], start: Double, duration: Double) -> SubtitleCue? {
        var bytes = payload[...]
        if codec == "mov_text" {
            // A 16-bit big-endian text length, then the text, then style boxes.
            guard bytes.count >= 2 else { return nil }
            let length = Int(bytes[bytes.startIndex]) << 8 | Int(bytes[bytes.startIndex + 1])
            bytes = bytes.dropFirst(2).prefix(length)
        }
        var text = String(decoding: bytes, as: UTF8.self)
        while text.last == "\0" || text.last == "\n" || text.last == "\r" { text.removeLast() }
        var event: ASSEvent?
        if codec == "ass" || codec == "ssa" {
            if let assHeader { event = ASSEvent(header: assHeader, sample: text, fonts: assFonts) }
            text = Self.assText(text)
        }
        text = text.replacingOccurrences(of: "\r\n", with: "\n")
        guard !text.isEmpty else { return nil }
        let end = start + (duration > 0 ? duration : 5)
        let markup: CueMarkup = codec == "webvtt" ? .webVTT : .subRip
        // SubRip's (and ASS's) `{\anN}` places the cue, as in a SubRip file read by `SRTParser`.
        let settings = markup == .subRip ? SRTCueTextParser.positionOverride(in: Array(text.utf8)[...]) : nil
        var cue = SubtitleCue(
            id: "", startTime: start, endTime: end, text: text, markup: markup, settings: settings ?? CueSettings())
        cue.assEvent = event
        return cue
    }

    /// The text of an ASS event ("ReadOrder,Layer,Style,Name,MarginL,MarginR,MarginV,Effect,Text" in Matroska,
    /// or a whole "Dialogue:" line): `\N` and `\n` become line breaks, `\h` a space, override blocks are dropped
    /// but an alignment `{\anN}` is kept (SubRip markup reads it).
    static func assText(_ event: String) -> String {
        var fields = event.hasPrefix("Dialogue:") ? 9 : 8
        var index = event.startIndex
        while fields > 0, let comma = event[index...].firstIndex(of: ",") {
            index = event.index(after: comma)
            fields -= 1
        }
        // Too few fields: no text (libass drops such an event too).
        guard fields == 0 else { return "" }
        var raw = String(event[index...])
        raw = raw.replacingOccurrences(of: "\\N", with: "\n").replacingOccurrences(of: "\\n", with: "\n")
        raw = raw.replacingOccurrences(of: "\\h", with: " ")
        var out = ""
        var rest = raw[...]
        // Between `{\p1}` (any scale but 0) and `{\p0}` the text is a vector drawing, not words.
        var drawing = false
        while let open = rest.firstIndex(of: "{") {
            if !drawing { out += rest[..<open] }
            guard let close = rest[open...].firstIndex(of: "}") else {
                rest = rest[open...]
                break
            }
            let block = rest[rest.index(after: open)..<close]
            if let an = block.range(of: #"\\an[1-9]"#, options: .regularExpression) {
                out += "{\(block[an])}"
            }
            if let p = block.range(of: #"\\p[0-9]+"#, options: .regularExpression) {
                drawing = block[p].dropFirst(2) != "0"
            }
            rest = rest[rest.index(after: close)...]
        }
        if !drawing { out += rest }
        return out
    }
}
