import Foundation
import PlayheadFFmpeg
import PlayheadTestSupport
import Testing

/// The FFmpeg layer on its own: opening, reading, decoding, resampling, time-stretching, custom byte sources.
struct MediaInputTests {
    @Test func opensAndDecodesAFile() throws {
        let input = try MediaInput(location: try Fixtures.numberedVideo().path)
        #expect(abs(input.duration.seconds - 10) < 0.1)
        let v = try #require(input.bestStream(.video))
        let a = try #require(input.bestStream(.audio))
        #expect(input.streams[v].width == 320 && input.streams[v].height == 240)
        #expect(input.streams[a].sampleRate == 48_000)
        let decoder = try Decoder(input: input, stream: v)
        var frames = 0
        while let packet = try input.readPacket() {
            guard packet.streamIndex == v else { continue }
            try decoder.decode(packet) { _ in
                frames += 1
                return true
            }
        }
        try decoder.decode(nil) { _ in
            frames += 1
            return true
        }
        #expect(frames == 250)
    }

    @Test func resamplesAndStretches() throws {
        let input = try MediaInput(location: try Fixtures.tone(seconds: 2, ext: "flac").path)
        let a = try #require(input.bestStream(.audio))
        let decoder = try Decoder(input: input, stream: a)
        let resampler = Resampler(outputRate: 44_100, outputChannels: 2)
        var pcm: [Float] = []
        while let packet = try input.readPacket() {
            try decoder.decode(packet) { f in
                try resampler.convert(f, into: &pcm)
                return true
            }
        }
        try decoder.decode(nil) { f in
            try resampler.convert(f, into: &pcm)
            return true
        }
        resampler.drain(into: &pcm)
        let seconds = Double(pcm.count / 2) / 44_100
        #expect(abs(seconds - 2) < 0.01)
        let tempo = try TempoFilter(tempo: 1.5, sampleRate: 44_100, channels: 2)
        var fast: [Float] = []
        try pcm.withUnsafeBufferPointer { try tempo.process($0, flush: true, into: &fast) }
        let stretched = Double(fast.count / 2) / 44_100
        #expect(abs(stretched - 2.0 / 1.5) < 0.03)
    }

    @Test func readsThroughACustomByteSource() throws {
        let data = try Data(contentsOf: try Fixtures.tone(seconds: 1))
        let source = MemorySource(Array(data))
        let input = try MediaInput(source: source, name: "memory")
        #expect(input.bestStream(.audio) != nil)
        #expect(abs(input.duration.seconds - 1) < 0.05)
        var packets = 0
        while try input.readPacket() != nil { packets += 1 }
        #expect(packets > 40)
        #expect(source.reads > 0)
    }

    @Test func reportsErrorsWithTheirCodes() {
        #expect(throws: FFmpegError.self) { try MediaInput(location: "/nonexistent/x.mp4") }
        do {
            _ = try MediaInput(location: "/nonexistent/x.mp4")
        } catch {
            #expect(error.code == FFmpegError.noSuchFile)
            #expect(error.function == "avformat_open_input")
        }
    }
}

/// Bytes from memory, counted.
final class MemorySource: ByteSource {
    let bytes: [UInt8]
    var position = 0
    var reads = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        reads += 1
        let n = min(buffer.count, bytes.count - position)
        bytes.withUnsafeBytes {
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[position..<(position + n)]))
        }
        position += n
        return n
    }
    func seek(to offset: Int64) -> Bool {
        guard offset >= 0 && offset <= Int64(bytes.count) else { return false }
        position = Int(offset)
        return true
    }
    var size: Int64? { Int64(bytes.count) }
}
