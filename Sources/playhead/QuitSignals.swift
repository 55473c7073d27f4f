import Foundation

/// SIGINT and SIGTERM, caught from the first line of `main.swift` on, so that a signal sent while the player is
/// still setting up (or inherited as ignored or blocked from the parent) still quits it cleanly: the resume
/// position is saved, the terminal restored and the sound server stream closed. The handler only writes the
/// signal number to a pipe; a reader thread hands it to the main actor. A second signal exits at once when the quit
/// the first asked for has had a second (a stuck quit, a user pressing Ctrl-C again); one within that second is the
/// same request sent twice (GNU `timeout` signals the player, then its process group), which a quick exit would
/// answer without saving the position.
enum QuitSignals {
    /// Installs the handlers and unblocks both signals. Call first thing in `main.swift`, on the main thread,
    /// before any other thread starts (threads inherit the signal mask).
    static func install() {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        quitPipeRead = fds[0]
        quitPipeWrite = fds[1]
        quitCount = 0
        var mask = sigset_t()
        sigemptyset(&mask)
        sigaddset(&mask, SIGINT)
        sigaddset(&mask, SIGTERM)
        for number in [SIGINT, SIGTERM] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = quitSignalHandler
            action.sa_mask = mask
            action.sa_flags = SA_RESTART
            sigaction(number, &action, nil)
        }
        pthread_sigmask(SIG_UNBLOCK, &mask, nil)
    }

    /// For the commands that do not play (probe, help, device list): a signal exits at once, as by default.
    /// Starts a reader thread; call once, from the main thread.
    static func exitOnSignal() {
        readSignals { number in
            Terminal.restoreAtExit()
            _exit(128 + number)
        }
    }

    /// Calls `quit` on the main actor for each signal caught, those caught before this call included. Starts a
    /// reader thread; call once, from the main actor.
    static func onSignal(_ quit: @escaping @MainActor @Sendable (Int32) -> Void) {
        readSignals { number in Task { @MainActor in quit(number) } }
    }

    /// Starts the thread that reads caught signal numbers from the pipe and calls `body` with each, on that
    /// thread.
    private static func readSignals(_ body: @escaping @Sendable (Int32) -> Void) {
        let fd = quitPipeRead
        guard fd >= 0 else { return }
        let thread = Thread {
            var byte: UInt8 = 0
            while true {
                let n = read(fd, &byte, 1)
                if n < 0, errno == EINTR { continue }
                guard n == 1 else { return }
                body(Int32(byte))
            }
        }
        thread.name = "playhead.signals"
        thread.start()
    }
}

/// The pipe the handler writes caught signal numbers to (set once, before the handlers are installed).
nonisolated(unsafe) private var quitPipeRead: Int32 = -1
nonisolated(unsafe) private var quitPipeWrite: Int32 = -1
/// Signals caught so far (only the handler changes it, and signals are not nested: `sa_mask` holds both).
nonisolated(unsafe) private var quitCount = 0
/// When the first signal came: `CLOCK_MONOTONIC` seconds.
nonisolated(unsafe) private var firstQuitTime = 0.0
/// How long after the first signal another one counts as a new request (to exit at once), in seconds.
private let repeatedSignalWindow = 1.0

/// Records the signal in the pipe; a later one, a second or more after the first, restores the terminal and exits
/// at once. Only async-signal-safe calls (`clock_gettime` is one).
private let quitSignalHandler: @convention(c) (Int32) -> Void = { number in
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    let seconds = Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    quitCount += 1
    if quitCount == 1 {
        firstQuitTime = seconds
    } else if seconds - firstQuitTime >= repeatedSignalWindow {
        Terminal.restoreAtExit()
        _exit(128 + number)
    } else {
        // The same request again: the quit under way answers it.
        return
    }
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(quitPipeWrite, &byte, 1)
}
