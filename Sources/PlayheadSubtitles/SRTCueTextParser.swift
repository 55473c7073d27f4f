/// SubRip cue text into the shared `CueText` tree: `<i>`, `<b>`, `<u>` and `<font color=… face=… size=…>` (tag
/// names case-insensitive), closed by their end tags in any nesting; ASS-style override groups such as `{\an8}`
/// are removed from the text. Anything else that looks like a tag (`<3`, `<unknown>`) stays as literal text.
///
/// Stateless: safe to use from any thread.
public enum SRTCueTextParser {
    /// Tags and override groups longer than this are literal text (it bounds the work on malformed input).
    static let maximumTagLength = 512

    /// Parses SubRip cue text. Never fails.
    public static func parse(_ text: String) -> CueText {
        let bytes = ArraySlice(text.utf8)
        var root: [CueNode] = []
        var open: [CueSpan] = []
        var pending: [UInt8] = []
        func flush() {
            guard !pending.isEmpty else { return }
            let node = CueNode.text(String(decoding: pending, as: UTF8.self))
            if open.isEmpty { root.append(node) } else { open[open.count - 1].children.append(node) }
            pending.removeAll(keepingCapacity: true)
        }
        func close() {
            let span = open.removeLast()
            if open.isEmpty { root.append(.span(span)) } else { open[open.count - 1].children.append(.span(span)) }
        }
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == 0x7B, index + 1 < bytes.endIndex, bytes[index + 1] == 0x5C,
                let close = bytes[index..<min(index + maximumTagLength, bytes.endIndex)].firstIndex(of: 0x7D)
            {
                index = close + 1  // `{\...}` override group
                continue
            }
            if byte == ASCII.lessThan, let tag = Tag(bytes, at: index) {
                flush()
                if tag.isEnd {
                    if let match = open.lastIndex(where: { $0.kind.tagName == tag.kind.tagName }) {
                        while open.count > match { close() }
                    }
                } else {
                    open.append(CueSpan(kind: tag.kind))
                }
                index = tag.end
                continue
            }
            pending.append(byte)
            index += 1
        }
        flush()
        while !open.isEmpty { close() }
        return CueText(nodes: root)
    }

    /// The settings an `{\anN}` override (numeric keypad layout: 7 8 9 top, 1 2 3 bottom) implies, if the text
    /// has one. Any thread.
    public static func positionOverride(in text: ArraySlice<UInt8>) -> CueSettings? {
        var index = text.startIndex
        while index + 4 < text.endIndex {
            if text[index] == 0x5C, text[index + 1] | 0x20 == 0x61, text[index + 2] | 0x20 == 0x6E,
                text[index + 3] &- 0x31 < 9, index > text.startIndex, text[index - 1] == 0x7B
            {
                let key = Int(text[index + 3] &- 0x30)
                var settings = CueSettings()
                switch (key - 1) / 3 {
                case 2:
                    settings.line = 0
                case 1:
                    settings.line = 50
                    settings.snapToLines = false
                    settings.lineAlign = .center
                default:
                    break
                }
                settings.align = [TextAlignment.left, .center, .right][(key - 1) % 3]
                return settings
            }
            index += 1
        }
        return nil
    }

    /// A recognised tag starting at a `<`.
    private struct Tag {
        var kind: CueSpanKind
        var isEnd: Bool
        var end: Int

        init?(_ bytes: ArraySlice<UInt8>, at start: Int) {
            let window = bytes[start..<min(start + maximumTagLength, bytes.endIndex)]
            guard let close = window.firstIndex(of: ASCII.greaterThan) else { return nil }
            var body = bytes[(start + 1)..<close]
            isEnd = body.first == ASCII.slash
            if isEnd { body = body.dropFirst() }
            var nameEnd = body.startIndex
            while nameEnd < body.endIndex, ASCII.isAlphanumeric(body[nameEnd]) { nameEnd += 1 }
            let name = body[body.startIndex..<nameEnd].string.lowercased()
            let rest = body[nameEnd...]
            guard rest.isEmpty || ASCII.isWhitespace(rest[rest.startIndex]) else { return nil }
            switch name {
            case "i": kind = .italic
            case "b": kind = .bold
            case "u": kind = .underline
            case "font":
                let attributes = isEnd ? [:] : Self.attributes(rest)
                kind = .font(color: attributes["color"], face: attributes["face"], size: attributes["size"])
            default: return nil
            }
            end = close + 1
        }

        /// `name=value`, `name="value"` or `name='value'` pairs; names lowercased.
        static func attributes(_ text: ArraySlice<UInt8>) -> [String: String] {
            var result: [String: String] = [:]
            var index = text.startIndex
            while index < text.endIndex {
                while index < text.endIndex, ASCII.isWhitespace(text[index]) { index += 1 }
                let nameStart = index
                while index < text.endIndex, text[index] != 0x3D, !ASCII.isWhitespace(text[index]) { index += 1 }
                let name = text[nameStart..<index].string.lowercased()
                guard index < text.endIndex, text[index] == 0x3D else { continue }
                index += 1
                var valueStart = index
                var valueEnd: Int
                if index < text.endIndex, text[index] == 0x22 || text[index] == 0x27 {
                    let quote = text[index]
                    valueStart = index + 1
                    valueEnd = valueStart
                    while valueEnd < text.endIndex, text[valueEnd] != quote { valueEnd += 1 }
                    index = min(valueEnd + 1, text.endIndex)
                } else {
                    valueEnd = index
                    while valueEnd < text.endIndex, !ASCII.isWhitespace(text[valueEnd]) { valueEnd += 1 }
                    index = valueEnd
                }
                if !name.isEmpty { result[name] = text[valueStart..<valueEnd].string }
            }
            return result
        }
    }
}
