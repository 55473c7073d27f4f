import Foundation
import PlayheadCore
import PlayheadFFmpeg
import PlayheadHLS

/// The decryption keys of one item's HLS stream: each key URI is loaded once (over HTTP with the item's fetch,
/// from a `data:` URI, or from the app's `AssetResourceLoader` delegate for other schemes) and kept in memory for
/// the item's life only: never written anywhere, never logged (errors name the key URI, and only the scheme of a
/// `data:` URI, which holds the key itself).
///
/// Threads: used on the engine's demux thread only (`@unchecked Sendable` as the source that owns it).
final class HLSKeyStore: @unchecked Sendable {
    private var keys: [String: [UInt8]] = [:]
    private let fetch: HTTPFetch
    private let resourceLoader: AssetResourceLoader?

    init(fetch: HTTPFetch, resourceLoader: AssetResourceLoader?) {
        self.fetch = fetch
        self.resourceLoader = resourceLoader
    }

    /// How a segment (or init section) must be decrypted: nil when it is clear. Throws `.unsupported` for a
    /// method or key format Playhead cannot decrypt, so encrypted media never reaches the decoders.
    func decryption(
        for keys: [SegmentKey], mediaSequence: Int?, resource: URL
    ) throws(PlaybackError) -> HLSDecryption? {
        guard let key = try Self.usableKey(keys, resource: resource) else { return nil }
        guard let url = key.url else {
            throw PlaybackError(.parsing, source: resource.absoluteString, reason: "its EXT-X-KEY has no valid URI")
        }
        let name = Self.displayName(url)
        // Sample encryption (fMP4 Common Encryption, `cenc` or `cbcs`): the demuxer decrypts the samples; their IVs
        // are in the media.
        if key.method == .sampleAESCTR || key.method == .sampleAES {
            return HLSDecryption(
                key: try load(url), iv: [], keyURI: name, bySamples: true, method: key.method.rawValue)
        }
        if let text = key.unreadableIV {
            throw PlaybackError(
                .parsing, source: name,
                reason: "the IV \"\(text)\" is not hexadecimal; AES-128 needs 0x and 32 hexadecimal digits")
        }
        if let iv = key.iv, iv.count > AESDecrypter.blockSize {
            throw PlaybackError(
                .parsing, source: name,
                reason: "the IV is \(iv.count) bytes; AES-128 needs 16 (32 hexadecimal digits)")
        }
        guard key.iv != nil || mediaSequence != nil else {
            throw PlaybackError(
                .parsing, source: resource.absoluteString,
                reason: "an encrypted EXT-X-MAP needs an IV in its EXT-X-KEY (RFC 8216bis 4.4.4.5)")
        }
        let bytes = try load(url)
        return HLSDecryption(
            key: bytes, iv: key.initializationVector(mediaSequence: mediaSequence ?? 0), keyURI: name)
    }

    /// The key to decrypt with among those in effect: nil for clear media; an error for what cannot be decrypted.
    static func usableKey(_ keys: [SegmentKey], resource: URL) throws(PlaybackError) -> SegmentKey? {
        let active = keys.filter { $0.method != .none }
        guard !active.isEmpty else { return nil }
        guard let key = active.first(where: { $0.effectiveKeyFormat == "identity" }) else {
            let formats = active.map { "\"\($0.effectiveKeyFormat)\"" }.joined(separator: ", ")
            throw PlaybackError(
                .unsupported, source: resource.absoluteString,
                reason: "encrypted with KEYFORMAT \(formats) (DRM); only identity keys are supported")
        }
        switch key.method {
        case .aes128, .sampleAES, .sampleAESCTR:
            return key
        default:
            throw PlaybackError(
                .unsupported, source: resource.absoluteString,
                reason: "encrypted with METHOD=\(key.method), which is not an HLS method (RFC 8216: AES-128, "
                    + "SAMPLE-AES, SAMPLE-AES-CTR)")
        }
    }

    /// Whether the key in effect among `keys` encrypts samples (SAMPLE-AES, SAMPLE-AES-CTR) rather than whole
    /// segments.
    static func isSampleEncryption(_ keys: [SegmentKey]) -> Bool {
        keys.contains { [.sampleAES, .sampleAESCTR].contains($0.method) && $0.effectiveKeyFormat == "identity" }
    }

    /// How a key URI appears in messages: as written, but a `data:` URI only by its scheme (it holds the key).
    static func displayName(_ url: URL) -> String {
        url.scheme?.lowercased() == "data" ? "data: key URI (in the playlist)" : url.absoluteString
    }

    /// The 16 bytes of the key at `url`, loaded the first time it is asked for.
    private func load(_ url: URL) throws(PlaybackError) -> [UInt8] {
        let id = url.absoluteString
        if let known = keys[id] { return known }
        let name = Self.displayName(url)
        let bytes: Data
        switch url.scheme?.lowercased() {
        case "data":
            guard let decoded = Self.dataURIBytes(id) else {
                throw PlaybackError(.parsing, source: name, reason: "not a valid data: URI")
            }
            bytes = decoded
        case "http", "https", "file":
            if let answered = try ask(url) {
                bytes = answered
            } else {
                let response = try fetchKey(url)
                if HLSSource.isHTML(response) {
                    throw PlaybackError(.parsing, source: name, reason: "an HTML page, not a 16-byte key")
                }
                bytes = response.body
            }
        default:
            guard let answered = try ask(url) else {
                throw PlaybackError(
                    .unsupported, source: name,
                    reason: "a key URI with scheme \"\(url.scheme ?? "")\" that no resource loader delegate answered")
            }
            bytes = answered
        }
        guard bytes.count == AESDecrypter.blockSize else {
            throw PlaybackError(.parsing, source: name, reason: "a key must be 16 bytes; this one is \(bytes.count)")
        }
        keys[id] = [UInt8](bytes)
        return keys[id]!
    }

    /// Called after a failed key request with the error and the retries so far: true when it waited and the
    /// request should be tried again (set by the source to its retry policy).
    var retrying: ((PlaybackError, Int) -> Bool)?

    /// A key request over HTTP, tried again after a transient failure as segments are, but a time-out only once: a
    /// key server that does not answer is asked twice in all (as hls.js's key loading policy does), so the item
    /// fails after two network time-outs rather than one per retry (47 s by default, nothing playing meanwhile).
    private func fetchKey(_ url: URL) throws(PlaybackError) -> HTTPFetch.Response {
        var retries = 0
        var timedOut = false
        while true {
            do {
                // A key is 16 bytes: anything far larger is not one (read no further than this).
                return try fetch.get(url, limit: 4096, deadline: fetch.playlistDeadline)
            } catch {
                let timeout = fetch.lastErrorWasTimeout
                guard !(timeout && timedOut), retrying?(error, retries) == true else { throw error }
                timedOut = timedOut || timeout
                retries += 1
            }
        }
    }

    /// The delegate's answer for `url`, nil when there is no delegate or it declines.
    private func ask(_ url: URL) throws(PlaybackError) -> Data? {
        guard let resourceLoader else { return nil }
        return try resourceLoader.load(url, name: Self.displayName(url), within: fetch.playlistDeadline) {
            [fetch] in fetch.stopping?() == true
        }
    }

    /// The bytes of a `data:` URI (`data:[type][;base64],payload`), nil when it is malformed.
    static func dataURIBytes(_ uri: String) -> Data? {
        guard let comma = uri.firstIndex(of: ",") else { return nil }
        let header = uri[..<comma].lowercased()
        let payload = String(uri[uri.index(after: comma)...])
        if header.hasSuffix(";base64") {
            var text = payload.removingPercentEncoding ?? payload
            text = text.filter { !$0.isWhitespace }
            while text.count % 4 != 0 { text += "=" }
            return Data(base64Encoded: text)
        }
        return percentDecoded(payload)
    }

    /// The bytes of percent-encoded text (`%xx` escapes; other characters as UTF-8), nil for a bad escape.
    static func percentDecoded(_ text: String) -> Data? {
        var out = Data()
        var bytes = Array(text.utf8)[...]
        while let b = bytes.popFirst() {
            guard b == UInt8(ascii: "%") else {
                out.append(b)
                continue
            }
            guard bytes.count >= 2, let v = UInt8(String(decoding: bytes.prefix(2), as: UTF8.self), radix: 16) else {
                return nil
            }
            out.append(v)
            bytes = bytes.dropFirst(2)
        }
        return out
    }
}

/// How one segment or init section is decrypted: its key, its IV and the key URI as messages name it. A value
/// type; the key bytes stay in memory and are never printed (no description of its own beyond the default).
struct HLSDecryption: Sendable {
    var key: [UInt8]
    var iv: [UInt8]
    /// The key URI for messages (`HLSKeyStore.displayName`).
    var keyURI: String
    /// The samples are encrypted (SAMPLE-AES, SAMPLE-AES-CTR: MP4 Common Encryption), not the segment: its bytes
    /// are fetched as they are and the MP4 demuxer decrypts the samples with `key`.
    var bySamples = false
    /// The method, for messages.
    var method = "AES-128"

    /// A fresh decrypter (one per download attempt).
    func decrypter() throws(PlaybackError) -> AESDecrypter {
        do {
            return try AESDecrypter(key: key, iv: iv)
        } catch {
            throw PlaybackError(.parsing, source: keyURI, reason: error.description)
        }
    }

    /// The end of a decrypted body: the last block, its padding checked, and the plaintext checked to be media.
    /// "Wrong key or IV", naming the key URI, when it is not.
    func finish(_ decrypter: AESDecrypter, _ response: HTTPFetch.Response, _ url: URL) throws(PlaybackError) -> Data {
        var body = response.body
        do {
            body.append(try decrypter.finish())
        } catch {
            throw PlaybackError(
                .parsing, source: keyURI,
                reason: "wrong key or IV: \(url.lastPathComponent) does not decrypt (\(error.description))")
        }
        switch ContentSniffer.kind(of: body) {
        case .media, .playlist:
            return body
        case .html, .unknown:
            throw PlaybackError(
                .parsing, source: keyURI,
                reason: "wrong key or IV: \(url.lastPathComponent) does not decrypt to media")
        }
    }
}
