import Foundation
import PlayheadTestSupport
import Testing

/// The test support's own promise: a helper it starts (`Run.start`: a recorder, a stream writer) holds none of the
/// test process's pipes and sockets, its standard ones included, so a test process that crashes never leaves
/// `swift test` waiting on a pipe a helper still holds.
@Suite struct HelperProcessTests {
    /// The pipes and sockets `pid` has open ("pipe:[123]"), standard input, output and error included.
    func pipesAndSockets(of pid: String) -> Set<String> {
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
        return Set(
            fds.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)") }
                .filter { $0.hasPrefix("pipe:") || $0.hasPrefix("socket:") })
    }

    @Test func aHelperHoldsNoneOfTheTestProcesssPipes() throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try Run.which("python3"))
        p.arguments = ["-c", "import time; time.sleep(5)"]
        let ours = pipesAndSockets(of: "self")
        #expect(!ours.isEmpty, "the test process has no pipe to check")
        try Run.start(p)
        defer { Run.kill(p) }
        let held = pipesAndSockets(of: "\(p.processIdentifier)").intersection(ours)
        #expect(held.isEmpty, "the helper holds the test process's \(held.sorted())")
    }
}
