import Foundation

/// A content steering manifest (HLS Content Steering 1.2, named by `EXT-X-CONTENT-STEERING`): which pathway to
/// prefer, when to ask again, and pathways cloned from others with their URIs rewritten. Every number and name is
/// checked as it is read. A value type, safe anywhere.
public struct SteeringManifest: Sendable, Hashable {
    /// `VERSION`: 1, the only one defined.
    public var version: Int
    /// `TTL`: seconds until the manifest is asked for again, within `ttlRange` (300 when absent).
    public var ttl: Int
    /// `RELOAD-URI`, resolved against the manifest's URL: where to ask next time (nil: the same URL).
    public var reloadURL: URL?
    /// `PATHWAY-PRIORITY`: pathway IDs, most preferred first; never empty, no ID twice.
    public var pathwayPriority: [String]
    /// `PATHWAY-CLONES`, in order.
    public var clones: [PathwayClone]

    /// One of `PATHWAY-CLONES`: pathway `id` is a copy of pathway `baseID` whose variants' URIs are rewritten.
    public struct PathwayClone: Sendable, Hashable {
        /// `BASE-ID`: the pathway copied.
        public var baseID: String
        /// `ID`: the new pathway's ID.
        public var id: String
        /// `URI-REPLACEMENT.HOST`: the host (with an optional port) put in the copied URIs; nil keeps theirs.
        public var host: String?
        /// `URI-REPLACEMENT.PARAMS`: query parameters added to the copied URIs (replacing those of the same name).
        public var params: [String: String]
        /// `URI-REPLACEMENT.PER-VARIANT-URIS`: by `STABLE-VARIANT-ID`, a whole new URI for that variant.
        public var perVariantURLs: [String: URL]

        /// The clone's URL for a base pathway variant at `url` with `STABLE-VARIANT-ID` `stableID`: its per-variant
        /// URI when there is one, else `url` with the host and the parameters replaced. Any thread.
        public func clonedURL(_ url: URL, stableID: String?) -> URL? {
            if let stableID, let whole = perVariantURLs[stableID] { return whole }
            guard var c = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return nil }
            if let host {
                let parts = host.split(separator: ":", maxSplits: 1)
                c.host = String(parts[0])
                c.port = parts.count == 2 ? Int(parts[1]) : nil
            }
            if !params.isEmpty {
                var items = (c.queryItems ?? []).filter { params[$0.name] == nil }
                items += params.keys.sorted().map { URLQueryItem(name: $0, value: params[$0]) }
                c.queryItems = items
            }
            return c.url
        }
    }

    /// The `TTL`s accepted: a second to a day.
    public static let ttlRange = 1...86_400

    /// Reads a steering manifest fetched from `url` (relative URIs resolve against it), on any thread. Throws one
    /// reason naming what is wrong: not JSON, an unknown `VERSION`, a `TTL` out of range, an empty or repeated priority, a bad
    /// pathway ID, a clone without its fields.
    public static func parse(_ data: Data, url: URL) throws(SteeringManifestError) -> SteeringManifest {
        guard let any = try? JSONSerialization.jsonObject(with: data), let object = any as? [String: Any] else {
            throw SteeringManifestError("not a JSON object")
        }
        guard let version = object["VERSION"] as? Int, version == 1 else {
            throw SteeringManifestError("unknown VERSION \(object["VERSION"].map { "\($0)" } ?? "(none)") (1 is read)")
        }
        var ttl = 300
        if let value = object["TTL"] {
            guard let seconds = value as? Double, seconds.isFinite, Double(ttlRange.lowerBound) <= seconds,
                seconds <= Double(ttlRange.upperBound)
            else {
                throw SteeringManifestError(
                    "TTL \(value) is out of range (\(ttlRange.lowerBound)-\(ttlRange.upperBound) s)")
            }
            ttl = Int(seconds.rounded(.up))
        }
        var reloadURL: URL?
        if let value = object["RELOAD-URI"] {
            guard let text = value as? String, let u = URL(string: text, relativeTo: url)?.absoluteURL,
                u.scheme == "http" || u.scheme == "https"
            else { throw SteeringManifestError("RELOAD-URI \(value) is not an http(s) URI") }
            reloadURL = u
        }
        guard let priority = object["PATHWAY-PRIORITY"] as? [String], !priority.isEmpty else {
            throw SteeringManifestError("PATHWAY-PRIORITY is missing or empty")
        }
        guard Set(priority).count == priority.count else {
            throw SteeringManifestError("PATHWAY-PRIORITY lists a pathway twice")
        }
        for id in priority where !isPathwayID(id) { throw SteeringManifestError("bad pathway ID \"\(id)\"") }
        var clones: [PathwayClone] = []
        if let value = object["PATHWAY-CLONES"] {
            guard let list = value as? [[String: Any]] else {
                throw SteeringManifestError("PATHWAY-CLONES is not a list of objects")
            }
            clones = try list.map { (c: [String: Any]) throws(SteeringManifestError) in try clone(c, url: url) }
        }
        return SteeringManifest(
            version: version, ttl: ttl, reloadURL: reloadURL, pathwayPriority: priority, clones: clones)
    }

    static func clone(_ c: [String: Any], url: URL) throws(SteeringManifestError) -> PathwayClone {
        guard let base = c["BASE-ID"] as? String, let id = c["ID"] as? String, isPathwayID(base), isPathwayID(id)
        else { throw SteeringManifestError("a pathway clone without a valid BASE-ID and ID") }
        let replacement = c["URI-REPLACEMENT"] as? [String: Any] ?? [:]
        let host = replacement["HOST"] as? String
        if let host, host.isEmpty || host.contains(where: { "/?#@ ".contains($0) }) {
            throw SteeringManifestError("pathway clone \(id): bad HOST \"\(host)\"")
        }
        var perVariant: [String: URL] = [:]
        for (key, value) in replacement["PER-VARIANT-URIS"] as? [String: String] ?? [:] {
            guard let u = URL(string: value, relativeTo: url)?.absoluteURL else {
                throw SteeringManifestError("pathway clone \(id): bad URI for variant \(key)")
            }
            perVariant[key] = u
        }
        return PathwayClone(
            baseID: base, id: id, host: host, params: replacement["PARAMS"] as? [String: String] ?? [:],
            perVariantURLs: perVariant)
    }

    /// Whether `id` is a legal pathway ID: ASCII letters, digits, `-`, `.` and `_`. Any thread.
    public static func isPathwayID(_ id: String) -> Bool {
        !id.isEmpty
            && id.unicodeScalars.allSatisfy {
                $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "-._".unicodeScalars.contains($0))
            }
    }
}

/// Why a steering manifest was not taken: one reason, for a message that names its URL. Safe anywhere.
public struct SteeringManifestError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with the manifest, as a phrase ("TTL 0 is out of range (1-86400 s)").
    public var reason: String
    /// An error for `reason`.
    public init(_ reason: String) { self.reason = reason }
    /// The reason.
    public var description: String { reason }
}
