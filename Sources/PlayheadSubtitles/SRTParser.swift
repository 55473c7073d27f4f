/// A SubRip (`.srt`) parser for the files found in the wild: UTF-8 or, failing that, Windows-1252 text; optional
/// index lines; `,` or `.` before the milliseconds (one to three digits, read as a decimal fraction); hours
/// optional; byte order mark; CR/LF/CRLF line ends; missing or extra blank lines; `X1:… X2:… Y1:… Y2:…` boxes
/// after the timings; and `{\anN}` position overrides. Cues come out in the same model as WebVTT's, with
/// `markup == .subRip`.
///
/// How cues are found: every line that parses as `start --> end` starts a cue; its text runs to the next such
/// line, less blank lines at either end and less the next cue's index line (a line of digits right before it).
///
/// Stateless: safe to use from any thread.
public enum SRTParser {
    /// Parses a SubRip file from its bytes (`[UInt8]`, `Data`...; UTF-8). Never fails: a file without timing lines
    /// gives no cues, and skipped text is reported in `SubtitleDocument.warnings`.
    public static func parse<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> SubtitleDocument {
        var input = SubtitleInput.normalize(bytes)
        var encodingWarning: SubtitleDiagnostic?
        if !SubtitleInput.isValidUTF8(input) {
            input = SubtitleInput.utf8FromWindows1252(input)
            encodingWarning = SubtitleDiagnostic(line: 1, message: "not UTF-8; read as Windows-1252")
        }
        var lines: [Range<Int>] = []
        var start = 0
        for index in input.indices where input[index] == ASCII.lineFeed {
            lines.append(start..<index)
            start = index + 1
        }
        if start < input.count { lines.append(start..<input.count) }

        var document = SubtitleDocument(format: .subRip)
        if let encodingWarning { document.warnings.append(encodingWarning) }
        var timingLines: [(line: Int, timing: Timing)] = []
        for (number, range) in lines.enumerated() {
            if let timing = parseTiming(input[range]) { timingLines.append((number, timing)) }
        }
        func isBlank(_ line: Int) -> Bool { input[lines[line]].allSatisfy(ASCII.isWhitespace) }
        func isIndex(_ line: Int) -> Bool {
            let text = input[lines[line]].trimmingWhitespace()
            return !text.isEmpty && text.allSatisfy(ASCII.isDigit)
        }
        let firstTiming = timingLines.first?.line ?? lines.count
        let preambleEnd = firstTiming > 0 && isIndex(firstTiming - 1) ? firstTiming - 1 : firstTiming
        if let junk = (0..<preambleEnd).first(where: { !isBlank($0) }) {
            document.warnings.append(SubtitleDiagnostic(line: junk + 1, message: "text before the first cue ignored"))
        }
        document.cues.reserveCapacity(timingLines.count)
        for (ordinal, entry) in timingLines.enumerated() {
            var end = ordinal + 1 < timingLines.count ? timingLines[ordinal + 1].line : lines.count
            if ordinal + 1 < timingLines.count, end - 1 > entry.line, isIndex(end - 1) { end -= 1 }
            var first = entry.line + 1
            while first < end, isBlank(first) { first += 1 }
            while end > first, isBlank(end - 1) { end -= 1 }
            let text = first < end ? input[lines[first].lowerBound..<lines[end - 1].upperBound] : []
            let id = entry.line > 0 && isIndex(entry.line - 1) ? input[lines[entry.line - 1]].trimmingWhitespace() : []
            var cue = SubtitleCue(
                id: id.string, startTime: entry.timing.start, endTime: entry.timing.end, text: text.string,
                markup: .subRip, displayBox: entry.timing.box, sourceLine: entry.line + 1)
            if let alignment = SRTCueTextParser.positionOverride(in: text) { cue.settings = alignment }
            if cue.endTime < cue.startTime {
                document.warnings.append(SubtitleDiagnostic(line: entry.line + 1, message: "cue ends before it starts"))
            }
            document.cues.append(cue)
        }
        return document
    }

    /// Parses a SubRip file held in a string.
    public static func parse(_ text: String) -> SubtitleDocument { parse(text.utf8) }

    struct Timing {
        var start: Double
        var end: Double
        var box: CueDisplayBox?
    }

    /// `start --> end [X1:n X2:n Y1:n Y2:n]`, whitespace allowed around each part.
    static func parseTiming(_ line: ArraySlice<UInt8>) -> Timing? {
        var index = line.startIndex
        WebVTTTimings.skipWhitespace(line, &index)
        guard let start = parseTimestamp(line, &index) else { return nil }
        WebVTTTimings.skipWhitespace(line, &index)
        guard index + 3 <= line.endIndex, line[index] == ASCII.hyphen, line[index + 1] == ASCII.hyphen,
            line[index + 2] == ASCII.greaterThan
        else { return nil }
        index += 3
        WebVTTTimings.skipWhitespace(line, &index)
        guard let end = parseTimestamp(line, &index) else { return nil }
        guard index == line.endIndex || ASCII.isWhitespace(line[index]) else { return nil }
        return Timing(start: start, end: end, box: parseBox(line[index...]))
    }

    /// `[h+:]m+:s+[,.]f{1,3}`; the fraction is decimal (`,5` is half a second).
    static func parseTimestamp(_ bytes: ArraySlice<UInt8>, _ index: inout Int) -> Double? {
        // Up to three colon-separated fields; the last two are minutes and seconds.
        var fields = (0.0, 0.0, 0.0)
        var count = 0
        while true {
            let (value, digits) = WebVTTTimings.collectDigits(bytes, &index)
            guard digits > 0 else { return nil }
            fields = (fields.1, fields.2, value)
            count += 1
            guard index < bytes.endIndex, bytes[index] == ASCII.colon, count < 3 else { break }
            index += 1
        }
        guard count >= 2, index < bytes.endIndex, bytes[index] == ASCII.comma || bytes[index] == ASCII.period
        else { return nil }
        index += 1
        let (fraction, digits) = WebVTTTimings.collectDigits(bytes, &index)
        guard digits >= 1, digits <= 3, fields.1 < 60, fields.2 < 60 else { return nil }
        let scale: Double = digits == 1 ? 10 : digits == 2 ? 100 : 1000
        return fields.0 * 3600 + fields.1 * 60 + fields.2 + fraction / scale
    }

    private static func parseBox(_ rest: ArraySlice<UInt8>) -> CueDisplayBox? {
        var values: [String: Int] = [:]
        for token in rest.splitOnWhitespace() {
            guard let (name, value) = token.splitSetting(), let number = Int(value.string) else { continue }
            values[name.string.uppercased()] = number
        }
        guard let x1 = values["X1"], let x2 = values["X2"], let y1 = values["Y1"], let y2 = values["Y2"] else {
            return nil
        }
        return CueDisplayBox(x1: x1, x2: x2, y1: y1, y2: y2)
    }
}

extension ArraySlice where Element == UInt8 {
    /// The bytes without leading and trailing ASCII whitespace.
    func trimmingWhitespace() -> ArraySlice<UInt8> {
        var start = startIndex
        var end = endIndex
        while start < end, ASCII.isWhitespace(self[start]) { start += 1 }
        while end > start, ASCII.isWhitespace(self[end - 1]) { end -= 1 }
        return self[start..<end]
    }
}
