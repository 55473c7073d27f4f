import Foundation
import PlayheadTestSupport
import Testing

/// A password written in a URL (`http://user:password@host/`, sent as Basic authentication) is neither shown on
/// the terminal, written to the event log, nor kept in the resume state, whose file is the account's alone. (The
/// password was in the "Playing" line, the status line, every error, the log and a world-readable resume file.)
@Suite(.serialized) struct URLPasswordCommandTests {
    @Test func aPasswordInAURLIsNeitherShownLoggedNorKept() throws {
        let chirp = try GaplessFixtures.positionChirp()
        let origin = try TestOrigin(serving: chirp.deletingLastPathComponent())
        let home = Paths.scratch("password-state")
        let log = home.appendingPathComponent("events.jsonl")
        var parts = try #require(
            URLComponents(url: origin.url(chirp.lastPathComponent), resolvingAgainstBaseURL: false))
        (parts.user, parts.password) = ("ann", "s3cret")
        let url = try #require(parts.url).absoluteString
        let missing = url.replacingOccurrences(of: chirp.lastPathComponent, with: "missing.mp3")
        // A missing entry (an error that quotes its URL), then 300 s of sound from 198 s, quit 2 s in: long enough
        // to be remembered.
        let r = try Run.inTerminal(
            [
                try Paths.playheadBinary(), "--ao=null", "--no-mpris", "--start=198", "--log-json=\(log.path)", missing,
                url,
            ],
            keys: [(3.0, "q")], tail: 1, environment: ["XDG_STATE_HOME": home.path], timeout: 40)
        let shown = r.stdout + r.stderr
        #expect(!shown.contains("s3cret"), "\(shown)")
        #expect(shown.contains("missing.mp3") && shown.contains("ann:***@"), "\(shown)")
        let logged = try String(contentsOf: log, encoding: .utf8)
        #expect(!logged.contains("s3cret") && logged.contains("ann:***@"), "\(logged)")
        let state = home.appendingPathComponent("playhead/resume.json")
        let kept = try String(contentsOf: state, encoding: .utf8)
        let plain = origin.url(chirp.lastPathComponent).absoluteString.replacingOccurrences(of: "/", with: "\\/")
        #expect(kept.contains(plain) && !kept.contains("ann") && !kept.contains("s3cret"), "\(kept)")
        let fileMode = try FileManager.default.attributesOfItem(atPath: state.path)[.posixPermissions] as? Int
        let folderMode =
            try FileManager.default.attributesOfItem(atPath: state.deletingLastPathComponent().path)[.posixPermissions]
            as? Int
        #expect(
            fileMode == 0o600 && folderMode == 0o700,
            "modes \(String(describing: fileMode)), \(String(describing: folderMode))")
    }
}
