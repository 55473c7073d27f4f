import Foundation
import PlayheadCore
import PlayheadFFmpeg

/// What loading an asset found. A value type, safe anywhere.
struct AssetInfo: Sendable {
    var duration: MediaTime
    var tracks: [AssetTrack]
    var metadata: [MetadataItem]
    var media: MediaInfo
}

/// Opens an asset's resource once and shares the result among concurrent loads. Safe from any thread; the
/// blocking open runs on a dispatch thread.
final class AssetLoader: Sendable {
    private struct State {
        var result: Result<AssetInfo, PlaybackError>?
        var waiters: [CheckedContinuation<AssetInfo, any Error>] = []
        var started = false
        /// The opened input, until a player takes it.
        var input: MediaInput?
    }

    let location: String
    let timeout: Double
    private let state = Locked(State())

    init(location: String, timeout: Double) {
        self.location = location
        self.timeout = timeout
    }

    var result: Result<AssetInfo, PlaybackError>? { state.withLock { $0.result } }

    func info() async throws -> AssetInfo {
        try await withCheckedThrowingContinuation { (c: CheckedContinuation<AssetInfo, any Error>) in
            let start = state.withLock { s -> Bool in
                if let r = s.result {
                    c.resume(with: r)
                    return false
                }
                s.waiters.append(c)
                defer { s.started = true }
                return !s.started
            }
            guard start else { return }
            DispatchQueue.global().async { self.open() }
        }
    }

    /// The opened input, once; later callers (or when never loaded) get nil and open their own.
    func takeInput() -> MediaInput? {
        state.withLock { s in
            defer { s.input = nil }; return s.input
        }
    }

    private func open() {
        let r: Result<AssetInfo, PlaybackError>
        var opened: MediaInput?
        do {
            let input = try MediaOpener.open(location, timeout: timeout)
            opened = input
            r = .success(AssetInfo(input: input))
        } catch {
            r = .failure(error)
        }
        let waiters = state.withLock { s -> [CheckedContinuation<AssetInfo, any Error>] in
            s.result = r
            s.input = opened
            defer { s.waiters.removeAll() }
            return s.waiters
        }
        for w in waiters { w.resume(with: r) }
    }
}

extension AssetInfo {
    init(input: MediaInput) {
        let media = MediaInfo(input: input)
        self.media = media
        duration = media.duration.isNumeric ? media.duration : .indefinite
        tracks = input.streams.filter { $0.mediaType != .other && !$0.isAttachedPicture }.map(AssetTrack.init)
        metadata = MetadataItem.items(from: input.metadata)
    }
}

/// Checks a local path before FFmpeg sees it, for clear messages. Safe anywhere.
enum LocalFileCheck {
    static func problem(with location: String) -> PlaybackError? {
        if location.contains("://") && !location.hasPrefix("file://") { return nil }
        let path = location.hasPrefix("file://") ? (URL(string: location)?.path ?? location) : location
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
            return PlaybackError(.io, source: path, reason: "no such file")
        }
        if isDir.boolValue { return PlaybackError(.io, source: path, reason: "is a directory, not a media file") }
        guard FileManager.default.isReadableFile(atPath: path) else {
            return PlaybackError(.io, source: path, reason: "permission denied")
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
        if size == 0 { return PlaybackError(.io, source: path, reason: "the file is empty") }
        return nil
    }
}
