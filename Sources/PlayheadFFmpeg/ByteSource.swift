import CFFmpeg
import PlayheadCore

/// Bytes that FFmpeg reads through a custom `AVIOContext`: how the HLS client feeds segments to the demuxer.
///
/// Called only on the demux thread that owns the `MediaInput`; an implementation may block in `read` until data
/// arrives, and must return promptly once `MediaInput.interrupt()` has been called (check `isInterrupted`).
public protocol ByteSource: AnyObject {
    /// Copies up to `buffer.count` bytes into `buffer` and returns how many; 0 means the end of the bytes.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
    /// Moves to absolute `offset`; returns false when the source cannot seek.
    func seek(to offset: Int64) -> Bool
    /// The total size in bytes, when known.
    var size: Int64? { get }
    /// Aborts a blocking `read` from another thread (stop or seek); the default does nothing.
    func interrupt()
}

extension ByteSource {
    /// Nothing to abort.
    public func interrupt() {}
}

/// A byte source that knows where the time stamps in its bytes restart (an HLS stream's discontinuities) and says
/// how to shift them onto one continuous timeline. `MediaInput.readPacket` asks it for every packet, on the demux
/// thread, in read order.
public protocol TimestampAdjustingSource: ByteSource {
    /// Seconds to add to a packet whose data starts at byte `position` of this source's bytes (-1 when unknown)
    /// and whose decode (else presentation) time stamp is `seconds`.
    func timestampOffset(position: Int64, seconds: Double) -> Double
}

/// Thrown by a `ByteSource.read` that stops for its reader to act (a live HLS stream that asks its engine to jump
/// forward): FFmpeg sees `AVERROR_EXIT`, as for an interrupt, not an I/O error. A value type, safe anywhere.
public struct ByteSourceInterruption: Error, Sendable {
    /// The interruption.
    public init() {}
}

/// Adapts a `ByteSource` to FFmpeg's read and seek callbacks.
final class ByteSourceBridge {
    let source: any ByteSource
    var lastError: (any Error)?

    init(_ source: any ByteSource) { self.source = source }

    static let read: ph_read_fn = { opaque, buffer, size in
        guard let opaque, let buffer else { return ph_averror(EINVAL) }
        let bridge = Unmanaged<ByteSourceBridge>.fromOpaque(opaque).takeUnretainedValue()
        do {
            let n = try bridge.source.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: Int(size)))
            return n == 0 ? ph_averror_eof() : Int32(n)
        } catch is ByteSourceInterruption {
            return ph_averror_exit()
        } catch {
            bridge.lastError = error
            return ph_averror(EIO)
        }
    }

    static let seek: ph_seek_fn = { opaque, offset, whence in
        guard let opaque else { return Int64(ph_averror(EINVAL)) }
        let bridge = Unmanaged<ByteSourceBridge>.fromOpaque(opaque).takeUnretainedValue()
        if whence & ph_avseek_size() != 0 { return bridge.source.size ?? Int64(ph_averror(ENOSYS)) }
        let base: Int64
        switch whence & 3 {
        case SEEK_SET: base = 0
        case SEEK_END:
            guard let size = bridge.source.size else { return Int64(ph_averror(ENOSYS)) }
            base = size
        default: return Int64(ph_averror(ENOSYS))
        }
        return bridge.source.seek(to: base + offset) ? base + offset : Int64(ph_averror(EIO))
    }
}

/// A flag FFmpeg polls while it blocks (the `AVIOInterruptCB`), set from any thread to abort the wait, with an
/// optional deadline for the current blocking operation.
final class InterruptFlag: Sendable {
    private let state = Locked((interrupted: false, deadline: Double?.none))

    func interrupt() { state.withLock { $0.interrupted = true } }
    func reset() { state.withLock { $0.interrupted = false } }
    func setDeadline(_ deadline: Double?) { state.withLock { $0.deadline = deadline } }
    var isInterrupted: Bool { state.withLock { $0.interrupted } }
    /// Whether the deadline set has passed (not an interruption asked for).
    var deadlinePassed: Bool {
        state.withLock { s in !s.interrupted && s.deadline.map { MonotonicClock.now() > $0 } == true }
    }

    private var shouldStop: Bool {
        state.withLock { s in
            if s.interrupted { return true }
            if let d = s.deadline, MonotonicClock.now() > d { return true }
            return false
        }
    }

    static let callback: @convention(c) (UnsafeMutableRawPointer?) -> Int32 = { opaque in
        guard let opaque else { return 0 }
        return Unmanaged<InterruptFlag>.fromOpaque(opaque).takeUnretainedValue().shouldStop ? 1 : 0
    }
}

/// Bytes held in memory, read by FFmpeg as a seekable input (an HLS I-frame's byte range). Used by one thread at a
/// time (the one that reads the `MediaInput`).
package final class MemoryByteSource: ByteSource {
    private let bytes: [UInt8]
    private var position = 0

    /// A source reading `bytes`.
    package init(_ bytes: [UInt8]) { self.bytes = bytes }

    package func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let n = min(buffer.count, bytes.count - position)
        guard n > 0 else { return 0 }
        bytes.withUnsafeBytes {
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[position..<(position + n)]))
        }
        position += n
        return n
    }

    package func seek(to offset: Int64) -> Bool {
        guard offset >= 0, offset <= Int64(bytes.count) else { return false }
        position = Int(offset)
        return true
    }

    package var size: Int64? { Int64(bytes.count) }
}
