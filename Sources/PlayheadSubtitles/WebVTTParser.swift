/// A WebVTT parser that follows the W3C WebVTT file-parsing algorithm (WebVTT §6.1, "WebVTT parser algorithm";
/// §6.2, "collect a WebVTT block"): signature and header, cues with identifiers, timings and settings, `REGION` and
/// `STYLE` blocks before the first cue, `NOTE` blocks, and the HLS `X-TIMESTAMP-MAP` header. Cue text is kept raw;
/// `SubtitleCue.parsedText` parses it into a tree.
///
/// Stateless: safe to use from any thread.
public enum WebVTTParser {
    /// Parses a WebVTT file from its bytes (`[UInt8]`, `Data`...: UTF-8, with or without a byte order mark).
    /// - Throws: `SubtitleParseError` when the file does not start with the `WEBVTT` signature, the one failure
    ///   the algorithm has; everything else is skipped and reported in `SubtitleDocument.warnings`.
    public static func parse<Bytes: Collection<UInt8>>(_ bytes: Bytes) throws(SubtitleParseError) -> SubtitleDocument {
        var reader = WebVTTBlockReader(bytes: SubtitleInput.normalize(bytes))
        return try reader.read()
    }

    /// Parses a WebVTT file held in a string.
    public static func parse(_ text: String) throws(SubtitleParseError) -> SubtitleDocument {
        try parse(text.utf8)
    }
}

/// The state of one run of the WebVTT parser algorithm over normalized bytes (every line ends in LF or EOF).
struct WebVTTBlockReader {
    let bytes: [UInt8]
    private var position = 0
    /// The 1-based number of the line that starts at `position`.
    private var lineNumber = 1
    private var seenCue = false
    private var document = SubtitleDocument(format: .webVTT)

    init(bytes: [UInt8]) {
        self.bytes = bytes
        // Typical cues take 60 to 100 bytes; reserving avoids most regrowth copies of the cue array.
        document.cues.reserveCapacity(bytes.count / 96)
    }

    mutating func read() throws(SubtitleParseError) -> SubtitleDocument {
        let count = bytes.count
        guard count >= 6, bytes[0..<6].equals("WEBVTT"),
            count == 6 || bytes[6] == ASCII.space || bytes[6] == ASCII.tab || bytes[6] == ASCII.lineFeed
        else {
            throw SubtitleParseError(line: 1, message: "missing the WEBVTT signature at the start of the file")
        }
        position = endOfLine(from: 6)
        if position >= count { return document }
        advanceLine()
        if position < count, bytes[position] != ASCII.lineFeed {
            collectBlock(inHeader: true)
        } else if position < count {
            advanceLine()
        }
        skipLineFeeds()
        while position < count {
            collectBlock(inHeader: false)
            skipLineFeeds()
        }
        return document
    }

    private func endOfLine(from start: Int) -> Int {
        bytes.withUnsafeBufferPointer { buffer in
            var index = start
            while index < buffer.count, buffer[index] != ASCII.lineFeed { index += 1 }
            return index
        }
    }

    private mutating func advanceLine() {
        position += 1
        lineNumber += 1
    }

    private mutating func skipLineFeeds() {
        while position < bytes.count, bytes[position] == ASCII.lineFeed { advanceLine() }
    }

    private static func containsArrow(_ line: ArraySlice<UInt8>) -> Bool {
        var index = line.startIndex
        while index + 2 < line.endIndex {
            if line[index] == ASCII.hyphen, line[index + 1] == ASCII.hyphen, line[index + 2] == ASCII.greaterThan {
                return true
            }
            index += 1
        }
        return false
    }

    /// `STYLE` or `REGION` followed only by spaces and tabs.
    private static func isBlockKeyword(_ text: ArraySlice<UInt8>, _ keyword: StaticString) -> Bool {
        guard text.hasPrefix(keyword) else { return false }
        return text.dropFirst(keyword.utf8CodeUnitCount).allSatisfy { $0 == ASCII.space || $0 == ASCII.tab }
    }

    private enum BlockKind { case none, styleSheet, region }

    /// The WebVTT "collect a WebVTT block" algorithm. The buffer is a run of consecutive lines, so it is kept as a
    /// byte range of the input. (One exception: when a second line with `-->` has invalid timings, the algorithm's
    /// buffer skips that line and this range does not; the block is then no cue, style sheet or region, so only the
    /// text of a `NOTE` block can differ, by keeping that line.)
    private mutating func collectBlock(inHeader: Bool) {
        let blockLine = lineNumber
        var lineCount = 0
        var previousPosition = position
        var previousLineNumber = lineNumber
        var buffer: Range<Int>?
        var seenArrow = false
        var cue: SubtitleCue?
        var kind = BlockKind.none
        var warned = false
        while true {
            let lineStart = position
            let currentLine = lineNumber
            let lineEnd = endOfLine(from: position)
            let line = bytes[lineStart..<lineEnd]
            position = lineEnd
            lineCount += 1
            let seenEOF = position >= bytes.count
            if !seenEOF { advanceLine() }
            if Self.containsArrow(line) {
                guard !inHeader, lineCount == 1 || (lineCount == 2 && !seenArrow) else {
                    position = previousPosition
                    lineNumber = previousLineNumber
                    break
                }
                seenArrow = true
                previousPosition = position
                previousLineNumber = lineNumber
                let id = buffer.map { bytes[$0].string } ?? ""
                if let timings = WebVTTTimings.parseTimingLine(line, regions: document.regions) {
                    cue = SubtitleCue(
                        id: id, startTime: timings.start, endTime: timings.end, text: "", settings: timings.settings,
                        sourceLine: currentLine)
                    buffer = nil
                    seenCue = true
                } else {
                    cue = nil
                    warn(currentLine, "cue timings are invalid; the cue is dropped")
                }
            } else if line.isEmpty {
                break
            } else {
                if !inHeader, lineCount == 2, let first = buffer {
                    if Self.isBlockKeyword(bytes[first], "STYLE") {
                        if seenCue {
                            warn(blockLine, "STYLE block after the first cue is ignored")
                            warned = true
                        } else {
                            kind = .styleSheet
                            buffer = nil
                        }
                    } else if Self.isBlockKeyword(bytes[first], "REGION") {
                        if seenCue {
                            warn(blockLine, "REGION block after the first cue is ignored")
                            warned = true
                        } else {
                            kind = .region
                            buffer = nil
                        }
                    }
                }
                buffer = (buffer?.lowerBound ?? lineStart)..<lineEnd
                previousPosition = position
                previousLineNumber = lineNumber
            }
            if seenEOF { break }
        }
        let text = buffer.map { bytes[$0] } ?? []
        if inHeader {
            finishHeader(text, firstLine: blockLine)
        } else if var cue {
            cue.text = text.string
            document.cues.append(cue)
        } else if kind == .styleSheet {
            document.styleSheets.append(text.string)
        } else if kind == .region {
            var region = WebVTTRegion()
            region.sourceLine = blockLine
            region.applySettings(text)
            document.regions.append(region)
        } else if text.hasPrefix("NOTE"), text.count == 4 || ASCII.isWhitespace(text[text.startIndex + 4]) {
            document.notes.append(text.string)
        } else if !seenArrow, !warned {
            warn(blockLine, "block is neither a cue, a region, a style sheet nor a note; it is ignored")
        }
    }

    private mutating func finishHeader(_ text: ArraySlice<UInt8>, firstLine: Int) {
        guard !text.isEmpty else { return }
        var start = text.startIndex
        var headerLine = firstLine
        while start <= text.endIndex {
            let end = text[start...].firstIndex(of: ASCII.lineFeed) ?? text.endIndex
            let line = bytes[start..<end].string
            document.headerLines.append(line)
            if line.hasPrefix("X-TIMESTAMP-MAP=") {
                if let map = WebVTTTimestampMap(headerLine: line) {
                    document.timestampMap = map
                } else {
                    warn(headerLine, "X-TIMESTAMP-MAP header is invalid")
                }
            }
            start = end + 1
            headerLine += 1
        }
    }

    private mutating func warn(_ line: Int, _ message: String) {
        document.warnings.append(SubtitleDiagnostic(line: line, message: message))
    }
}
