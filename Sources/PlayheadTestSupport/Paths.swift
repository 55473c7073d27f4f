import Foundation

/// Where things are for tests: the package root, the generated fixtures, the built binary, the corpora.
public enum Paths {
    /// The package root (the folder holding Package.swift).
    public static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    }()

    /// Generated media fixtures: `PLAYHEAD_FIXTURES`, or `.fixtures/` in the package root.
    public static let fixtures: URL = {
        let dir =
            ProcessInfo.processInfo.environment["PLAYHEAD_FIXTURES"].map { URL(fileURLWithPath: $0) }
            ?? packageRoot.appendingPathComponent(".fixtures")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }()

    /// The `playhead` binary: `PLAYHEAD_BIN`, or `.build/debug/playhead`. Throws when it was not built.
    public static func playheadBinary() throws -> String {
        Run.inheritNothing
        let path =
            ProcessInfo.processInfo.environment["PLAYHEAD_BIN"]
            ?? packageRoot.appendingPathComponent(".build/debug/playhead").path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw TestSupportError("\(path) is missing: run 'swift build' before the tests (scripts/test.sh does)")
        }
        return path
    }

    /// `../shared/corpora` beside the package root.
    public static let corpora = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpora")

    /// A fresh scratch folder for one test.
    public static func scratch(_ name: String = "t") -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "playhead-\(name)-\(UUID().uuidString.prefix(8))")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }
}
