/// The WebVTT timestamp grammar and the cue timings-and-settings line (W3C WebVTT §6.3).
enum WebVTTTimings {
    /// The WebVTT "collect a WebVTT timestamp" algorithm: `[hours:]minutes:seconds.mmm`, where minutes and seconds
    /// have two digits (at most 59), milliseconds three, and hours any number of digits (a first field that is not
    /// two digits, or is above 59, is hours). Advances `index` past the timestamp; returns seconds, or `nil` on failure.
    static func collectTimestamp(_ bytes: ArraySlice<UInt8>, _ index: inout Int) -> Double? {
        let end = bytes.endIndex
        guard index < end, ASCII.isDigit(bytes[index]) else { return nil }
        var unitsAreHours = false
        let (hoursOrMinutes, digits1) = collectDigits(bytes, &index)
        var value1 = hoursOrMinutes
        if digits1 != 2 || hoursOrMinutes > 59 { unitsAreHours = true }
        guard index < end, bytes[index] == ASCII.colon else { return nil }
        index += 1
        let (value2Digits, digits2) = collectDigits(bytes, &index)
        guard digits2 == 2 else { return nil }
        var value2 = value2Digits
        var value3: Double
        if unitsAreHours || (index < end && bytes[index] == ASCII.colon) {
            guard index < end, bytes[index] == ASCII.colon else { return nil }
            index += 1
            let digits3: Int
            (value3, digits3) = collectDigits(bytes, &index)
            guard digits3 == 2 else { return nil }
        } else {
            value3 = value2
            value2 = value1
            value1 = 0
        }
        guard index < end, bytes[index] == ASCII.period else { return nil }
        index += 1
        let (value4, digits4) = collectDigits(bytes, &index)
        guard digits4 == 3, value2 <= 59, value3 <= 59 else { return nil }
        return value1 * 3600 + value2 * 60 + value3 + value4 / 1000
    }

    /// Collects ASCII digits; the value is a `Double` so that any number of hour digits parses without overflow.
    @inline(__always)
    static func collectDigits(_ bytes: ArraySlice<UInt8>, _ index: inout Int) -> (value: Double, count: Int) {
        let start = index
        var value: Double = 0
        while index < bytes.endIndex, ASCII.isDigit(bytes[index]) {
            value = value * 10 + Double(bytes[index] &- ASCII.zero)
            index += 1
        }
        return (value, index - start)
    }

    /// The WebVTT "collect WebVTT cue timings and settings" algorithm. Returns `nil` when the timings are invalid;
    /// invalid settings are skipped, as the specification says.
    static func parseTimingLine(
        _ line: ArraySlice<UInt8>, regions: [WebVTTRegion]
    ) -> (start: Double, end: Double, settings: CueSettings)? {
        var index = line.startIndex
        skipWhitespace(line, &index)
        guard let start = collectTimestamp(line, &index) else { return nil }
        skipWhitespace(line, &index)
        guard index + 3 <= line.endIndex, line[index] == ASCII.hyphen, line[index + 1] == ASCII.hyphen,
            line[index + 2] == ASCII.greaterThan
        else { return nil }
        index += 3
        skipWhitespace(line, &index)
        guard let end = collectTimestamp(line, &index) else { return nil }
        var settings = CueSettings()
        if index < line.endIndex { settings.apply(line[index...], regions: regions) }
        return (start, end, settings)
    }

    @inline(__always) static func skipWhitespace(_ bytes: ArraySlice<UInt8>, _ index: inout Int) {
        while index < bytes.endIndex, ASCII.isWhitespace(bytes[index]) { index += 1 }
    }
}

extension CueSettings {
    /// The settings written after a WebVTT cue's timings ("line:0 position:20% align:start"), read as a WebVTT
    /// file's are (§6.3: a setting whose value is invalid changes nothing; `region:` names one of `regions`, else
    /// none): for cues that arrive apart from a file, such as a container's WebVTT track, where the settings travel
    /// beside the cue text. A value type; any thread.
    public init(webVTTSettings text: some StringProtocol, regions: [WebVTTRegion] = []) {
        self.init()
        apply(Array(text.utf8)[...], regions: regions)
    }

    /// The WebVTT "parse the WebVTT cue settings" algorithm (§6.3): each `name:value` token in turn; a token whose
    /// value is invalid changes nothing.
    mutating func apply(_ text: ArraySlice<UInt8>, regions: [WebVTTRegion]) {
        for setting in text.splitOnWhitespace() {
            guard let (name, value) = setting.splitSetting() else { continue }
            if name.equals("region") {
                region = regions.last { $0.id.utf8.elementsEqual(value) }
            } else if name.equals("vertical") {
                if value.equals("rl") {
                    vertical = .verticalGrowingLeft
                } else if value.equals("lr") {
                    vertical = .verticalGrowingRight
                }
            } else if name.equals("line") {
                applyLine(value)
            } else if name.equals("position") {
                applyPosition(value)
            } else if name.equals("size") {
                if let percentage = value.parseWebVTTPercentage() { size = percentage }
            } else if name.equals("align") {
                if let alignment = TextAlignment(rawValue: value.string) { align = alignment }
            }
        }
    }

    private mutating func applyLine(_ value: ArraySlice<UInt8>) {
        let (linePosition, alignText) = value.splitAtFirstComma()
        guard linePosition.contains(where: ASCII.isDigit) else { return }
        let number: Double
        let snaps: Bool
        if linePosition.last == ASCII.percent {
            guard let percentage = linePosition.parseWebVTTPercentage() else { return }
            number = percentage
            snaps = false
        } else {
            guard let real = Self.parseLineNumber(linePosition) else { return }
            number = real
            snaps = true
        }
        var alignment: LineAlignment?
        if let alignText {
            guard let parsed = LineAlignment(rawValue: alignText.string) else { return }
            alignment = parsed
        }
        line = number
        snapToLines = snaps
        if let alignment { lineAlign = alignment }
    }

    /// A line number: `-`? digits with at most one `.` that has a digit on both sides.
    private static func parseLineNumber(_ text: ArraySlice<UInt8>) -> Double? {
        var periods = 0
        for index in text.indices {
            let byte = text[index]
            if byte == ASCII.hyphen {
                guard index == text.startIndex else { return nil }
            } else if byte == ASCII.period {
                periods += 1
                guard periods == 1, index > text.startIndex, index + 1 < text.endIndex,
                    ASCII.isDigit(text[index - 1]), ASCII.isDigit(text[index + 1])
                else { return nil }
            } else if !ASCII.isDigit(byte) {
                return nil
            }
        }
        // A number too large for a Double (a JavaScript number) is rejected, as browsers do.
        guard let number = Double(text.string), number.isFinite else { return nil }
        return number
    }

    private mutating func applyPosition(_ value: ArraySlice<UInt8>) {
        let (positionText, alignText) = value.splitAtFirstComma()
        guard let number = positionText.parseWebVTTPercentage() else { return }
        var alignment: PositionAlignment?
        if let alignText {
            guard let parsed = PositionAlignment(rawValue: alignText.string), parsed != .auto else { return }
            alignment = parsed
        }
        position = number
        if let alignment { positionAlign = alignment }
    }
}
