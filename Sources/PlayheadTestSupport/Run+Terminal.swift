import Foundation

extension Run {
    /// Runs `arguments` (a program and its arguments) on a pseudo-terminal (`script`), typing `keys` into it as
    /// (seconds to wait first, text) pairs. `script` runs until its input closes, even after the program ended: the
    /// input stays open `tail` seconds after the last key, or until the program has ended, whichever comes first
    /// (the program's shell leaves a mark when it ends, which the typing looks for every 0.1 s). The result's status
    /// is the program's.
    public static func inTerminal(
        _ arguments: [String], keys: [(Double, String)], tail: Double, environment: [String: String] = [:],
        timeout: Double
    ) throws -> Result {
        let done = Paths.scratch("terminal").appendingPathComponent("ended")
        defer { try? FileManager.default.removeItem(at: done.deletingLastPathComponent()) }
        let quoted = arguments.map { "'\($0)'" }.joined(separator: " ")
        // Inside the double quotes of `script -c`: `$` escaped for the inner shell.
        let program = "\(quoted); status=\\$?; : > '\(done.path)'; exit \\$status"
        let typing =
            keys.map { "sleep \($0.0); printf '\($0.1)'" }
            + ["for _ in $(seq \(Int((tail * 10).rounded()))); do [ -e '\(done.path)' ] && break; sleep 0.1; done"]
        return try command(
            "bash", ["-c", "(\(typing.joined(separator: "; "))) | script -qfec \"\(program)\" /dev/null"],
            environment: environment, timeout: timeout)
    }
}
