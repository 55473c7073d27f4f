import Foundation
import Testing

@testable import PlayheadHLS

/// Locates `../shared/corpora` relative to the package root (the nearest folder above this file, after resolving
/// symlinks, that holds `Package.swift`).
enum Corpus {
    static let root: URL? = {
        var directory = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent()
        while directory.path != "/" {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
                let corpora = directory.appendingPathComponent("../shared/corpora").standardizedFileURL
                return FileManager.default.fileExists(atPath: corpora.path) ? corpora : nil
            }
            directory.deleteLastPathComponent()
        }
        return nil
    }()

    /// The folder `relative` inside the corpora; records a test failure when the corpora are missing.
    static func folder(_ relative: String, sourceLocation: SourceLocation = #_sourceLocation) -> URL? {
        guard let root else {
            Issue.record("../shared/corpora not found beside the package root", sourceLocation: sourceLocation)
            return nil
        }
        return root.appendingPathComponent(relative)
    }

    static func files(in relative: String, withExtension ext: String) -> [URL] {
        guard let folder = folder(relative),
            let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path)
        else { return [] }
        return names.filter { $0.hasSuffix("." + ext) }.sorted().map { folder.appendingPathComponent($0) }
    }
}

/// A JSON value for comparing against expectation files.
enum JSONValue: Equatable, Decodable, CustomStringConvertible {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    var description: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return String(value)
        case .number(let value): return String(value)
        case .string(let value): return "\"\(value)\""
        case .array(let values): return "[" + values.map(\.description).joined(separator: ", ") + "]"
        case .object(let object):
            return "{" + object.keys.sorted().map { "\($0): \(object[$0]!)" }.joined(separator: ", ") + "}"
        }
    }
}

extension PlaylistParser {
    /// Parses a file of the corpus as text.
    func parseFile(_ url: URL, base: URL? = nil) throws -> Playlist {
        let data = try Data(contentsOf: url)
        return try parse(data, url: base ?? url)
    }
}
