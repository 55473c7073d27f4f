/// Cue text parsed into a tree of text, timestamps and spans (W3C WebVTT §3.2 and §6.5, "WebVTT cue text
/// parsing rules"; SubRip's tags map onto the same nodes).
///
/// A value type, safe to use from any thread.
public struct CueText: Sendable, Hashable {
    /// The top-level nodes, in order.
    public var nodes: [CueNode]

    /// Creates a tree from its top-level nodes.
    public init(nodes: [CueNode]) {
        self.nodes = nodes
    }

    /// The text with all markup removed (ruby text included, timestamps dropped): what a screen reader or a plain
    /// text renderer shows.
    public var plainText: String {
        var output = ""
        func visit(_ nodes: [CueNode]) {
            for node in nodes {
                switch node {
                case .text(let text): output += text
                case .timestamp: break
                case .span(let span): visit(span.children)
                }
            }
        }
        visit(nodes)
        return output
    }
}

/// One node of a cue text tree.
///
/// A value type, safe to use from any thread.
public enum CueNode: Sendable, Hashable {
    /// Text, with character references resolved; may contain line feeds.
    case text(String)
    /// A WebVTT timestamp tag (`<00:00:01.500>`) for karaoke-style progressive display, in seconds.
    case timestamp(Double)
    /// A span of markup around child nodes.
    case span(CueSpan)
}

/// A markup element in cue text: its kind, its classes (`<c.yellow.big>`), and its children.
///
/// A value type, safe to use from any thread.
public struct CueSpan: Sendable, Hashable {
    /// What the element is.
    public var kind: CueSpanKind
    /// The classes written after the tag name (`<v.loud Esme>` has `["loud"]`).
    public var classes: [String]
    /// The nodes inside the element.
    public var children: [CueNode]

    /// Creates a span.
    public init(kind: CueSpanKind, classes: [String] = [], children: [CueNode] = []) {
        self.kind = kind
        self.classes = classes
        self.children = children
    }
}

/// The kinds of cue text elements.
///
/// A value type, safe to use from any thread.
public enum CueSpanKind: Sendable, Hashable {
    /// `<c>` — a class span, styled only by its classes.
    case `class`
    /// `<i>` — italics.
    case italic
    /// `<b>` — bold.
    case bold
    /// `<u>` — underline.
    case underline
    /// `<ruby>` — a ruby annotation container.
    case ruby
    /// `<rt>` — ruby text, only ever directly inside `.ruby`.
    case rubyText
    /// `<v Name>` — a voice: who speaks. The name is the tag's annotation, whitespace collapsed.
    case voice(name: String)
    /// `<lang en-GB>` — a language span; the tag is the annotation (a BCP 47 tag, not validated).
    case language(String)
    /// SubRip's `<font color="…" face="…" size="…">`, attributes as written (`nil` when absent).
    case font(color: String?, face: String?, size: String?)

    /// The element's tag name in WebVTT (`c`, `i`, `b`, `u`, `ruby`, `rt`, `v`, `lang`) or SubRip (`font`).
    public var tagName: String {
        switch self {
        case .class: return "c"
        case .italic: return "i"
        case .bold: return "b"
        case .underline: return "u"
        case .ruby: return "ruby"
        case .rubyText: return "rt"
        case .voice: return "v"
        case .language: return "lang"
        case .font: return "font"
        }
    }
}
