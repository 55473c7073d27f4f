import Foundation
import Playhead

/// Writes `--log-json`: one JSON object per line for each engine event, with `time` in seconds since the
/// process started on the monotonic clock. Main actor.
@MainActor
final class EventLog {
    private let handle: FileHandle
    /// Error-log entries already written, per item.
    var errorLogWritten: [ObjectIdentifier: Int] = [:]

    init?(path: String) {
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let h = FileHandle(forWritingAtPath: path)
        else { return nil }
        handle = h
    }

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
        case .timeJumped(let from, let to):
            object["from"] = from
            object["to"] = to
        case .error(let e):
            object["message"] = e.description
            object["category"] = e.category.rawValue
        default: break
        }
        write(object)
    }

    func write(_ object: [String: Any]) {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return }
        handle.write(data + Data("\n".utf8))
    }
}
