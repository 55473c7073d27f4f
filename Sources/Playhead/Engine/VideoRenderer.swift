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
    /// The next picture, decoded and waiting for its time on the video thread (nil when none waits).
    private var upcoming: VideoFrame?
    /// Whether `frame(dueAt:)` handed `upcoming` out (a window may be showing it).
    private var upcomingHandedOut = false

    /// A renderer showing its pictures on `outputs`.
    init(outputs: [any VideoOutput]) { self.outputs = outputs }

    /// Shows `frame` on every output and keeps it as the current picture. Video thread.
    func present(_ frame: VideoFrame) {
        lock.lock()
        defer { lock.unlock() }
        current = frame
        if upcoming?.time == frame.time {
            upcoming = nil
            upcomingHandedOut = false
        }
        for output in outputs { output.present(frame) }
    }

    /// `frame` is the next picture, waiting for its time (nil: none waits any more: its time came, or a seek or a
    /// stop). A waiting picture that was handed out as due (`frame(dueAt:)`) becomes the picture on screen when it
    /// stops waiting, whether it is shown next, dropped as late or left by a seek: a window that drew it must not
    /// be handed the one before it again (the picture would step back). Video thread.
    func setUpcoming(_ frame: VideoFrame?) {
        lock.lock()
        defer { lock.unlock() }
        if let waiting = upcoming, upcomingHandedOut, waiting.time != frame?.time,
            current.map({ waiting.time > $0.time }) ?? true
        {
            current = waiting
        }
        upcoming = frame
        upcomingHandedOut = false
    }

    /// The picture due at media time `seconds`: the waiting one when it is due by then, else the one on screen.
    /// A window asks for the time its next refresh will show, so a picture due just before that refresh is drawn
    /// in it, not one refresh late. Any thread.
    func frame(dueAt seconds: Double) -> VideoFrame? {
        lock.lock()
        defer { lock.unlock() }
        if let next = upcoming, next.time.seconds <= seconds,
            current.map({ next.time.seconds > $0.time.seconds }) ?? true
        {
            upcomingHandedOut = true
            return next
        }
        return current
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
