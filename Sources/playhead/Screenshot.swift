import Foundation
import Playhead

/// The `s` key: the picture on screen saved as `playhead-shotNNNN.png` in the current folder, as mpv does, under
/// the first number no file has (an existing file is never replaced), with the subtitles the window shows drawn
/// over it. Main actor.
extension PlaybackSession {
    func takeScreenshot() {
        // A picture of an earlier entry (the last video's, while sound alone plays now) is not what shows.
        guard let item = player.currentItem, let frame = player.currentVideoFrame, frame.item == ObjectIdentifier(item)
        else {
            terminal.message("no picture to save")
            return
        }
        let folder = CommandLineBytes.workingFolder
        // The subtitles of the window that shows the player: the floating one in Picture in Picture.
        var window: PlayerWindow?
        if case .open(let open) = windowState { window = open }
        if let pip = pictureInPicture, pip.isPictureInPictureActive { window = pip.pictureInPictureWindow }
        let subtitles = window?.playerLayer.displayedSubtitles ?? []
        let delay = item.subtitleDelay
        Task { @MainActor [weak self] in
            let saved = await Task.detached { () -> Result<String, any Error> in
                Result {
                    try Screenshot.save(try frame.pngData(subtitles: subtitles, subtitleDelay: delay), in: folder)
                }
            }.value
            switch saved {
            case .success(let name): self?.terminal.message("screenshot: \(name)")
            case .failure(let error): printError("screenshot not saved: \(error)")
            }
        }
    }
}

/// Writes screenshot files. Any thread.
enum Screenshot {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Writes `png` as the first `playhead-shotNNNN.png` (0001 to 9999) that does not exist in `folder`, created
    /// exclusively (a file that appears meanwhile is never replaced); returns its name.
    static func save(_ png: [UInt8], in folder: String) throws -> String {
        for n in 1...9999 {
            let name = String(format: "playhead-shot%04d.png", n)
            let path = (folder as NSString).appendingPathComponent(name)
            let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if fd < 0 {
                if errno == EEXIST { continue }
                throw Failure(description: "\(path): \(String(cString: strerror(errno)))")
            }
            defer { close(fd) }
            let written = png.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            guard written == png.count else {
                let reason = written < 0 ? String(cString: strerror(errno)) : "short write"
                unlink(path)
                throw Failure(description: "\(path): \(reason)")
            }
            return name
        }
        throw Failure(description: "\(folder): playhead-shot0001.png to playhead-shot9999.png all exist")
    }
}
