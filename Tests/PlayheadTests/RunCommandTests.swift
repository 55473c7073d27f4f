import Foundation
import PlayheadTestSupport
import Testing

/// The test support's `Run.command`: at its time-out it ends what the command started too, so a hung player in a
/// shell pipeline fails its test instead of holding the output pipes (and the test) open for good.
@Suite struct RunCommandTests {
    @Test func aPipelineIsEndedAtTheTimeOut() throws {
        let r = try Run.command("bash", ["-c", "sleep 30 | sleep 30"], timeout: 1)
        #expect(r.seconds < 10, "returned after \(r.seconds) s")
        #expect(r.status != 0, "exit \(r.status)")
    }
}
