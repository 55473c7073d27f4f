import Foundation
import PlayheadTestSupport
import Testing

/// Live streams started together when a suite begins and stopped when it ends (the suite trait `.liveStreams`):
/// each test finds its stream already listing segments, instead of waiting in real time for a new writer's first
/// segments. A test takes its stream by name (`LiveStreams.stream(_:)`); the streams are the tests' own, as before,
/// only started earlier.
struct LiveStreams: SuiteTrait, TestScoping {
    /// The streams of the suite running now, by name.
    @TaskLocal static var running: [String: LiveHLSStream] = [:]

    /// Starts the suite's streams.
    let start: @Sendable () throws -> [LiveHLSStream]

    var isRecursive: Bool { false }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let streams = try start()
        defer { for stream in streams { stream.stop() } }
        let byName = Dictionary(streams.map { ($0.name, $0) }) { first, _ in first }
        try await Self.$running.withValue(byName) { try await function() }
    }

    /// The running suite's stream `name`.
    static func stream(_ name: String) throws -> LiveHLSStream {
        guard let stream = running[name] else {
            throw TestSupportError("the suite started no live stream \(name) (its trait .liveStreams names them)")
        }
        return stream
    }
}

extension Trait where Self == LiveStreams {
    /// Starts the live streams `start` makes when the suite begins, and stops them when it ends.
    static func liveStreams(_ start: @escaping @Sendable () throws -> [LiveHLSStream]) -> Self {
        Self(start: start)
    }
}
