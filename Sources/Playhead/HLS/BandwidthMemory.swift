import Foundation
import PlayheadCore

/// The HLS bandwidth estimate remembered across runs, so the next stream starts on a variant the network
/// carried last time instead of the lowest. Off unless `isEnabled` (the `playhead` command turns it on); kept in
/// `$XDG_STATE_HOME/playhead/hls-bandwidth` (`~/.local/state` when unset) as one number in bits per second.
///
/// Thread-safe: read when an HLS stream opens, written from demux threads (at most every two seconds).
public enum BandwidthMemory {
    private static let state = Locked(
        (enabled: false, path: String?.none, lastWrite: 0.0, startEstimate: Double?.none))

    /// An estimate to start from instead of the remembered one (bits per second), nil for none: `playhead
    /// --hls-bitrate=max` sets a huge one to start on the highest variant.
    public static var startEstimate: Double? {
        get { state.current.startEstimate }
        set { state.withLock { $0.startEstimate = newValue } }
    }

    /// Whether streams start from the remembered estimate and remember theirs. Off by default.
    public static var isEnabled: Bool {
        get { state.current.enabled }
        set { state.withLock { $0.enabled = newValue } }
    }

    /// The file, by default under `XDG_STATE_HOME`; set it to keep the estimate elsewhere.
    public static var path: String {
        get { state.current.path ?? defaultPath }
        set { state.withLock { $0.path = newValue } }
    }

    static var defaultPath: String {
        let env = ProcessInfo.processInfo.environment
        let base =
            env["XDG_STATE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (env["HOME"] ?? NSHomeDirectory()) + "/.local/state"
        return base + "/playhead/hls-bandwidth"
    }

    /// The remembered estimate in bits per second, nil when off, absent or unreadable.
    public static func remembered() -> Double? {
        if let startEstimate { return startEstimate }
        guard isEnabled, let text = try? String(contentsOfFile: path, encoding: .utf8),
            let value = Double(text.trimmingCharacters(in: .whitespacesAndNewlines)), value.isFinite, value > 0
        else { return nil }
        return value
    }

    /// Remembers `estimate` (bits per second) when on, at most every two seconds unless `force`.
    static func remember(_ estimate: Double, force: Bool = false) {
        guard isEnabled, estimate.isFinite, estimate > 0 else { return }
        let now = MonotonicClock.now()
        let due = state.withLock { s -> Bool in
            guard force || now - s.lastWrite >= 2 else { return false }
            s.lastWrite = now
            return true
        }
        guard due else { return }
        let file = URL(fileURLWithPath: path)
        let folder = file.deletingLastPathComponent()
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // Written beside it under one name, then renamed over it: Foundation's atomic write makes a new temporary
        // name each time, and a run that ended during the write (a demux thread's, at exit) left it behind: the
        // state folder filled with `.dat.nosync…` files, two runs in three.
        let temporary = folder.appendingPathComponent(".\(file.lastPathComponent).new")
        guard (try? "\(Int(estimate))\n".write(to: temporary, atomically: false, encoding: .utf8)) != nil else {
            return
        }
        _ = rename(temporary.path, file.path)
    }
}
