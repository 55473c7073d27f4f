import Foundation
import PlayheadTestSupport
import Testing

/// `playhead FILE &` from an interactive shell: a background job may not touch the terminal's settings or read
/// keys (SIGTTOU, SIGTTIN). It stopped itself at once, and SIGTERM could not end it (its quit restored the
/// terminal and stopped it again). Found by a QA pass.
@Suite(.serialized) struct BackgroundJobCommandTests {
    @Test func aBackgroundJobPlaysAndEndsOnSIGTERM() throws {
        let tone = try Fixtures.tone(seconds: 20)
        let folder = Paths.scratch("background-job")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let job = folder.appendingPathComponent("job.sh")
        // An interactive shell (job control: the player gets a process group of its own) in a terminal. The player
        // starts with the signals as a shell leaves them (the test runner's children inherit blocked signals, and a
        // blocked SIGTTOU lets a background job change the terminal).
        let exec =
            "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); "
            + "[signal.signal(s, signal.SIG_DFL) for s in (signal.SIGTTOU, signal.SIGTTIN, signal.SIGINT, signal.SIGTERM)]; "
            + "os.execv(sys.argv[1], sys.argv[1:])"
        // The job's state from /proc (a clean machine has no `ps`): T is stopped; nothing once it ended.
        try """
        state() { local s; read -r _ _ s _ 2>/dev/null < /proc/$1/stat && echo "$s"; }
        python3 -c '\(exec)' '\(try Paths.playheadBinary())' --vo=null --ao=null --no-mpris --no-resume '\(tone.path)' &
        p=$!
        sleep 1.5
        echo "running=$(state $p)"
        kill -TERM $p
        sleep 1
        echo "after=$(state $p)"
        kill -9 $p 2>/dev/null
        echo end

        """.write(to: job, atomically: true, encoding: .utf8)
        let r = try Run.command("script", ["-qfc", "bash -i '\(job.path)'", "/dev/null"], timeout: 30)
        // The job's status line shares the terminal: each answer is read from its marker to the line's end.
        func answer(_ marker: String) -> String? {
            guard let at = r.stdout.range(of: marker) else { return nil }
            let rest = r.stdout[at.upperBound...]
            return String(rest.prefix { !$0.isNewline }).trimmingCharacters(in: .whitespaces)
        }
        let running = answer("running=")
        let after = answer("after=")
        #expect(running.map { !$0.isEmpty && !$0.contains("T") } == true, "state \(running ?? "-") (T: stopped)")
        #expect(after == "", "after SIGTERM: \(after ?? "no answer")\n\(r.stdout.suffix(300))")
    }
}
