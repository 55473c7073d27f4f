import Foundation

/// What the threads of a process did between two moments, read from `/proc/PID/task/*/status` (context
/// switches: each is a thread waking up) and `stat` (CPU time in clock ticks). Any thread.
public enum ThreadActivity {
    /// One thread's counters at one moment.
    public struct Sample: Sendable {
        /// The thread's name (`comm`).
        public var name: String
        /// Voluntary and involuntary context switches so far.
        public var wakeups: Int
        /// User and system CPU time so far, in clock ticks (1/100 s).
        public var ticks: Int
    }

    /// What one thread did between two samples.
    public struct Change: Sendable {
        /// The thread's name and id, `name#tid`.
        public var thread: String
        /// Context switches meanwhile.
        public var wakeups: Int
        /// CPU clock ticks meanwhile.
        public var ticks: Int
    }

    /// Every thread of the process `pid` (nil: this one) now, by thread id.
    public static func sample(pid: Int32? = nil) -> [Int: Sample] {
        let dir = "/proc/\(pid.map(String.init) ?? "self")/task"
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        var result: [Int: Sample] = [:]
        for t in tasks {
            guard let tid = Int(t),
                let status = try? String(contentsOfFile: "\(dir)/\(t)/status", encoding: .utf8),
                let stat = try? String(contentsOfFile: "\(dir)/\(t)/stat", encoding: .utf8)
            else { continue }
            var name = "", wakeups = 0
            for line in status.split(separator: "\n") {
                let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard parts.count == 2 else { continue }
                if parts[0] == "Name" { name = parts[1] }
                if parts[0].hasSuffix("ctxt_switches") { wakeups += Int(parts[1]) ?? 0 }
            }
            // Fields after the parenthesised name: state is field 3, utime 14 and stime 15.
            let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
            let ticks = fields.count > 12 ? (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0) : 0
            result[tid] = Sample(name: name, wakeups: wakeups, ticks: ticks)
        }
        return result
    }

    /// Per thread (named, with its id), the wake-ups and CPU ticks between `before` and `after`; threads that
    /// started meanwhile count from zero.
    public static func difference(_ before: [Int: Sample], _ after: [Int: Sample]) -> [Change] {
        after.map { tid, a in
            let b = before[tid]
            return Change(
                thread: "\(a.name)#\(tid)", wakeups: a.wakeups - (b?.wakeups ?? 0), ticks: a.ticks - (b?.ticks ?? 0))
        }.sorted { $0.wakeups > $1.wakeups }
    }

    /// The busiest threads, one line each, for a failure message.
    public static func describe(_ changes: [Change], top: Int = 6) -> String {
        changes.prefix(top).map { "\($0.thread): \($0.wakeups) wakeups, \($0.ticks) ticks" }.joined(separator: "; ")
    }
}
