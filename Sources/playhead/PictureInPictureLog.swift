import Foundation
import Playhead

/// Picture in Picture's failures on stderr, and `--log-json` lines: `picture-in-picture` with `active` (true once it started, false
/// once it stopped, or `failed` with the reason), and the process's `opens` and `decoders` counts
/// (`PlaybackCounters`), which a move into or out of the floating window must leave as they were. Main actor.
@MainActor
final class PictureInPictureLog: PictureInPictureControllerDelegate {
    private let log: EventLog?
    /// Called once Picture in Picture stopped (the main window is back).
    var stopped: (() -> Void)?

    init(log: EventLog?) { self.log = log }

    private func write(_ fields: [String: Any]) {
        guard let log else { return }
        var object = fields
        object["event"] = "picture-in-picture"
        object["time"] = MonotonicClock.now() - MonotonicClock.processStart
        object["opens"] = PlaybackCounters.mediaOpens
        object["decoders"] = PlaybackCounters.decoderCreations
        log.write(object)
    }

    func pictureInPictureControllerDidStartPictureInPicture(_ controller: PictureInPictureController) {
        write(["active": true])
    }

    func pictureInPictureControllerDidStopPictureInPicture(_ controller: PictureInPictureController) {
        write(["active": false])
        stopped?()
    }

    func pictureInPictureController(
        _ controller: PictureInPictureController, failedToStartPictureInPictureWithError error: any Error
    ) {
        write(["active": false, "failed": "\(error)"])
        printError("\(error)")
    }
}
