/// The WebVTT cue text parsing rules (W3C WebVTT §6.5): the cue text tokenizer (data, tag, start tag, class,
/// annotation, end tag and timestamp states, with HTML character references) and the tree construction that
/// matches end tags to open elements.
///
/// Stateless: safe to use from any thread.
public enum WebVTTCueTextParser {
    /// Parses WebVTT cue text into a tree. Never fails: unknown or misplaced tags are ignored, as the rules say.
    public static func parse(_ text: String) -> CueText {
        var builder = CueTreeBuilder()
        var tokenizer = Tokenizer(bytes: ArraySlice(text.utf8))
        while let token = tokenizer.next() {
            builder.handle(token)
        }
        return builder.finish()
    }

    enum Token {
        case text(String)
        case startTag(name: ArraySlice<UInt8>, classes: [String], annotation: String)
        case endTag(name: ArraySlice<UInt8>)
        case timestamp(ArraySlice<UInt8>)
    }

    /// The WebVTT cue text tokenizer.
    struct Tokenizer {
        let bytes: ArraySlice<UInt8>
        var index: Int

        init(bytes: ArraySlice<UInt8>) {
            self.bytes = bytes
            self.index = bytes.startIndex
        }

        mutating func next() -> Token? {
            guard index < bytes.endIndex else { return nil }
            if bytes[index] == ASCII.lessThan {
                index += 1
                return tag()
            }
            return text()
        }

        /// The data state: text up to the next `<`, with character references resolved.
        private mutating func text() -> Token {
            var result: [UInt8] = []
            var runStart = index
            while index < bytes.endIndex, bytes[index] != ASCII.lessThan {
                if bytes[index] == ASCII.ampersand {
                    result.append(contentsOf: bytes[runStart..<index])
                    index += 1
                    if let replacement = HTMLCharacterReference.consume(bytes, &index, inAttribute: false) {
                        result.append(contentsOf: replacement.utf8)
                    } else {
                        result.append(ASCII.ampersand)
                    }
                    runStart = index
                } else {
                    index += 1
                }
            }
            if result.isEmpty { return .text(bytes[runStart..<index].string) }
            result.append(contentsOf: bytes[runStart..<index])
            return .text(String(decoding: result, as: UTF8.self))
        }

        /// The tag, start tag, start tag class and start tag annotation, end tag and timestamp tag states, from
        /// just after a `<`.
        private mutating func tag() -> Token {
            let end = bytes.endIndex
            guard index < end else { return .startTag(name: [], classes: [], annotation: "") }
            let first = bytes[index]
            if first == ASCII.slash {
                index += 1
                return .endTag(name: collectUntilGreaterThan())
            }
            if ASCII.isDigit(first) {
                return .timestamp(collectUntilGreaterThan())
            }
            // Tag name: up to whitespace, '.', '>' (tag state and start tag state).
            let nameStart = index
            while index < end {
                let byte = bytes[index]
                if byte == ASCII.period || byte == ASCII.greaterThan || byte == ASCII.space || byte == ASCII.tab
                    || byte == ASCII.lineFeed || byte == ASCII.formFeed
                {
                    break
                }
                index += 1
            }
            let name = bytes[nameStart..<index]
            var classes: [String] = []
            // Start tag class state: '.'-separated classes up to whitespace or '>'.
            while index < end, bytes[index] == ASCII.period {
                index += 1
                let classStart = index
                while index < end {
                    let byte = bytes[index]
                    if byte == ASCII.period || byte == ASCII.greaterThan || byte == ASCII.space || byte == ASCII.tab
                        || byte == ASCII.lineFeed || byte == ASCII.formFeed
                    {
                        break
                    }
                    index += 1
                }
                if classStart < index { classes.append(bytes[classStart..<index].string) }
            }
            if index < end, bytes[index] == ASCII.greaterThan {
                index += 1
                return .startTag(name: name, classes: classes, annotation: "")
            }
            // Start tag annotation state, after the whitespace that ended the name or a class (the specification
            // keeps a line feed there in the buffer, which the whitespace collapsing then strips).
            if index < end { index += 1 }
            return .startTag(name: name, classes: classes, annotation: annotation())
        }

        private mutating func collectUntilGreaterThan() -> ArraySlice<UInt8> {
            let start = index
            while index < bytes.endIndex, bytes[index] != ASCII.greaterThan { index += 1 }
            let value = bytes[start..<index]
            if index < bytes.endIndex { index += 1 }
            return value
        }

        private mutating func annotation() -> String {
            var buffer: [UInt8] = []
            while index < bytes.endIndex, bytes[index] != ASCII.greaterThan {
                if bytes[index] == ASCII.ampersand {
                    index += 1
                    if let replacement = HTMLCharacterReference.consume(bytes, &index, inAttribute: true) {
                        buffer.append(contentsOf: replacement.utf8)
                    } else {
                        buffer.append(ASCII.ampersand)
                    }
                } else {
                    buffer.append(bytes[index])
                    index += 1
                }
            }
            if index < bytes.endIndex { index += 1 }
            // Strip leading and trailing ASCII whitespace and collapse runs of it into one space.
            return ArraySlice(buffer).splitOnWhitespace().map(\.string).joined(separator: " ")
        }
    }
}
