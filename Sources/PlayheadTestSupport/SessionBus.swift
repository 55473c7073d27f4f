import Foundation

/// The test's D-Bus session bus as `busctl` sees it.
public enum SessionBus {
    /// Waits up to `seconds` for the process `pid` to own an MPRIS name of `playhead` on the session bus: its
    /// instance name (`org.mpris.MediaPlayer2.playhead.instance<PID>`, taken while another process held the plain
    /// one) or the plain name; nil when neither is its own by then. A name found by listing alone may be a process
    /// of an earlier test that has not been let go of yet. On the calling thread (it blocks).
    public static func mprisName(of pid: Int32, seconds: Double = 5) throws -> String? {
        let names = ["org.mpris.MediaPlayer2.playhead.instance\(pid)", "org.mpris.MediaPlayer2.playhead"]
        let deadline = Date().addingTimeInterval(seconds)
        repeat {
            for name in names where try owner(of: name) == pid { return name }
            Thread.sleep(forTimeInterval: 0.05)
        } while Date() < deadline
        return nil
    }

    /// The process ID of the connection that owns `name` on the session bus; nil when nobody does.
    public static func owner(of name: String) throws -> Int32? {
        let r = try Run.command(
            "busctl",
            [
                "--user", "call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                "GetConnectionUnixProcessID", "s", name,
            ], timeout: 5)
        let words = r.stdout.split(separator: " ")
        guard r.status == 0, words.count == 2, words[0] == "u" else { return nil }
        return Int32(words[1].trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
