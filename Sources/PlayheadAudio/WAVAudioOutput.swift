import Foundation
import PlayheadCore

/// An output that writes 16-bit PCM to a WAV file as fast as samples arrive (`--ao=wav:PATH`), for tests and
/// exports. Frames count as heard once written. Safe from any thread; `write` is for the player's audio thread.
public final class WAVAudioOutput: AudioOutput, @unchecked Sendable {
    private struct State {
        var handle: FileHandle?
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

    /// An output writing to `path` (created or replaced when started).
    public init(path: String) { self.path = path }

    /// Creates the file and writes its header.
    public func start(format: AudioFormat) throws(PlaybackError) {
        guard FileManager.default.createFile(atPath: path, contents: Self.header(format: format, dataBytes: 0)),
            let handle = FileHandle(forWritingAtPath: path)
        else {
            throw PlaybackError(.audioOutput, source: path, reason: "cannot create the WAV file")
        }
        handle.seekToEndOfFile()
        state.withLock { $0 = State(handle: handle, format: format) }
    }

    /// Appends the samples as 16-bit PCM.
    public func write(_ samples: UnsafeBufferPointer<Float>) throws(PlaybackError) -> Int {
        var pcm = [Int16](repeating: 0, count: samples.count)
        for i in 0..<samples.count {
            pcm[i] = Int16(max(-1, min(1, samples[i])) * 32767)
        }
        let data = pcm.withUnsafeBytes { Data($0) }
        return state.withLock { s in
            s.handle?.write(data)
            s.dataBytes += Int64(data.count)
            let frames = samples.count / s.format.channels
            s.written += Int64(frames)
            return frames
        }
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

    /// Fixes the header's sizes and closes the file.
    public func stop() {
        state.withLock { s in
            guard let h = s.handle else { return }
            h.seek(toFileOffset: 0)
            h.write(Self.header(format: s.format, dataBytes: s.dataBytes))
            h.closeFile()
            s.handle = nil
        }
    }

    /// Frames written.
    public var playPosition: Int64 { state.withLock { $0.written } }
    /// Frames written.
    public var writePosition: Int64 { state.withLock { $0.written } }

    static func header(format: AudioFormat, dataBytes: Int64) -> Data {
        var d = Data()
        func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { d.append(contentsOf: $0) } }
        func u16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { d.append(contentsOf: $0) } }
        let size = UInt32(clamping: dataBytes)
        d.append(contentsOf: Array("RIFF".utf8))
        u32(36 &+ size)
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
