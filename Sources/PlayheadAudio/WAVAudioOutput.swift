import Foundation
import PlayheadCore

/// An output that writes 16-bit PCM to a WAV file as fast as samples arrive (`--ao=wav:PATH`), for tests and
/// exports. Frames count as heard once written. Safe from any thread; `write` is for the player's audio thread.
public final class WAVAudioOutput: AudioOutput, @unchecked Sendable {
    private struct State {
        var fd: Int32 = -1
        /// Whether the header's sizes can be written at the end (a file; not a pipe or a device).
        var seekable = false
        var format = AudioFormat()
        var written: Int64 = 0
        var dataBytes: Int64 = 0
    }

    private let state = Locked(State())
    /// The file written.
    public let path: String
    /// "wav".
    public let name = "wav"
    /// Ignored: a file has no server.
    public var eventHandler: (@Sendable (AudioOutputEvent) -> Void)?

    /// An output writing to `path` when started (`OutputFile`: in place; an existing file only when it is empty
    /// or a WAV file).
    public init(path: String) { self.path = path }

    deinit { stop() }

    /// Whether `head` (a file's first bytes) is a WAV file's: an existing one may be written over.
    public static func isWAV(_ head: Data) -> Bool {
        head.count >= 12 && head.prefix(4) == Data("RIFF".utf8) && head.dropFirst(8).prefix(4) == Data("WAVE".utf8)
    }

    /// Opens the file (emptied) and writes its header; a header of unknown sizes to a pipe or a device.
    public func start(format: AudioFormat) throws(PlaybackError) {
        stop()
        let opened: (fd: Int32, seekable: Bool)
        do {
            opened = try OutputFile.open(path, kind: "a WAV file", isOurs: Self.isWAV)
        } catch {
            throw PlaybackError(.audioOutput, source: path, reason: reason(error.description))
        }
        let header = Self.header(format: format, dataBytes: opened.seekable ? 0 : nil)
        if let failure = OutputFile.write(header, to: opened.fd) {
            close(opened.fd)
            throw PlaybackError(.audioOutput, source: path, reason: "cannot write the WAV file: \(failure)")
        }
        state.withLock { $0 = State(fd: opened.fd, seekable: opened.seekable, format: format) }
    }

    /// The error's words without the path it starts with (the error names it).
    private func reason(_ line: String) -> String {
        line.hasPrefix(path + ": ") ? String(line.dropFirst(path.count + 2)) : line
    }

    /// Appends the samples as 16-bit PCM. Throws when the file cannot take them (a full disk).
    public func write(_ samples: UnsafeBufferPointer<Float>) throws(PlaybackError) -> Int {
        var pcm = [Int16](repeating: 0, count: samples.count)
        for i in 0..<samples.count {
            pcm[i] = Int16(max(-1, min(1, samples[i])) * 32767)
        }
        let data = pcm.withUnsafeBytes { Data($0) }
        let (frames, failure) = state.withLock { s -> (Int, String?) in
            guard s.fd >= 0 else { return (0, nil) }
            if let failure = OutputFile.write(data, to: s.fd) { return (0, failure) }
            s.dataBytes += Int64(data.count)
            let frames = samples.count / max(s.format.channels, 1)
            s.written += Int64(frames)
            return (frames, nil)
        }
        if let failure {
            throw PlaybackError(.audioOutput, source: path, reason: "cannot write the WAV file: \(failure)")
        }
        return frames
    }

    /// Nothing blocks.
    public func interruptWrite() {}
    /// Nothing blocks.
    public func resumeWrites() {}
    /// A file does not pause.
    public func setPaused(_ paused: Bool) {}
    /// Written data stays written.
    public func flush() {}
    /// Everything written is already in the file.
    public func drain() -> Bool { true }

    /// Fixes the header's sizes (in a file) and closes it.
    public func stop() {
        state.withLock { s in
            guard s.fd >= 0 else { return }
            if s.seekable, lseek(s.fd, 0, SEEK_SET) == 0 {
                _ = OutputFile.write(Self.header(format: s.format, dataBytes: s.dataBytes), to: s.fd)
            }
            close(s.fd)
            s.fd = -1
        }
    }

    /// Frames written.
    public var playPosition: Int64 { state.withLock { $0.written } }
    /// Frames written.
    public var writePosition: Int64 { state.withLock { $0.written } }

    /// The 44-byte header; sizes of `0xFFFFFFFF` when unknown (`nil`: a stream to a pipe, as other tools write it).
    static func header(format: AudioFormat, dataBytes: Int64?) -> Data {
        var d = Data()
        func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { d.append(contentsOf: $0) } }
        func u16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { d.append(contentsOf: $0) } }
        let size = dataBytes.map { UInt32(clamping: $0) } ?? .max
        d.append(contentsOf: Array("RIFF".utf8))
        u32(dataBytes == nil ? .max : 36 &+ size)
        d.append(contentsOf: Array("WAVEfmt ".utf8))
        u32(16)
        u16(1)
        u16(UInt16(format.channels))
        u32(UInt32(format.sampleRate))
        u32(UInt32(format.sampleRate * format.channels * 2))
        u16(UInt16(format.channels * 2))
        u16(16)
        d.append(contentsOf: Array("data".utf8))
        u32(size)
        return d
    }
}
