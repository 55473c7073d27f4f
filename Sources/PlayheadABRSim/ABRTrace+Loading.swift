import Foundation

extension ABRTrace {
    /// The latency given to every period of a Pensieve trace, which has none: Pensieve's simulator's link RTT
    /// (80 ms).
    public static let pensieveLatency = 0.08

    /// Reads a trace file: Sabre's JSON (`[{duration_ms, bandwidth_kbps, latency_ms}]`) when it starts with `[`,
    /// else Pensieve's text (`time_s throughput_Mbps` per line; each line holds until the next line's time, the last
    /// one for the median step). Throws a one-line `ABRInputError` naming the file and what is wrong.
    public static func load(_ url: URL) throws -> ABRTrace {
        let path = url.path
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw ABRInputError("\(path): cannot read the trace file (\(ABRInputError.reason(error)))")
        }
        let text = String(decoding: data, as: UTF8.self)
        let name = url.deletingPathExtension().lastPathComponent
        if text.drop(while: \.isWhitespace).first == "[" {
            return try sabre(data, path: path, name: name)
        }
        return try pensieve(text, path: path, name: name)
    }

    static func sabre(_ data: Data, path: String, name: String) throws -> ABRTrace {
        guard let rows = (try? JSONSerialization.jsonObject(with: data)) as? [Any] else {
            throw ABRInputError("\(path): not a JSON array (a Sabre trace is [{duration_ms, bandwidth_kbps, ...}])")
        }
        var periods: [Period] = []
        for (i, row) in rows.enumerated() {
            guard let o = row as? [String: Any] else { throw ABRInputError("\(path): period \(i) is not an object") }
            func number(_ key: String, default fallback: Double? = nil) throws -> Double {
                if let n = o[key] as? NSNumber { return n.doubleValue }
                if o[key] == nil, let fallback { return fallback }
                throw ABRInputError("\(path): period \(i) has no number \(key)")
            }
            let duration = try checked(try number("duration_ms"), 0...1e12, "period \(i)'s duration_ms", in: path)
            let kbps = try checked(try number("bandwidth_kbps"), 0...1e10, "period \(i)'s bandwidth_kbps", in: path)
            let latency = try checked(
                try number("latency_ms", default: 0), 0...3.6e6, "period \(i)'s latency_ms", in: path)
            periods.append(Period(duration: duration / 1000, bandwidth: kbps * 1000, latency: latency / 1000))
        }
        return try rename(ABRTrace(name: path, periods: periods), name)
    }

    static func pensieve(_ text: String, path: String, name: String) throws -> ABRTrace {
        var points: [(time: Double, mbps: Double)] = []
        for (n, line) in text.split(whereSeparator: \.isNewline).enumerated() {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," })
            if fields.isEmpty { continue }
            guard fields.count >= 2, let t = Double(fields[0]), let mbps = Double(fields[1]) else {
                throw ABRInputError(
                    "\(path): line \(n + 1) is not \"time_s throughput_Mbps\" (nor is the file a Sabre JSON trace)")
            }
            _ = try checked(t, 0...1e9, "line \(n + 1)'s time_s", in: path)
            _ = try checked(mbps, 0...1e7, "line \(n + 1)'s throughput_Mbps", in: path)
            if let last = points.last, t <= last.time {
                throw ABRInputError("\(path): line \(n + 1)'s time \(t) does not follow \(last.time)")
            }
            points.append((t, mbps))
        }
        guard !points.isEmpty else { throw ABRInputError("\(path): the trace is empty") }
        let steps = zip(points, points.dropFirst()).map { $1.time - $0.time }.sorted()
        let lastStep = steps.isEmpty ? 1 : steps[steps.count / 2]
        var periods: [Period] = []
        for (i, p) in points.enumerated() {
            let end = i + 1 < points.count ? points[i + 1].time : p.time + lastStep
            periods.append(Period(duration: end - p.time, bandwidth: p.mbps * 1e6, latency: pensieveLatency))
        }
        return try rename(ABRTrace(name: path, periods: periods), name)
    }

    private static func rename(_ trace: ABRTrace, _ name: String) -> ABRTrace {
        var t = trace
        t.name = name
        return t
    }

    /// The traces at `paths`: each a file, or a folder whose regular files (not hidden) are read in name order.
    /// Throws for a path that does not exist, a folder with no trace, or any bad file.
    public static func load(paths: [String]) throws -> [ABRTrace] {
        var traces: [ABRTrace] = []
        for path in paths {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                throw ABRInputError("\(path): no such file or folder")
            }
            guard isFolder.boolValue else {
                traces.append(try load(URL(fileURLWithPath: path)))
                continue
            }
            let names: [String]
            do { names = try FileManager.default.contentsOfDirectory(atPath: path) } catch {
                throw ABRInputError("\(path): cannot list the folder (\(ABRInputError.reason(error)))")
            }
            let files = names.filter { !$0.hasPrefix(".") }.sorted()
                .map { URL(fileURLWithPath: path).appendingPathComponent($0) }
                .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
            guard !files.isEmpty else { throw ABRInputError("\(path): the folder holds no trace file") }
            for file in files { traces.append(try load(file)) }
        }
        return traces
    }
}
