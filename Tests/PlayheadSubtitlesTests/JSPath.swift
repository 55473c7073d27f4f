import PlayheadSubtitles

/// A JavaScript value as the W3C tests see `VTTCue` and `VTTRegion` attributes.
enum JSValue: Equatable, Decodable, CustomStringConvertible {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    /// A `VTTRegion` object; two are the same object when they come from the same `REGION` block.
    case region(WebVTTRegion)

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    var description: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return "\(value)"
        case .number(let value): return "\(value)"
        case .string(let value): return "\"\(value)\""
        case .region(let region): return "VTTRegion(id: \(region.id), line \(region.sourceLine))"
        }
    }
}

/// A path of the W3C expectations (`cues.length`, `cues[3].align`, `cues[0].region.lines`) evaluated over parsed
/// cues with the `VTTCue` interface's names and value conventions (`"auto"` for an automatic line or position,
/// `""` for horizontal writing or no scrolling, `null` for no region).
struct JSPath {
    enum Failure: Error { case malformed(String), unknownProperty(String), outOfRange(String) }

    let text: String

    init(_ text: String) { self.text = text }

    func evaluate(_ cues: [SubtitleCue]) throws -> JSValue {
        if text == "cues.length" { return .number(Double(cues.count)) }
        guard text.hasPrefix("cues["), let close = text.firstIndex(of: "]"),
            let index = Int(text[text.index(text.startIndex, offsetBy: 5)..<close])
        else { throw Failure.malformed(text) }
        guard cues.indices.contains(index) else { throw Failure.outOfRange(text) }
        let properties = text[text.index(after: close)...].split(separator: ".").map(String.init)
        let cue = cues[index]
        guard let first = properties.first else { throw Failure.malformed(text) }
        if first == "region", properties.count == 2 {
            guard let region = cue.settings.region else { throw Failure.malformed("\(text) on a null region") }
            return try Self.regionProperty(properties[1], of: region)
        }
        guard properties.count == 1 else { throw Failure.malformed(text) }
        return try Self.cueProperty(first, of: cue)
    }

    static func cueProperty(_ name: String, of cue: SubtitleCue) throws -> JSValue {
        let settings = cue.settings
        switch name {
        case "id": return .string(cue.id)
        case "text": return .string(cue.text)
        case "startTime": return .number(cue.startTime)
        case "endTime": return .number(cue.endTime)
        case "vertical": return .string(settings.vertical.rawValue)
        case "snapToLines": return .bool(settings.snapToLines)
        case "line": return settings.line.map(JSValue.number) ?? .string("auto")
        case "lineAlign": return .string(settings.lineAlign.rawValue)
        case "position": return settings.position.map(JSValue.number) ?? .string("auto")
        case "positionAlign": return .string(settings.positionAlign.rawValue)
        case "size": return .number(settings.size)
        case "align": return .string(settings.align.rawValue)
        case "region": return settings.region.map(JSValue.region) ?? .null
        default: throw Failure.unknownProperty(name)
        }
    }

    static func regionProperty(_ name: String, of region: WebVTTRegion) throws -> JSValue {
        switch name {
        case "id": return .string(region.id)
        case "width": return .number(region.width)
        case "lines": return .number(region.lines)
        case "regionAnchorX": return .number(region.regionAnchorX)
        case "regionAnchorY": return .number(region.regionAnchorY)
        case "viewportAnchorX": return .number(region.viewportAnchorX)
        case "viewportAnchorY": return .number(region.viewportAnchorY)
        case "scroll": return .string(region.scroll.rawValue)
        default: throw Failure.unknownProperty(name)
        }
    }
}
