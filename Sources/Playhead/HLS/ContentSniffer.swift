import Foundation

/// What a downloaded body is, judged by its first bytes rather than by its `Content-Type` (servers label valid
/// segments `text/html`, and serve HTML error or login pages as `video/mp2t`). Pure; any thread.
enum ContentSniffer {
    /// What the first bytes of a body look like.
    enum Kind: Equatable {
        /// A media format the HLS client plays: MPEG-TS, ID3-tagged packed audio, fMP4/CMAF boxes, ADTS AAC,
        /// MPEG audio, AC-3, or WebVTT.
        case media
        /// An HLS (or M3U) playlist: `#EXTM3U`.
        case playlist
        /// HTML markup: `<!DOCTYPE html`, `<html`, `<head` or `<body`.
        case html
        /// Nothing recognised (the `Content-Type` decides).
        case unknown
    }

    /// The box types an fMP4 segment or init section may start with.
    private static let boxTypes: Set<String> = ["ftyp", "styp", "moov", "moof", "sidx", "emsg", "prft", "free", "mdat"]

    /// The kind of `body`, from its first bytes.
    static func kind(of body: Data) -> Kind {
        let b = [UInt8](body.prefix(512))
        if isTransportStream(body) { return .media }
        if b.count >= 3, b[0] == 0x49, b[1] == 0x44, b[2] == 0x33 { return .media }  // "ID3"
        if b.count >= 8, let type = String(bytes: b[4..<8], encoding: .ascii), boxTypes.contains(type) {
            return .media
        }
        if b.count >= 2, b[0] == 0x0B, b[1] == 0x77 { return .media }  // AC-3 / E-AC-3 sync word
        if b.count >= 2, b[0] == 0xFF, b[1] & 0xE0 == 0xE0 { return .media }  // ADTS or MPEG audio frame sync
        let text = String(decoding: b.prefix(256), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines.union(CharacterSet(charactersIn: "\u{FEFF}")))
        if text.hasPrefix("#EXTM3U") { return .playlist }
        if text.hasPrefix("WEBVTT") { return .media }
        let lower = text.lowercased()
        if ["<!doctype html", "<html", "<head", "<body"].contains(where: { lower.hasPrefix($0) }) { return .html }
        return .unknown
    }

    /// Whether `body` is an HTML page in place of media or a playlist: HTML markup at its start, or a `text/html`
    /// type on a body whose start is neither media nor a playlist.
    static func isHTML(_ body: Data, contentType: String?) -> Bool {
        switch kind(of: body) {
        case .media, .playlist: return false
        case .html: return true
        case .unknown: return contentType?.lowercased().contains("text/html") == true
        }
    }

    /// MPEG-TS: the sync byte 0x47 at the start of every 188-byte packet (checked on the first three there are).
    static func isTransportStream(_ body: Data) -> Bool {
        guard body.count >= 188 else { return false }
        let start = body.startIndex
        return stride(from: 0, to: min(body.count, 3 * 188), by: 188).allSatisfy { body[start + $0] == 0x47 }
    }
}
