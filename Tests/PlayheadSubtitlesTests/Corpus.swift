import Foundation

/// Locates the shared corpora: the first ancestor of this file (symlinks resolved) that holds `shared/corpora`.
/// In a developer's tree that is the folder beside the repository; in CI, the copy beside the fresh clone.
enum Corpus {
    static let root: URL? = {
        var directory = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent()
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent("shared/corpora")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), isDirectory.boolValue
            {
                return candidate
            }
            directory.deleteLastPathComponent()
        }
        return nil
    }()

    /// `shared/corpora/webvtt/w3c-webvtt/test/<folder>`.
    static func webVTTTests(_ folder: String) -> URL? {
        root?.appendingPathComponent("webvtt/w3c-webvtt/test").appendingPathComponent(folder)
    }

    /// The names of the files in a corpus folder with an extension, sorted; empty when the corpus is missing.
    static func files(in folder: URL?, withExtension ext: String) -> [String] {
        guard let folder, let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else {
            return []
        }
        return names.filter { $0.hasSuffix("." + ext) }.sorted()
    }
}
