import Foundation

/// A movie in Sabre's format: fixed-length segments, a ladder of bit rates, and each segment's size on each rung.
/// A value type, safe on any thread.
public struct ABRMovie: Sendable, Hashable {
    /// Where it came from (a file name), for messages.
    public var name: String
    /// The length of every segment in seconds.
    public var segmentDuration: Double
    /// The ladder in kbit/s, lowest first.
    public var bitratesKbps: [Double]
    /// `segmentSizes[segment][rung]`: bits.
    public var segmentSizes: [[Double]]

    /// A movie with these properties; throws when they are inconsistent (no rung, unsorted or non-positive
    /// bit rates, a segment without a size for every rung, a negative or non-finite size).
    public init(name: String, segmentDuration: Double, bitratesKbps: [Double], segmentSizes: [[Double]]) throws {
        _ = try checked(segmentDuration, 0.001...3600, "segment_duration_ms / 1000", in: name)
        guard !bitratesKbps.isEmpty else { throw ABRInputError("\(name): bitrates_kbps is empty") }
        for (i, b) in bitratesKbps.enumerated() {
            _ = try checked(b, 0.001...1e9, "bitrates_kbps[\(i)]", in: name)
            if i > 0, b <= bitratesKbps[i - 1] {
                throw ABRInputError("\(name): bitrates_kbps is not increasing at index \(i) (\(b))")
            }
        }
        guard !segmentSizes.isEmpty else { throw ABRInputError("\(name): segment_sizes_bits is empty") }
        for (s, sizes) in segmentSizes.enumerated() {
            guard sizes.count == bitratesKbps.count else {
                throw ABRInputError(
                    "\(name): segment_sizes_bits[\(s)] has \(sizes.count) sizes for \(bitratesKbps.count) bit rates")
            }
            for (r, size) in sizes.enumerated() {
                _ = try checked(size, 0...1e15, "segment_sizes_bits[\(s)][\(r)]", in: name)
            }
        }
        self.name = name
        self.segmentDuration = segmentDuration
        self.bitratesKbps = bitratesKbps
        self.segmentSizes = segmentSizes
    }

    /// The number of segments.
    public var segmentCount: Int { segmentSizes.count }

    /// The same movie cut to its first `count` segments (at least one).
    public func prefix(_ count: Int) -> ABRMovie {
        var copy = self
        copy.segmentSizes = Array(segmentSizes.prefix(max(count, 1)))
        return copy
    }

    /// Reads a Sabre movie file (`{"segment_duration_ms", "bitrates_kbps", "segment_sizes_bits"}`); throws a
    /// one-line `ABRInputError` naming the file when it is missing, not JSON, or inconsistent.
    public static func load(_ url: URL) throws -> ABRMovie {
        let name = url.path
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw ABRInputError("\(name): cannot read the movie file (\(ABRInputError.reason(error)))")
        }
        guard let object = try? JSONSerialization.jsonObject(with: data), let top = object as? [String: Any] else {
            throw ABRInputError("\(name): not a JSON object (a Sabre movie is {segment_duration_ms, ...})")
        }
        guard let duration = (top["segment_duration_ms"] as? NSNumber)?.doubleValue else {
            throw ABRInputError("\(name): segment_duration_ms is missing or not a number")
        }
        guard let rates = (top["bitrates_kbps"] as? [Any])?.map({ ($0 as? NSNumber)?.doubleValue }),
            rates.allSatisfy({ $0 != nil })
        else { throw ABRInputError("\(name): bitrates_kbps is missing or not an array of numbers") }
        guard let rows = top["segment_sizes_bits"] as? [Any] else {
            throw ABRInputError("\(name): segment_sizes_bits is missing or not an array")
        }
        var sizes: [[Double]] = []
        for (i, row) in rows.enumerated() {
            guard let r = (row as? [Any])?.map({ ($0 as? NSNumber)?.doubleValue }), r.allSatisfy({ $0 != nil }) else {
                throw ABRInputError("\(name): segment_sizes_bits[\(i)] is not an array of numbers")
            }
            sizes.append(r.map { $0! })
        }
        return try ABRMovie(
            name: name, segmentDuration: duration / 1000, bitratesKbps: rates.map { $0! },
            segmentSizes: sizes)
    }
}

extension ABRInputError {
    /// A short reason for a Foundation file error (the POSIX message when there is one).
    static func reason(_ error: any Error) -> String {
        let e = error as NSError
        if let posix = e.userInfo[NSUnderlyingErrorKey] as? NSError, posix.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(posix.code)))
        }
        if e.domain == NSCocoaErrorDomain, e.code == NSFileReadNoSuchFileError { return "no such file" }
        return e.localizedDescription
    }
}
