import Foundation
import PlayheadHLS
import Testing

/// Content steering manifests (issue 15): what is read, and each bad input refused with one reason.
@Suite struct SteeringManifestTests {
    let url = URL(string: "https://steer.example/v1/manifest.json?asset=1")!

    func parse(_ text: String) throws(SteeringManifestError) -> SteeringManifest {
        try SteeringManifest.parse(Data(text.utf8), url: url)
    }

    @Test func aFullManifestIsRead() throws {
        let m = try parse(
            """
            {"VERSION": 1, "TTL": 10, "RELOAD-URI": "next.json?session=2",
             "PATHWAY-PRIORITY": ["CDN-B", "CDN-A"],
             "PATHWAY-CLONES": [{"BASE-ID": "CDN-A", "ID": "CDN-C",
               "URI-REPLACEMENT": {"HOST": "cdn-c.example:8443", "PARAMS": {"token": "x y"},
                                   "PER-VARIANT-URIS": {"hi": "https://other.example/hi.m3u8"}}}]}
            """)
        #expect(m.ttl == 10)
        #expect(m.reloadURL?.absoluteString == "https://steer.example/v1/next.json?session=2")
        #expect(m.pathwayPriority == ["CDN-B", "CDN-A"])
        let clone = try #require(m.clones.first)
        #expect(clone.baseID == "CDN-A" && clone.id == "CDN-C")
        let variant = URL(string: "https://cdn-a.example/v/lo.m3u8?token=old&keep=1")!
        #expect(
            clone.clonedURL(variant, stableID: "lo")?.absoluteString
                == "https://cdn-c.example:8443/v/lo.m3u8?keep=1&token=x%20y")
        #expect(clone.clonedURL(variant, stableID: "hi")?.absoluteString == "https://other.example/hi.m3u8")
    }

    @Test func aMissingTTLIsFiveMinutes() throws {
        #expect(try parse(#"{"VERSION": 1, "PATHWAY-PRIORITY": ["A"]}"#).ttl == 300)
    }

    nonisolated static let bad: [(json: String, reason: String)] = [
        ("<html>steering</html>", "not a JSON object"),
        ("[1, 2]", "not a JSON object"),
        (#"{"VERSION": 2, "TTL": 10, "PATHWAY-PRIORITY": ["A"]}"#, "unknown VERSION 2 (1 is read)"),
        (#"{"TTL": 10, "PATHWAY-PRIORITY": ["A"]}"#, "unknown VERSION (none) (1 is read)"),
        (#"{"VERSION": 1, "TTL": 0, "PATHWAY-PRIORITY": ["A"]}"#, "TTL 0 is out of range (1-86400 s)"),
        (#"{"VERSION": 1, "TTL": 1000000000, "PATHWAY-PRIORITY": ["A"]}"#, "TTL 1000000000 is out of range"),
        (#"{"VERSION": 1, "TTL": "10", "PATHWAY-PRIORITY": ["A"]}"#, "TTL 10 is out of range"),
        (#"{"VERSION": 1, "TTL": 10, "PATHWAY-PRIORITY": []}"#, "PATHWAY-PRIORITY is missing or empty"),
        (#"{"VERSION": 1, "TTL": 10, "PATHWAY-PRIORITY": ["A", "A"]}"#, "PATHWAY-PRIORITY lists a pathway twice"),
        (#"{"VERSION": 1, "TTL": 10, "PATHWAY-PRIORITY": ["A B"]}"#, "bad pathway ID \"A B\""),
        (
            #"{"VERSION": 1, "PATHWAY-PRIORITY": ["A"], "RELOAD-URI": "file:///etc/passwd"}"#,
            "RELOAD-URI file:///etc/passwd is not an http(s) URI"
        ),
        (
            #"{"VERSION": 1, "PATHWAY-PRIORITY": ["A"], "PATHWAY-CLONES": [{"ID": "B"}]}"#,
            "a pathway clone without a valid BASE-ID and ID"
        ),
        (
            #"{"VERSION": 1, "PATHWAY-PRIORITY": ["A"], "PATHWAY-CLONES": [{"BASE-ID": "A", "ID": "B", "#
                + #""URI-REPLACEMENT": {"HOST": "evil.example/path"}}]}"#,
            "pathway clone B: bad HOST \"evil.example/path\""
        ),
    ]

    @Test(arguments: 0..<bad.count) func aBadManifestIsRefusedWithOneReason(_ index: Int) {
        let (json, reason) = Self.bad[index]
        #expect(throws: SteeringManifestError.self) { try parse(json) }
        do {
            _ = try parse(json)
        } catch {
            #expect(error.reason.hasPrefix(reason), "\(json): \(error.reason)")
        }
    }
}
