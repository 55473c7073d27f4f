import Foundation
import FoundationXML
import PlayheadNowPlaying
import PlayheadTestSupport
import Testing

/// One member of an interface as a comparable line: "method Seek(in x)", "property Rate d readwrite emits=true".
private typealias Members = Set<String>

/// What `../shared/corpora/mpris/mpris-interfaces.json` says an interface holds.
private func specMembers(_ interface: [String: Any]) -> Members {
    var out = Members()
    let defaultEmits =
        (interface["annotations"] as? [String: String])?["org.freedesktop.DBus.Property.EmitsChangedSignal"] ?? "true"
    for (name, args) in interface["methods"] as? [String: [[String: String]]] ?? [:] {
        let sig = args.map { "\($0["direction"] ?? "in") \($0["type"] ?? "?")" }.joined(separator: ", ")
        out.insert("method \(name)(\(sig))")
    }
    for (name, args) in interface["signals"] as? [String: [[String: String]]] ?? [:] {
        out.insert("signal \(name)(\(args.map { $0["type"] ?? "?" }.joined(separator: ", ")))")
    }
    for (name, value) in interface["properties"] as? [String: [String: Any]] ?? [:] {
        let emits =
            (value["annotations"] as? [String: String])?["org.freedesktop.DBus.Property.EmitsChangedSignal"]
            ?? defaultEmits
        out.insert("property \(name) \(value["type"] ?? "?") \(value["access"] ?? "?") emits=\(emits)")
    }
    return out
}

/// What the exported object's introspection XML says `interface` holds (nil when it is not exported).
private func exportedMembers(_ xml: XMLDocument, _ interface: String) throws -> Members? {
    guard let node = try xml.nodes(forXPath: "/node/interface[@name='\(interface)']").first as? XMLElement else {
        return nil
    }
    func attr(_ e: XMLElement, _ name: String) -> String { e.attribute(forName: name)?.stringValue ?? "" }
    func emitsAnnotation(_ e: XMLElement) -> String? {
        (e.elements(forName: "annotation").first {
            attr($0, "name") == "org.freedesktop.DBus.Property.EmitsChangedSignal"
        })
        .map { attr($0, "value") }
    }
    let defaultEmits = emitsAnnotation(node) ?? "true"
    var out = Members()
    for m in node.elements(forName: "method") {
        let sig = m.elements(forName: "arg").map {
            "\(attr($0, "direction").isEmpty ? "in" : attr($0, "direction")) \(attr($0, "type"))"
        }
        out.insert("method \(attr(m, "name"))(\(sig.joined(separator: ", ")))")
    }
    for s in node.elements(forName: "signal") {
        out.insert(
            "signal \(attr(s, "name"))(\(s.elements(forName: "arg").map { attr($0, "type") }.joined(separator: ", ")))")
    }
    for p in node.elements(forName: "property") {
        let emits = emitsAnnotation(p) ?? defaultEmits
        out.insert("property \(attr(p, "name")) \(attr(p, "type")) \(attr(p, "access")) emits=\(emits)")
    }
    return out
}

/// Introspects `bus`'s MPRIS object and compares each of `interfaces` with the specification's summary in the
/// shared corpora: every method signature, signal, property type, access and change signal; and that no other
/// MPRIS interface is exported.
func checkExportedInterfaces(_ bus: String, _ interfaces: [String]) async throws {
    let specURL = Paths.corpora.appendingPathComponent("mpris/mpris-interfaces.json")
    let spec = try #require(
        try JSONSerialization.jsonObject(with: Data(contentsOf: specURL)) as? [String: Any],
        "\(specURL.path) is not a JSON object")
    let all = try #require(spec["interfaces"] as? [String: [String: Any]])
    let path = try #require(spec["objectPath"] as? String)
    let r = try await run("busctl", ["--user", "--xml-interface", "introspect", bus, path])
    try #require(r.status == 0, "busctl introspect failed: \(r.stderr)")
    let xml = try XMLDocument(xmlString: r.stdout, options: [])
    for name in interfaces {
        let expected = specMembers(try #require(all[name], "\(name) is missing from the spec summary"))
        let exported = try #require(try exportedMembers(xml, name), "\(name) is not exported")
        #expect(expected.count >= 2, "\(name): the spec summary lists \(expected.sorted())")
        #expect(expected.subtracting(exported).sorted() == [], "\(name): missing or different")
        #expect(exported.subtracting(expected).sorted() == [], "\(name): not in the specification")
    }
    for name in all.keys where try exportedMembers(xml, name) != nil {
        #expect(interfaces.contains(name), "\(name) exported")
    }
}

extension PlayerctlTests {
    /// The two interfaces every player implements; TrackList and Playlists are optional (HasTrackList false).
    @Test func exportedObjectMatchesTheSpecification() async throws {
        let (_, player) = try freshCenter()
        try await checkExportedInterfaces(
            "org.mpris.MediaPlayer2.\(player)", ["org.mpris.MediaPlayer2", "org.mpris.MediaPlayer2.Player"])
    }
}
