import Foundation
import PlayheadSubtitles
import Testing

/// The web-platform-tests cue text parsing cases (`wpt-cue-parsing/*.json`): each input is put in a one-cue file,
/// as the original tests do, and the tree of `parsedText` is printed in the tests' DOM dump format (the WebVTT
/// DOM construction rules: `c` and `v` and `lang` become `span`, with `title` for a voice and `lang` for a
/// language; timestamps become `<?timestamp …>` processing instructions) and compared.
@Suite("W3C WebVTT cue text parsing")
struct WebVTTCueTextConformanceTests {
    struct Case: Decodable, CustomTestStringConvertible {
        var text: String
        var expectedTree: String
        var testDescription: String { text.debugDescription }
    }

    static let groups = ["entities", "tags", "text", "timestamps", "tree-building"]

    static func cases(_ group: String) throws -> [Case] {
        let url = try #require(Corpus.webVTTTests("wpt-cue-parsing")?.appendingPathComponent(group + ".json"))
        return try JSONDecoder().decode([Case].self, from: Data(contentsOf: url))
    }

    @Test("every case builds the expected tree", arguments: groups)
    func treesMatch(_ group: String) throws {
        let cases = try Self.cases(group)
        #expect(!cases.isEmpty)
        for testCase in cases {
            // The generator keeps the data section's final line feed; the original tests drop it (`input[:-1]`).
            let input = String(testCase.text.dropLast())
            let file = "WEBVTT\n\n00:00.000 --> 00:01.000\n" + input
            let document = try WebVTTParser.parse(file)
            let tree = document.cues.first?.parsedText ?? CueText(nodes: [])
            #expect(Self.dump(tree.nodes) == testCase.expectedTree, "\(group): \(input.debugDescription)")
        }
    }

    /// The web-platform-tests tree format: `| ` then two spaces per depth; attributes sorted, one per line.
    static func dump(_ nodes: [CueNode], depth: Int = 0) -> String {
        let indent = "| " + String(repeating: "  ", count: depth)
        var output = ""
        for node in nodes {
            switch node {
            case .text(let text):
                output += "\(indent)\"\(text)\"\n"
            case .timestamp(let seconds):
                output += "\(indent)<?timestamp \(formatTimestamp(seconds))>\n"
            case .span(let span):
                var attributes: [(String, String)] = []
                if !span.classes.isEmpty { attributes.append(("class", span.classes.joined(separator: " "))) }
                let name: String
                switch span.kind {
                case .class: name = "span"
                case .voice(let voice):
                    name = "span"
                    attributes.append(("title", voice))
                case .language(let language):
                    name = "span"
                    attributes.append(("lang", language))
                case .rubyText: name = "rt"
                default: name = span.kind.tagName
                }
                output += "\(indent)<\(name)>\n"
                for (key, value) in attributes.sorted(by: { $0.0 < $1.0 }) {
                    output += "\(indent)  \(key)=\"\(value)\"\n"
                }
                output += dump(span.children, depth: depth + 1)
            }
        }
        return output
    }

    static func formatTimestamp(_ seconds: Double) -> String {
        let milliseconds = Int((seconds * 1000).rounded())
        let hours = milliseconds / 3_600_000
        let minutes = milliseconds / 60_000 % 60
        let secs = milliseconds / 1000 % 60
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(hours, 2)):\(pad(minutes, 2)):\(pad(secs, 2)).\(pad(milliseconds % 1000, 3))"
    }
}
