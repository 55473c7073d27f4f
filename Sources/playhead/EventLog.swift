import Foundation
import Playhead

/// Writes `--log-json`: one JSON object per line for each engine event, with `time` in seconds since the
/// process started on the monotonic clock. Main actor.
@MainActor
final class EventLog {
    /// The file descriptor written to; closed at exit.
    private let fd: Int32
    /// The path as given, for messages.
    private let path: String
    /// Set after the first failed write: the log is off from then on (one warning, playback goes on).
    private var failed = false
    /// Error-log entries already written, per item.
    var errorLogWritten: [ObjectIdentifier: Int] = [:]

    /// Why a `--log-json` path cannot be opened: a one-line usage error naming it.
    struct OpenError: Error, CustomStringConvertible {
        var description: String
    }

    /// Opens `path` as `OutputFile` does: in place (a symlink is followed, a FIFO, a terminal, `/dev/stdout` or
    /// `/dev/stderr` work), an existing file only when it is empty or a log (its first byte a `{`); a FIFO no
    /// program reads is an error, not a wait. Throws when it cannot be opened.
    init(path: String) throws(OpenError) {
        do {
            fd = try OutputFile.open(path, kind: "a JSON log", isOurs: Self.isLog).fd
        } catch {
            throw OpenError(description: "--log-json: \(error.description)")
        }
        self.path = path
    }

    /// Whether `head` (a file's first bytes) starts a JSON log.
    static func isLog(_ head: Data) -> Bool { head.first == UInt8(ascii: "{") }

    deinit { close(fd) }

    func write(_ event: PlayerEvent, input: String) {
        var object: [String: Any] = ["event": event.name, "time": (event.timestamp * 1_000_000).rounded() / 1_000_000]
        object["input"] = input
        switch event.kind {
        case .seekStarted(let target): object["target"] = target
        case .seekDone(let position, let finished):
            object["position"] = position
            object["finished"] = finished
        case .rateChanged(let r): object["rate"] = Double(r)
        case .segmentLoaded(let bytes, let seconds, let estimate):
            object["bytes"] = bytes
            object["seconds"] = seconds
            object["estimate"] = estimate
        case .variantSwitch(let bitRate, let width, let height):
            object["bitrate"] = bitRate
            object["resolution"] = "\(width)x\(height)"
        case .segmentAbandoned(let uri): object["uri"] = uri
        case .pathwayChanged(let from, let to):
            object["from"] = from
            object["to"] = to
        case .timeJumped(let from, let to):
            object["from"] = from
            object["to"] = to
        case .droppedFrame(let position, let late):
            object["position"] = position
            object["late"] = late
        case .audioUnderflow(let position): object["position"] = position
        case .error(let e):
            object["message"] = e.description
            object["category"] = e.category.rawValue
        default: break
        }
        write(object)
    }

    /// Writes one JSON line. A failed write (a full disk, a closed pipe) warns once on stderr and turns the log
    /// off; playback goes on.
    func write(_ object: [String: Any]) {
        // A file opened by its bytes (`/proc/self/fd/N`) by the name the messages give it (its name with U+FFFD
        // for each byte that is not UTF-8).
        var object = object
        for key in ["input", "message"] {
            if let text = object[key] as? String { object[key] = ByteNamedFiles.named(text) }
        }
        // A URL's password is no log's business (logs are kept and shared in bug reports).
        for (key, value) in object {
            if let text = value as? String { object[key] = URLPasswords.masked(text) }
        }
        guard !failed, let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else {
            return
        }
        let line = data + Data("\n".utf8)
        let error: Int32? = line.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += n
            }
            return nil
        }
        if let error {
            failed = true
            printError("--log-json: \(path): \(String(cString: strerror(error))); the event log stops here")
        }
    }
}
