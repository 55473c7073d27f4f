import CFFmpeg
import Foundation

/// AES-128 in CBC mode with PKCS7 padding, decrypting a body chunk by chunk as it arrives (HLS `METHOD=AES-128`),
/// with FFmpeg's `av_aes` (libavutil). The last block is held back until `finish()`, which checks and strips the
/// padding. The key is kept only inside FFmpeg's context, which is wiped and freed with the decrypter.
///
/// Not thread-safe: one caller at a time (HLS: the loader's delegate queue while a body arrives, then the demux
/// thread for `finish`); `@unchecked Sendable` so it can be handed between them.
public final class AESDecrypter: @unchecked Sendable {
    /// Why a body could not be decrypted. A value type, safe anywhere.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The key is not 16 bytes (its length).
        case keyLength(Int)
        /// The IV is not 16 bytes (its length).
        case ivLength(Int)
        /// The body's length is not a whole number of 16-byte blocks (its length).
        case bodyLength(Int)
        /// The last block does not end with valid PKCS7 padding: the key or IV is wrong (or the body is not
        /// encrypted).
        case padding

        /// One line for error messages.
        public var description: String {
            switch self {
            case .keyLength(let n): "a key must be 16 bytes, not \(n)"
            case .ivLength(let n): "an IV must be 16 bytes, not \(n)"
            case .bodyLength(let n): "\(n) bytes is not a whole number of 16-byte AES blocks"
            case .padding: "the padding of the last block is not valid PKCS7"
            }
        }
    }

    /// The AES block size in bytes.
    public static let blockSize = 16

    private let context: OpaquePointer
    private var iv: [UInt8]
    private var pending: [UInt8] = []
    private var total = 0

    /// A decrypter for `key` and `iv` (16 bytes each). Throws `Failure` for other lengths.
    public init(key: [UInt8], iv: [UInt8]) throws(Failure) {
        guard key.count == Self.blockSize else { throw .keyLength(key.count) }
        guard iv.count == Self.blockSize else { throw .ivLength(iv.count) }
        guard let context = av_aes_alloc() else { fatalError("av_aes_alloc: out of memory") }
        self.context = context
        self.iv = iv
        _ = key.withUnsafeBufferPointer { av_aes_init(context, $0.baseAddress, 128, 1) }
    }

    deinit {
        // The expanded key lives in the context: wipe it before freeing.
        memset(UnsafeMutableRawPointer(context), 0, Int(av_aes_size))
        av_free(UnsafeMutableRawPointer(context))
    }

    /// Decrypts the next bytes of the body; returns the plaintext available so far (every whole block but the
    /// last, which may hold the padding).
    public func update(_ data: Data) -> Data {
        total += data.count
        pending.append(contentsOf: data)
        // Keep at least one whole block back for `finish`.
        let blocks = max(0, (pending.count - 1) / Self.blockSize)
        guard blocks > 0 else { return Data() }
        let out = decrypt(blocks: blocks)
        pending.removeFirst(blocks * Self.blockSize)
        return out
    }

    /// Decrypts what is left and strips the padding. Throws `Failure` when the body is not whole blocks or the
    /// padding is not valid (a wrong key or IV).
    public func finish() throws(Failure) -> Data {
        guard pending.count == Self.blockSize else { throw .bodyLength(total) }
        var out = decrypt(blocks: 1)
        pending.removeAll()
        guard let pad = out.last, pad >= 1, Int(pad) <= Self.blockSize, out.suffix(Int(pad)).allSatisfy({ $0 == pad })
        else { throw .padding }
        out.removeLast(Int(pad))
        return out
    }

    /// Decrypts the first `blocks` blocks of `pending`, chaining the IV.
    private func decrypt(blocks: Int) -> Data {
        var out = Data(count: blocks * Self.blockSize)
        out.withUnsafeMutableBytes { dst in
            pending.withUnsafeBufferPointer { src in
                iv.withUnsafeMutableBufferPointer { ivp in
                    av_aes_crypt(
                        context, dst.bindMemory(to: UInt8.self).baseAddress, src.baseAddress, Int32(blocks),
                        ivp.baseAddress, 1)
                }
            }
        }
        return out
    }

    /// Decrypts a whole body at once.
    public static func decrypt(_ body: Data, key: [UInt8], iv: [UInt8]) throws(Failure) -> Data {
        let d = try AESDecrypter(key: key, iv: iv)
        var out = d.update(body)
        out.append(try d.finish())
        return out
    }
}
