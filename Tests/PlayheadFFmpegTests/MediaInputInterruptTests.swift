import Foundation
import PlayheadFFmpeg
import PlayheadTestSupport
import Testing

/// A read that an interruption ended, then `resume()`: reading goes on (the demux thread spun on the interruption
/// when FFmpeg's byte reader kept it as its error, a hang in a fresh-machine run).
struct MediaInputInterruptTests {
    @Test func aReadEndedByAnInterruptionGoesOnAfterResume() throws {
        let input = try MediaInput(location: try Fixtures.numberedVideo().path)
        var before = 0
        while try input.readPacket() != nil {
            before += 1
            if before == 10 { break }
        }
        input.interrupt()
        // The buffered bytes may still give packets; the next read from the file is interrupted.
        var interrupted = false
        do {
            while try input.readPacket() != nil { before += 1 }
        } catch {
            interrupted = error.code == FFmpegError.exit
        }
        #expect(interrupted, "no read was interrupted")
        input.resume()
        var after = 0
        while let packet = try input.readPacket() {
            _ = packet
            after += 1
        }
        #expect(after > 100, "\(after) packets read after the interruption (\(before) before)")
    }
}
