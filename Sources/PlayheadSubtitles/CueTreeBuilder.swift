/// Builds a `CueText` from WebVTT cue text tokens with the tree-construction part of the WebVTT cue text parsing
/// rules: a start tag opens an element inside the current one (`rt` only directly inside `ruby`), an end tag
/// closes the current element when its name matches (or a `ruby` around the current `rt`), anything else is
/// ignored, and elements still open at the end are closed.
struct CueTreeBuilder {
    private struct OpenElement {
        var kind: CueSpanKind
        var classes: [String]
        var children: [CueNode] = []
    }

    private var root: [CueNode] = []
    private var open: [OpenElement] = []

    private mutating func append(_ node: CueNode) {
        if open.isEmpty {
            root.append(node)
        } else {
            open[open.count - 1].children.append(node)
        }
    }

    private mutating func closeCurrent() {
        let element = open.removeLast()
        append(.span(CueSpan(kind: element.kind, classes: element.classes, children: element.children)))
    }

    mutating func handle(_ token: WebVTTCueTextParser.Token) {
        switch token {
        case .text(let text):
            if !text.isEmpty { append(.text(text)) }
        case .startTag(let name, let classes, let annotation):
            let kind: CueSpanKind
            if name.equals("c") {
                kind = .class
            } else if name.equals("i") {
                kind = .italic
            } else if name.equals("b") {
                kind = .bold
            } else if name.equals("u") {
                kind = .underline
            } else if name.equals("ruby") {
                kind = .ruby
            } else if name.equals("rt") {
                guard open.last?.kind == .ruby else { return }
                kind = .rubyText
            } else if name.equals("v") {
                kind = .voice(name: annotation)
            } else if name.equals("lang") {
                kind = .language(annotation)
            } else {
                return
            }
            open.append(OpenElement(kind: kind, classes: classes))
        case .endTag(let name):
            guard let current = open.last?.kind else { return }
            if name.elementsEqual(current.tagName.utf8) {
                closeCurrent()
            } else if name.equals("ruby"), current == .rubyText {
                closeCurrent()
                closeCurrent()
            }
        case .timestamp(let value):
            var index = value.startIndex
            if let seconds = WebVTTTimings.collectTimestamp(value, &index), index == value.endIndex {
                append(.timestamp(seconds))
            }
        }
    }

    /// Closes what is still open and returns the tree.
    mutating func finish() -> CueText {
        while !open.isEmpty { closeCurrent() }
        return CueText(nodes: root)
    }
}
