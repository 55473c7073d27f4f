import Foundation
import PlayheadVideo

/// The picture side of an engine: the outputs showing its item (attached and detached at any moment, while
/// playing or paused) and the picture on screen now. An output attached after the first picture shows the current
/// one at once, with no seek, reopen or new decoder.
///
/// Threads: any. The video thread presents; the main actor attaches and detaches. Every call into an output
/// (`present`, `flush`) is made under the renderer's lock, so an output sees one call at a time, in presentation
/// order, though not always on the same thread (its first picture comes on the thread that attached it).
final class VideoRenderer: @unchecked Sendable {
    private let lock = NSLock()
    private var outputs: [any VideoOutput]
    private var current: VideoFrame?

    /// A renderer showing its pictures on `outputs`.
    init(outputs: [any VideoOutput]) { self.outputs = outputs }

    /// Shows `frame` on every output and keeps it as the current picture. Video thread.
    func present(_ frame: VideoFrame) {
        lock.lock()
        defer { lock.unlock() }
        current = frame
        for output in outputs { output.present(frame) }
    }

    /// Adds `output` (once); it shows the current picture at once when there is one. Any thread.
    func attach(_ output: any VideoOutput) {
        lock.lock()
        defer { lock.unlock() }
        guard !outputs.contains(where: { $0 === output }) else { return }
        outputs.append(output)
        if let current { output.present(current) }
    }

    /// Removes `output`; it is sent nothing more. Any thread.
    func detach(_ output: any VideoOutput) {
        lock.lock()
        defer { lock.unlock() }
        outputs.removeAll { $0 === output }
    }

    /// The picture on screen now (the last one presented), nil before the first. Any thread.
    var currentFrame: VideoFrame? {
        lock.lock()
        defer { lock.unlock() }
        return current
    }

    /// The largest size at which an output shows the picture (its window), `.zero` when none shows it to anyone.
    /// Any thread.
    var displaySize: CGSize {
        lock.lock()
        let attached = outputs
        lock.unlock()
        return attached.reduce(CGSize.zero) { size, output in
            let s = output.displaySize
            return CGSize(width: max(size.width, s.width), height: max(size.height, s.height))
        }
    }
}
