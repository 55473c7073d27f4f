import Foundation
import Playhead
import PlayheadHLS

/// `playhead probe [--json] [--strict] URL|FILE`: prints what an HLS playlist contains, or a media file's duration,
/// tags and tracks (`MediaProbe`), as a report or as JSON (schema in `docs/probe-json.md`). Errors are one line on
/// standard error: `playhead: <target>: <problem>`.
enum ProbeCommand {
    static let usage = "usage: playhead probe [--json] [--strict] URL|FILE"

    /// Runs the command with the arguments after `probe`; returns the process exit code (0 or 1).
    static func run(_ arguments: [String]) async -> Int32 {
        var json = false
        var strict = false
        var targets: [String] = []
        for argument in arguments {
            switch argument {
            case "--json": json = true
            case "--strict": strict = true
            case "-h", "--help":
                print(usage)
                return 0
            default:
                if argument.hasPrefix("-") && argument != "-" {
                    return fail("probe", "unknown option \(argument); \(usage)")
                }
                targets.append(argument)
            }
        }
        guard targets.count == 1, let target = targets.first else { return fail("probe", usage) }

        let loaded: (data: Data, url: URL)
        switch load(target) {
        case .success(let value): loaded = value
        case .failure(let error): return fail(target, PlaybackError.reason(from: error.message))
        }
        // Only the first 4 KiB of anything else was read: the media is opened as a player opens it.
        guard looksLikePlaylist(loaded.data) else { return await MediaProbe.run(target, url: loaded.url, json: json) }
        let playlist: Playlist
        do {
            playlist = try PlaylistParser(options: PlaylistParserOptions(strict: strict)).parse(
                loaded.data, url: loaded.url)
        } catch {
            return fail(target, error.description)
        }
        if json {
            try? FileHandle.standardOutput.write(contentsOf: PlaylistJSON.data(for: playlist))
            try? FileHandle.standardOutput.write(contentsOf: Data("\n".utf8))
        } else {
            let report = terminalSafe(ProbeReport.text(for: playlist), keepingLines: true)
            try? FileHandle.standardOutput.write(contentsOf: Data(report.utf8))
        }
        return 0
    }

    struct LoadError: Error {
        let message: String
    }

    /// Reads a local file (path or `file:` URL) or fetches an `http(s)` URL with a 10 s timeout.
    static func load(_ target: String) -> Result<(data: Data, url: URL), LoadError> {
        if let url = URL(text: target), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" {
            return fetch(url)
        }
        let fileURL: URL
        if target.hasPrefix("file:"), let url = URL(text: target) {
            fileURL = url
        } else {
            fileURL = URL(fileURLWithPath: target)
        }
        do {
            return .success((try readHead(fileURL), fileURL.standardizedFileURL))
        } catch let error as LoadError {
            return .failure(error)
        } catch {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: fileURL.path, isDirectory: &isDirectory)
            let message = !exists ? "no such file" : isDirectory.boolValue ? "is a directory" : "cannot read the file"
            return .failure(LoadError(message: message))
        }
    }

    /// The most of a playlist file read (64 MiB; the largest VOD playlists are a few MiB).
    static let playlistLimit = 64 << 20

    /// A file's first 4 KiB, and the rest only when they look like a playlist (`looksLikePlaylist`): a media file of
    /// gigabytes, a device or a pipe is not read whole to be told it is not a playlist. Throws `LoadError` past
    /// `playlistLimit`, the file system's error when it cannot be read.
    static func readHead(_ url: URL) throws -> Data {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        let head = try handle.read(upToCount: 4096) ?? Data()
        guard looksLikePlaylist(head) else { return head }
        let rest = try handle.read(upToCount: playlistLimit - head.count + 1) ?? Data()
        guard head.count + rest.count <= playlistLimit else {
            throw LoadError(message: "larger than \(playlistLimit >> 20) MiB: not a playlist probe reads")
        }
        return head + rest
    }

    /// Fetches an `http(s)` URL as `readHead` reads a file: it hangs up after the first 4 KiB unless they look like a
    /// playlist, and past `playlistLimit`. At most 10 s without a byte, 11 s in all.
    private static func fetch(_ url: URL) -> Result<(data: Data, url: URL), LoadError> {
        // No limit at the response: a media file's size says nothing until its first bytes are looked at.
        let loader = SegmentLoader(idleTimeout: 10, maximumBytes: .max)
        let fetch = HeadFetch(url: url)
        let download = loader.start(
            url, onResponse: { fetch.answered(by: $0.url) }, onChunk: { fetch.received($0.data) },
            completion: { fetch.ended($0) })
        fetch.started(download)
        let result = fetch.done.wait(timeout: .now() + 11) == .timedOut ? nil : fetch.result
        download.cancel()
        return result ?? .failure(LoadError(message: "timed out after 10 s"))
    }

    /// What `fetch` has got: written on the loader's thread, read once `done` is signalled (its lock makes any
    /// thread safe).
    private final class HeadFetch: @unchecked Sendable {
        let done = DispatchSemaphore(value: 0)
        private let lock = NSLock()
        private var url: URL
        private var data = Data()
        private var download: SegmentLoader.Download?
        private var outcome: Result<(data: Data, url: URL), LoadError>?

        init(url: URL) { self.url = url }

        var result: Result<(data: Data, url: URL), LoadError>? { lock.withLock { outcome } }

        func started(_ download: SegmentLoader.Download) { lock.withLock { self.download = download } }

        func answered(by url: URL?) { lock.withLock { self.url = url ?? self.url } }

        /// Hangs up once the first 4 KiB are not a playlist's, or past `playlistLimit`.
        func received(_ chunk: Data) {
            let (notPlaylist, tooLarge, download) = lock.withLock {
                data.append(chunk)
                return (
                    data.count >= 4096 && !ProbeCommand.looksLikePlaylist(data),
                    data.count > ProbeCommand.playlistLimit, self.download
                )
            }
            if notPlaylist {
                finish(.success(lock.withLock { (data, url) }))
            } else if tooLarge {
                let limit = ProbeCommand.playlistLimit >> 20
                finish(.failure(LoadError(message: "larger than \(limit) MiB: not a playlist probe reads")))
            }
            if notPlaylist || tooLarge { download?.cancel() }
        }

        func ended(_ result: Result<SegmentLoadResult, SegmentLoadError>) {
            switch result {
            case .success: finish(.success(lock.withLock { (data, url) }))
            case .failure(let error): finish(.failure(LoadError(message: error.description)))
            }
        }

        private func finish(_ value: Result<(data: Data, url: URL), LoadError>) {
            let first = lock.withLock {
                defer { outcome = outcome ?? value }
                return outcome == nil
            }
            if first { done.signal() }
        }
    }

    /// Whether the bytes look like a playlist: `#EXTM3U` first (after a byte-order mark and blank space), or,
    /// for playlists that forgot it, UTF-8 text whose first 4 KiB hold an `#EXT` tag at the start of a line.
    static func looksLikePlaylist(_ data: Data) -> Bool {
        var bytes = data.prefix(4096)[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        bytes = bytes.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A }
        if bytes.starts(with: Array("#EXTM3U".utf8)) { return true }
        guard !bytes.contains(0) else { return false }
        let text = String(decoding: bytes, as: UTF8.self)
        return text.hasPrefix("#EXT") || text.contains("\n#EXT")
    }

    /// Prints `playhead: <target>: <message>` on standard error and returns 1.
    static func fail(_ target: String, _ message: String) -> Int32 {
        printError("\(target): \(message)")
        return 1
    }
}
