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

/// Opens an asset's resource once and shares the result: among concurrent loads, and with a player's engine
/// that opens the same resource (whichever starts first opens it; the other waits for that result). Safe from any
/// thread; the blocking open runs on a thread of its own, or on the engine's demux thread when the engine opens.
final class AssetLoader: Sendable {
    private struct State {
        var result: Result<AssetInfo, PlaybackError>?
        var waiters: [CheckedContinuation<AssetInfo, any Error>] = []
        /// An open is in flight (the loader's own, or an engine's claimed with `claimInput`).
        var started = false
        /// The opened input, until a player takes it.
        var input: MediaInput?
        /// Demux threads waiting in `claimInput` for an open in flight.
        var blocked: [DispatchSemaphore] = []
    }

    /// What `claimInput` gives an engine.
    enum Claim {
        /// The resource as the loader opened it: the engine reads it.
        case input(MediaInput)
        /// The engine opens the resource itself; when `shared`, loads wait for it to call `share`.
        case open(shared: Bool)
        /// The loader's open failed: the engine fails with its error rather than asking the origin again (a
        /// server that never answers failed the item after twice the time-out, a 404 was requested twice, when
        /// a load started before the player's open).
        case failed(PlaybackError)
    }

    let location: String
    let timeout: Double
    /// The asset's HLS options: its resource loader (keys the player cannot load itself), its retries.
    let hls: HLSClientOptions
    /// Subtitle files read beside the resource.
    let subtitleFiles: [String]
    private let state = Locked(State())

    init(location: String, timeout: Double, hls: HLSClientOptions = .init(), subtitleFiles: [String] = []) {
        self.location = location
        self.timeout = timeout
        self.hls = hls
        self.subtitleFiles = subtitleFiles
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
            self.openOnItsOwnThread()
        }
    }

    /// For an engine about to open the resource (demux thread; blocks while a load's open is in flight, until it
    /// ends or `stopping` says so). The loader's opened input when there is one to take, its error when its open
    /// failed; otherwise the engine opens
    /// the resource itself, and when no open is in flight it claims the open (`shared: true`): loads started
    /// meanwhile wait for the engine's `share` instead of opening the resource a second time. An engine that may not
    /// read the loader's input (`takesInput` false: an HLS input the loader opened chose its variant without the
    /// player's caps) does not wait for the loader's open either, but still claims the open when none was started,
    /// so that loads (chapters, tracks) take its result instead of opening the resource again without the caps.
    func claimInput(takesInput: Bool = true, stopping: () -> Bool) -> Claim {
        let wait = DispatchSemaphore(value: 0)
        while true {
            let claim = state.withLock { s -> Claim? in
                switch s.result {
                case .failure(let error)?:
                    return .failed(error)
                case .success?:
                    guard takesInput else { return .open(shared: false) }
                    defer { s.input = nil }
                    // Taken by another player already: this one opens its own.
                    return s.input.map { .input($0) } ?? .open(shared: false)
                case nil: break
                }
                if s.started, !takesInput { return .open(shared: false) }
                if s.started {
                    s.blocked.append(wait)
                    return nil
                }
                s.started = true
                return .open(shared: true)
            }
            if let claim { return claim }
            while wait.wait(timeout: .now() + 0.1) == .timedOut {
                if stopping() {
                    state.withLock { s in s.blocked.removeAll { $0 === wait } }
                    return .open(shared: false)
                }
            }
        }
    }

    /// The end of an open claimed with `claimInput` (demux thread): what the engine's input holds (read now,
    /// before playback moves it), or its error; nil when the engine stopped before opening, in which case the
    /// loader opens the resource itself if loads wait for it.
    func share(_ outcome: Result<MediaInput, PlaybackError>?) {
        guard let outcome else {
            let (reopen, blocked) = state.withLock { s -> (Bool, [DispatchSemaphore]) in
                s.started = !s.waiters.isEmpty
                defer { s.blocked.removeAll() }
                return (s.started, s.blocked)
            }
            if reopen { openOnItsOwnThread() }
            // Engines blocked on this open look again: they claim the open, or wait for the loader's.
            for b in blocked { b.signal() }
            return
        }
        finish(outcome.map { AssetInfo(input: $0, subtitleFiles: subtitleFiles) }, input: nil)
    }

    /// Runs `open` on a thread of its own: it blocks on the network for as long as the resource takes (an HLS
    /// stream's playlists), and on GCD's global queues, as wide as the cores, the opens of items skipped at once
    /// (Next pressed ten times) ran one after another, the item landed on waiting 6 s behind them.
    private func openOnItsOwnThread() {
        let thread = Thread { self.open() }
        thread.name = "playhead.asset-open"
        thread.start()
    }

    private func open() {
        let r: Result<AssetInfo, PlaybackError>
        var opened: MediaInput?
        do {
            let input = try MediaOpener.open(location, timeout: timeout, hls: hls)
            opened = input
            r = .success(AssetInfo(input: input, subtitleFiles: subtitleFiles))
        } catch {
            r = .failure(error)
        }
        finish(r, input: opened)
    }

    private func finish(_ r: Result<AssetInfo, PlaybackError>, input: MediaInput?) {
        let (waiters, blocked) = state.withLock { s in
            s.result = r
            s.input = input
            defer {
                s.waiters.removeAll()
                s.blocked.removeAll()
            }
            return (s.waiters, s.blocked)
        }
        for w in waiters { w.resume(with: r) }
        for b in blocked { b.signal() }
    }
}

extension AssetInfo {
    init(input: MediaInput, subtitleFiles: [String] = []) {
        let source = DemuxerSource.make(input: input, location: input.name)
        let media = MediaInfo(source: SubtitleFiles.adding(SubtitleFiles.open(subtitleFiles).parts, to: source))
        self.media = media
        duration = media.duration.isNumeric ? media.duration : .indefinite
        tracks = media.streams.filter { $0.mediaType != .other && !$0.isAttachedPicture }.map(AssetTrack.init)
        metadata = MetadataItem.items(from: input.metadata)
    }
}

/// Checks a local path before FFmpeg sees it, for clear messages. Safe anywhere.
enum LocalFileCheck {
    /// The local path `location` names (a path, or a `file://` URL); nil for anything remote.
    static func path(of location: String) -> String? {
        if location.contains("://") && !location.hasPrefix("file://") { return nil }
        return location.hasPrefix("file://") ? (URL(string: location)?.path ?? location) : location
    }

    static func problem(with location: String) -> PlaybackError? {
        guard let path = path(of: location) else { return nil }
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
            return PlaybackError(.io, source: path, reason: "no such file")
        }
        if isDir.boolValue { return PlaybackError(.io, source: path, reason: "is a directory, not a media file") }
        guard FileManager.default.isReadableFile(atPath: path) else {
            return PlaybackError(.io, source: path, reason: "permission denied")
        }
        // Only a regular file can be empty: a FIFO, standard input or a device has no size and is read as a stream.
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size == 0 {
            return PlaybackError(.io, source: path, reason: "the file is empty")
        }
        return nil
    }

    /// Whether `path` is a regular file (following symlinks), so its first bytes may be peeked at before FFmpeg
    /// opens it: a FIFO or standard input would lose them.
    static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    /// Ends an open of the FIFO `location` names that waits for a writer (`open(2)` blocks until one comes, and
    /// nothing interrupts it: the player stopped, or quit, only once its wait for the demux thread ran out): opens
    /// it for writing without blocking and closes it at once, so the open returns and the reader meets the end.
    /// Nothing is written; without a reader waiting the open fails and nothing happens. Any thread.
    static func releaseWaitingOpen(of location: String) {
        guard let path = path(of: location) else { return }
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFIFO else { return }
        let fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        if fd >= 0 { close(fd) }
    }
}
