import CSDL2
import Foundation
import PlayheadCore

/// The one thread that owns SDL in this process: it starts SDL's video (the display connection), owns every
/// window and its renderer, waits for input and for pictures, and draws. Other threads hand it work (`submit`) and
/// wake it; nothing polls: it sleeps in SDL's wait until an input event or a wake. It starts with the first window
/// and ends, closing the display connection, once the last window is gone.
///
/// Threads: `submit` from any thread; everything else on the display thread itself.
final class DisplayThread: @unchecked Sendable {
    /// The process's display thread.
    static let shared = DisplayThread()

    /// Work for the display thread; `nil` when SDL could not start, else the thread's handle to its windows.
    typealias Job = @Sendable (_ display: DisplayThread?) -> Void

    private struct Shared {
        var jobs: [Job] = []
        var running = false
        var failure: String?
        /// The display connection broke (the X server or the Wayland compositor went away): SDL must not be used again
        /// in this process.
        var lost = false
    }
    private let shared = Locked(Shared())
    /// Held by a display thread from SDL's start to its stop, so that a thread started after the last window closed
    /// starts SDL only once the previous one has stopped it.
    private let lifetime = NSLock()
    /// The windows this thread draws, by SDL window ID. Display thread only.
    private var surfaces: [UInt32: WindowSurface] = [:]
    /// Draws the text of every window's controls. Display thread only.
    let text = TextRenderer()
    /// The problems reported already (each once per process). Display thread only.
    var reportedProblems = Set<String>()

    /// True once the display connection broke (the X server or the Wayland compositor went away).
    var wasLost: Bool { shared.current.lost }

    /// Blocks until no display thread holds the display connection (the last window closed and SDL stopped), at
    /// most until `deadline`; true when none does. Any thread but the display thread.
    func waitUntilStopped(before deadline: Date) -> Bool {
        guard lifetime.lock(before: deadline) else { return false }
        lifetime.unlock()
        return !shared.current.running
    }

    /// Why SDL could not start the last time it was tried (no display, no SDL library), nil when it started.
    var lastFailure: String? { shared.current.failure }

    /// Runs `job` on the display thread soon, starting the thread (and SDL) when it is not running; unless
    /// `starting` is false (work on windows that exist only while it runs, such as closing one): then a job
    /// for a thread that has ended runs at once on the caller's thread, given nil.
    func submit(starting: Bool = true, _ job: @escaping Job) {
        let start = shared.withLock { s -> Bool? in
            guard s.running || starting else { return nil }
            s.jobs.append(job)
            defer { s.running = true }
            return !s.running
        }
        guard let start else {
            job(nil)  // no display thread: the job learns it at once, on the caller's thread
            return
        }
        if start {
            PlaybackThreads.start("playhead.display") { [self] in run() }
        } else {
            ph_sdl_wake()
        }
    }

    /// Wakes the thread to draw the windows that have a new picture. Any thread.
    func wake() { ph_sdl_wake() }

    /// Adds a window made on this thread. Display thread.
    func add(_ surface: WindowSurface) { surfaces[surface.id] = surface }

    /// Closes a window. Display thread.
    func remove(id: UInt32) {
        surfaces.removeValue(forKey: id)?.destroy()
    }

    /// The video drivers for the displays named in the environment, X11 first when both are (XWayland; SDL 2's
    /// own order): never SDL's off-screen or framebuffer drivers, which would open a window no one sees.
    static var drivers: String {
        let env = ProcessInfo.processInfo.environment
        var names: [String] = []
        if !(env["DISPLAY"] ?? "").isEmpty { names.append("x11") }
        if !(env["WAYLAND_DISPLAY"] ?? "").isEmpty { names.append("wayland") }
        return names.isEmpty ? "none" : names.joined(separator: ",")
    }

    /// Why a window could not open, for messages: `why` after the displays named in the environment
    /// ("cannot open a window (DISPLAY=:0): ..."), or alone when none is named (it says so itself).
    static func windowFailure(_ why: String) -> String {
        drivers == "none" ? "cannot open a window: \(why)" : "cannot open a window (\(displayNames)): \(why)"
    }

    /// The displays named in the environment, for messages ("DISPLAY=:0").
    static var displayNames: String {
        let env = ProcessInfo.processInfo.environment
        let named = ["DISPLAY", "WAYLAND_DISPLAY"].compactMap { key in
            env[key].flatMap { $0.isEmpty ? nil : "\(key)=\($0)" }
        }
        return named.isEmpty ? "no display named" : named.joined(separator: ", ")
    }

    private func run() {
        lifetime.lock()
        defer { lifetime.unlock() }
        let lost = shared.withLock { $0.lost }
        guard !lost, ph_sdl_start(Self.drivers) == 0 else {
            let failure =
                lost
                ? "the connection to the display was lost"
                : Self.drivers == "none"
                    ? "neither DISPLAY nor WAYLAND_DISPLAY is set" : String(cString: ph_sdl_error())
            let jobs = shared.withLock { s -> [Job] in
                defer {
                    s.jobs = []
                    s.running = false
                    s.failure = failure
                }
                return s.jobs
            }
            for job in jobs { job(nil) }
            return
        }
        shared.withLock { $0.failure = nil }
        var event = ph_sdl_event()
        while true {
            let jobs = shared.withLock { s -> [Job] in
                defer { s.jobs = [] }
                return s.jobs
            }
            for job in jobs { job(self) }
            for surface in Array(surfaces.values) {
                if !surface.drawIfNeeded() { remove(id: surface.id) }
            }
            let done = shared.withLock { s -> Bool in
                guard s.jobs.isEmpty, surfaces.isEmpty else { return false }
                s.running = false
                return true
            }
            if done { break }
            guard ph_sdl_wait(&event, -1) == 1 else { continue }
            if ph_sdl_display_lost() != 0 {
                loseDisplay()
                return
            }
            if event.kind != UInt32(PH_EVENT_WAKE), let surface = surfaces[event.window] {
                surface.handle(event)
            }
        }
        ph_sdl_stop()
    }

    /// The display (the X server or the Wayland compositor) went away: every window is told and forgotten (its SDL
    /// side is not touched again), jobs waiting and to come fail, and the thread ends without stopping SDL (its
    /// connection is dead).
    private func loseDisplay() {
        let windows = surfaces.values
        surfaces = [:]
        for surface in windows { surface.displayLost() }
        let jobs = shared.withLock { s -> [Job] in
            defer {
                s.jobs = []
                s.running = false
                s.lost = true
                s.failure = "the connection to the display was lost"
            }
            return s.jobs
        }
        for job in jobs { job(nil) }
    }
}

extension DisplayThread {
    /// Runs `body` with the SDL handle of window `id` when it is open. Display thread.
    func withHandle(id: UInt32, _ body: (OpaquePointer) -> Void) {
        if let surface = surfaces[id] { body(surface.handle) }
    }
}
