import Foundation
import Playhead

/// Where unfinished long items were left, so playing them again resumes there: a JSON object keyed by path or
/// URL in `$XDG_STATE_HOME/playhead/resume.json` (`~/.local/state/playhead/` by default), written atomically
/// (a temporary file renamed into place) so a crash never leaves it half written. A damaged file is ignored with
/// one warning. A local file's entry holds its size too: a file of another size since (replaced by another
/// recording, or cut shorter) starts from the beginning. Main actor.
@MainActor
final class ResumeStore {
    /// Items shorter than this are not remembered (3 minutes, as the issue of record asks).
    static let minimumDuration = 180.0
    /// Positions this close to the end count as finished.
    static let endMargin = 5.0

    let file: URL
    /// Where an item was left, and the size of a local file then.
    private struct Entry {
        var position: Double
        var size: Int64?
    }

    private var positions: [String: Entry] = [:]
    /// Set when the file was unreadable; reported once.
    private(set) var warning: String?

    /// The store at the default place.
    convenience init() {
        let env = ProcessInfo.processInfo.environment
        let base =
            env["XDG_STATE_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: NSHomeDirectory()).appendingPathComponent(".local/state")
        self.init(file: base.appendingPathComponent("playhead/resume.json"))
    }

    /// A store in `file`.
    init(file: URL) {
        self.file = file
        guard let data = try? Data(contentsOf: file) else { return }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            warning = "\(file.path): the resume state is damaged; ignored (it will be rewritten)"
            return
        }
        var rejected: [String] = []
        for (key, value) in object {
            // A size that is there but no whole number of bytes is no more trusted than a bad position: the entry
            // could not tell a replaced file from the one it was left in.
            let sizeGiven = (value as? [String: Any])?["size"] != nil
            if let p = Self.validPosition(value), !sizeGiven || Self.validSize(value) != nil {
                positions[key] = Entry(position: p, size: Self.validSize(value))
            } else {
                rejected.append(key)
            }
        }
        if let first = rejected.min() {
            let more = rejected.count > 1 ? " and \(rejected.count - 1) more" : ""
            warning =
                "\(file.path): ignored the resume position of \(first)\(more): not a time in range, or a file size "
                + "that is not a whole number of bytes"
        }
    }

    /// The position of one entry read from disk (untrusted): a number of seconds above 0 and at most
    /// `Options.maximumSeconds`; nil for anything else (a string, NaN, negative, 1e308, a malformed entry). Pure;
    /// any thread.
    static func validPosition(_ entry: Any) -> Double? {
        guard let entry = entry as? [String: Any], let p = (entry["position"] as? NSNumber)?.doubleValue else {
            return nil
        }
        return p.isFinite && p > 0 && p <= Options.maximumSeconds ? p : nil
    }

    /// The file size of one entry read from disk (untrusted), when it is a whole number of bytes; nil otherwise
    /// (an entry of an older version, a URL's). Pure; any thread.
    static func validSize(_ entry: Any) -> Int64? {
        guard let n = (entry as? [String: Any])?["size"] as? NSNumber, n.doubleValue >= 0, n.doubleValue < 9e18,
            n.doubleValue == n.doubleValue.rounded()
        else { return nil }
        return n.int64Value
    }

    /// The size of the regular file at `path` now; nil for anything else.
    static func fileSize(_ path: String) -> Int64? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int64(info.st_size)
    }

    /// The key of an input: an absolute path for files (a `..` after a link taken as the kernel takes it), the
    /// `file:` URL of a file opened by its bytes (its `/proc/self/fd/N` names another file next time), the URL as
    /// written otherwise.
    static func key(for location: String) -> String {
        if location.contains("://") { return URLPasswords.removed(from: location) }
        let path = PlaylistFile.resolvingParentSteps(location)
        if ByteNamedFiles.isByteNamed(path), let url = ByteNamedFiles.fileURL(of: path) { return url.absoluteString }
        return URL(fileURLWithPath: path).standardizedFileURL.path
    }

    /// Where `location` was left, if anywhere: not in a local file whose size changed since (another file now; a
    /// position past the end of a shorter one played nothing at all).
    func position(for location: String) -> Double? {
        let key = Self.key(for: location)
        guard let entry = positions[key] else { return nil }
        if let size = entry.size, !location.contains("://"), Self.fileSize(location) != size { return nil }
        return entry.position
    }

    /// Remembers `position` for an unfinished item of `duration` seconds (longer than 3 minutes); forgets it when
    /// the item is short or finished.
    func save(_ position: Double, duration: Double, for location: String) {
        let key = Self.key(for: location)
        if duration.isFinite, duration > Self.minimumDuration, position > 1, position < duration - Self.endMargin {
            positions[key] = Entry(
                position: position, size: location.contains("://") ? nil : Self.fileSize(location))
        } else {
            positions[key] = nil
        }
        write()
    }

    /// Forgets `location` (it played to its end).
    func forget(_ location: String) {
        guard positions.removeValue(forKey: Self.key(for: location)) != nil else { return }
        write()
    }

    private func write() {
        let object = positions.mapValues { e -> [String: Any] in
            e.size.map { ["position": e.position, "size": $0] } ?? ["position": e.position]
        }
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted])
        else { return }
        do {
            // What one has played is one's own business: the folder is the account's alone (the file, written
            // to a new name and renamed, was readable by every account: 0644).
            let folder = file.deletingLastPathComponent()
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: folder.path)
            try data.write(to: file, options: .atomic)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        } catch {
            printError("\(file.path): cannot save the resume position: \(error.localizedDescription)")
        }
    }
}
