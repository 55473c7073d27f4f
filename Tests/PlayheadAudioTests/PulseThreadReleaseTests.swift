import CPulse
import Foundation
import PlayheadCore
import PlayheadTestSupport
import Testing

@testable import PlayheadAudio

/// What happens when the last reference to an output goes on PulseAudio's own mainloop thread.
@Suite(.serialized) struct PulseThreadReleaseTests {
    /// The connection's subscription callback reads each client's weak reference on the mainloop thread; when the
    /// app lets the output go meanwhile, that reference is the last and the output's `deinit` runs there. It took
    /// the mainloop lock, and libpulse aborted the process ("pa_threaded_mainloop_lock ... in_worker", seen in a
    /// full run during `AudioSessionTests`). Here a deferred event on the mainloop releases the last reference of an
    /// output whose stream plays: the process lives and the stream leaves the server.
    @Test func anOutputReleasedOnTheMainloopThreadClosesItsStream() throws {
        let sink = try TestSink()
        var output: PulseAudioOutput? = try PulseAudioOutput(device: sink.name)
        try output?.start(format: AudioFormat())
        let index = try #require(output?.sinkInputIndex)
        #expect(try roleOfSinkInput(index) != nil)
        let connection = PulseConnection.shared
        connection.lock()
        let api = try #require(pa_threaded_mainloop_get_api(connection.mainloop))
        let last = Unmanaged.passRetained(try #require(output)).toOpaque()
        output = nil
        let event = api.pointee.defer_new(
            api,
            { api, event, userdata in
                api?.pointee.defer_free(event)
                if let userdata { Unmanaged<PulseAudioOutput>.fromOpaque(userdata).release() }
            }, last)
        connection.unlock()
        #expect(event != nil)
        let deadline = Date().addingTimeInterval(5)
        while try roleOfSinkInput(index) != nil, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(try roleOfSinkInput(index) == nil, "sink input \(index) still on the server")
    }
}
