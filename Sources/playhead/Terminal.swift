import Foundation
import Playhead

/// The controlling terminal: raw mode for single keys, a key reader thread, and the status line.
/// Raw mode is used only when both stdin and stdout are terminals; it is always restored at exit.
final class Terminal: @unchecked Sendable {
    enum Key: Equatable {
        case char(Character)
        case left, right, up, down, pageUp, pageDown
    }

    static let isInteractive = isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
    /// Asks for the status line to be drawn again (`requestRedraw()`); read by the session's ticker, which draws it
    /// only on these while paused and nothing changes (`PlaybackSession.run`). Newer requests replace older ones.
    static let redrawRequests = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    private var saved = termios()
    private var raw = false
    private(set) var lineShown = false
    /// Waits for the job to be brought to the foreground (`fg` sends SIGCONT) to start reading keys.
    private var foregroundWatch: (any DispatchSourceSignal)?
    /// Redraws the status line when the terminal is resized (SIGWINCH): its width decides what it shows.
    private var resizeWatch: (any DispatchSourceSignal)?

    /// Whether this process's group owns the terminal: only then may it change the terminal's settings or read
    /// keys (a background job, `playhead FILE &`, is stopped by SIGTTOU or SIGTTIN when it tries, and stayed
    /// stopped: even SIGTERM's quit touched the terminal again). Async-signal-safe.
    nonisolated static var isForeground: Bool { tcgetpgrp(STDIN_FILENO) == getpgrp() }

    /// Puts the terminal in raw mode (no echo, no line buffering) and starts reading keys on a thread;
    /// `onKey` is called on the main actor. A background job does so once it is brought to the foreground.
    /// Main actor.
    func start(onKey: @escaping @MainActor @Sendable (Key) -> Void) {
        guard Self.isInteractive, !raw else { return }
        guard Self.isForeground else {
            guard foregroundWatch == nil else { return }
            signal(SIGCONT, SIG_IGN)
            let watch = DispatchSource.makeSignalSource(signal: SIGCONT, queue: .main)
            watch.setEventHandler { [weak self] in
                guard let self, Self.isForeground else { return }
                self.foregroundWatch?.cancel()
                self.foregroundWatch = nil
                self.start(onKey: onKey)
            }
            foregroundWatch = watch
            watch.resume()
            return
        }
        signal(SIGWINCH, SIG_IGN)
        let resize = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: .main)
        resize.setEventHandler { Self.requestRedraw() }
        resize.resume()
        resizeWatch = resize
        tcgetattr(STDIN_FILENO, &saved)
        var t = saved
        t.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &t.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        tcsetattr(STDIN_FILENO, TCSANOW, &t)
        raw = true
        // Ctrl-C or a kill must not leave the shell without echo (`QuitSignals` restores it on a forced exit).
        terminalAtStart = saved
        terminalSaved = true
        let thread = Thread { Self.readKeys(onKey) }
        thread.name = "playhead.keys"
        thread.start()
    }

    /// Asks for the status line to be drawn again soon: something it shows may have changed, or a message took its
    /// place. Any thread.
    nonisolated static func requestRedraw() { redrawRequests.continuation.yield() }

    /// Puts back the terminal settings of the start, from any thread, just before `_exit`.
    nonisolated static func restoreAtExit() {
        if terminalSaved, isForeground { tcsetattr(STDIN_FILENO, TCSANOW, &terminalAtStart) }
    }

    /// Restores the terminal and ends the status line (a subtitle line under it is cleared).
    func restore() {
        if lineShown { try? FileHandle.standardOutput.write(contentsOf: Data("\n\u{1B}[K".utf8)) }
        lineShown = false
        foregroundWatch?.cancel()
        foregroundWatch = nil
        resizeWatch?.cancel()
        resizeWatch = nil
        if raw, Self.isForeground { tcsetattr(STDIN_FILENO, TCSANOW, &saved) }
        raw = false
    }

    /// The terminal's width in columns (80 when it does not say).
    static var columns: Int {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }

    /// Redraws the status line in place, with `below` on the line under it (the cursor stays on the status line);
    /// an empty `below` clears that line.
    func status(_ text: String, below: String = "") {
        guard Self.isInteractive else { return }
        // Everything from the status line down is cleared, then written again.
        var out = "\r\u{1B}[J\(terminalSafe(text))"
        if !below.isEmpty { out += "\n\(terminalSafe(below))\u{1B}[1A\r" }
        try? FileHandle.standardOutput.write(contentsOf: Data(out.utf8))
        lineShown = true
    }

    /// Prints a full line above the status line (clearing the subtitle line under it).
    func message(_ text: String) {
        let prefix = lineShown ? "\r\u{1B}[J" : ""
        try? FileHandle.standardOutput.write(contentsOf: Data("\(prefix)\(terminalSafe(text))\n".utf8))
        lineShown = false
        Self.requestRedraw()
    }

    private static func readKeys(_ onKey: @escaping @MainActor @Sendable (Key) -> Void) {
        var escape: [UInt8] = []
        while true {
            var byte: UInt8 = 0
            guard read(STDIN_FILENO, &byte, 1) == 1 else { return }
            var key: Key?
            if !escape.isEmpty || byte == 0x1B {
                // ESC [ then parameters up to a final byte (0x40-0x7E): the arrows (ESC [ A..D), Page Up and Page
                // Down (ESC [ 5 ~, ESC [ 6 ~); anything else is dropped whole.
                escape.append(byte)
                if escape.count == 2 && byte != 0x5B {
                    escape.removeAll()
                } else if escape.count > 2 && (0x40...0x7E).contains(byte) || escape.count > 8 {
                    switch escape.dropFirst(2) {
                    case [0x41]: key = .up
                    case [0x42]: key = .down
                    case [0x43]: key = .right
                    case [0x44]: key = .left
                    case [0x35, 0x7E]: key = .pageUp
                    case [0x36, 0x7E]: key = .pageDown
                    default: break
                    }
                    escape.removeAll()
                }
            } else {
                key = .char(Character(UnicodeScalar(byte)))
            }
            if let key { Task { @MainActor in onKey(key) } }
        }
    }
}

/// The terminal settings to put back from a signal handler (written once, before the handlers are installed).
nonisolated(unsafe) private var terminalAtStart = termios()
/// Whether `terminalAtStart` holds settings to put back.
nonisolated(unsafe) private var terminalSaved = false

/// Formats seconds as `h:mm:ss` or `mm:ss`; any value (NaN, infinite, 1e308) gives a string, never a trap.
/// Pure; any thread.
func clockString(_ seconds: Double) -> String {
    guard seconds.isFinite else { return "--:--" }
    let s = Int(min(max(0, seconds), 1e15))
    return s >= 3600
        ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%02d:%02d", s / 60, s % 60)
}

/// `text` with the characters a terminal acts on shown as `?` (C0 controls, DEL and C1 controls: the escape
/// sequences that clear the screen, retitle the window or set the clipboard), a tab as a space; with
/// `keepingLines`, line breaks stay; a URL's password as `***` (`URLPasswords`: a screen is seen and pasted). For
/// what anyone can write (file names, tags, subtitles, errors that quote them) before it reaches the terminal. Pure;
/// any thread.
func terminalSafe(_ text: String, keepingLines: Bool = false) -> String {
    let text = URLPasswords.masked(text)
    func acts(_ s: Unicode.Scalar) -> Bool { s.value < 0x20 || (0x7F...0x9F).contains(s.value) }
    guard text.unicodeScalars.contains(where: acts) else { return text }
    var out = String.UnicodeScalarView()
    for s in text.unicodeScalars {
        switch s {
        case "\n" where keepingLines: out.append(s)
        case "\t": out.append(" ")
        case _ where acts(s): out.append("?")
        default: out.append(s)
        }
    }
    return String(out)
}
