import Foundation

/// The outcome of one policy over one trace: the rung of every segment, and the stalls. A value type, safe
/// anywhere.
public struct ABRRun: Sendable, Hashable {
    /// The rung played for each segment, in order.
    public var rungs: [Int]
    /// Seconds the play head stood still after playback started (start-up excluded).
    public var rebufferSeconds: Double
    /// Simulated seconds at which the buffer ran dry while playing.
    public var stalls: [Double] = []
    /// Times the buffer ran dry while playing.
    public var rebufferEvents: Int
    /// Seconds from the first request to the first segment's arrival.
    public var startup: Double
    /// One download given up: when, which segment, from and to which rung. A value type, safe anywhere.
    public struct Abandon: Sendable, Hashable {
        /// Simulated seconds when it was given up.
        public var time: Double
        /// The segment.
        public var segment: Int
        /// The rung given up.
        public var from: Int
        /// The rung fetched instead.
        public var to: Int
    }

    /// Downloads given up, in order.
    public var abandons: [Abandon]
    /// The buffer (seconds) when each segment was requested.
    public var buffers: [Double]
    /// The simulated time each segment was requested.
    public var requestTimes: [Double]

    /// An empty run.
    public init() {
        (rungs, rebufferSeconds, rebufferEvents, startup, abandons, buffers, requestTimes) = ([], 0, 0, 0, [], [], [])
    }
}

/// Plays a movie over a trace with one controller, segment by segment, in continuous simulated time (Sabre's
/// model): a request waits while the buffer holds more than `maximumBuffer` minus one segment, a download takes
/// the latency of the period it starts in, then its bits at the trace's bandwidth; the buffer drains while playing
/// and a stall lasts until the segment in flight arrives; playback starts when the first segment arrives.
/// A value type; `run` runs on the caller's thread.
public struct ABRSession: Sendable {
    /// The movie played.
    public var movie: ABRMovie
    /// The network.
    public var trace: ABRTrace
    /// The most media the buffer may hold, in seconds (25 s, as Sabre).
    public var maximumBuffer: Double
    /// Seconds between abandonment checks during a download (0.25 s).
    public var checkInterval = 0.25
    /// Requests made before the first segment's, each taking its period's latency (0; an HLS player fetches the
    /// multivariant and the media playlist first: 2).
    public var requestsBeforeFirstSegment = 0
    /// Whether the first segment of each rung waits for a request for that rung's media playlist (its period's
    /// latency), as an HLS player loads a variant's playlist when it first switches to it (false: Sabre's model, a
    /// DASH manifest that lists every rung). The first segment's rung is the one `requestsBeforeFirstSegment` loaded.
    public var fetchesVariantPlaylists = false
    /// Seconds from a segment's arrival to the player's next request: its own time to act on it (handing the bytes
    /// to the demuxer, which asks for the next segment once it has read them; the decision). 0: Sabre's model, a
    /// player that reacts at once. The real-player comparison measures it from the player's log
    /// (`ABRPlayerLog.reactionTime`): on a loaded machine it grows, and the player's buffer with it falls behind.
    public var requestDelay = 0.0

    /// A session of `movie` over `trace` with a buffer of `maximumBuffer` seconds.
    public init(movie: ABRMovie, trace: ABRTrace, maximumBuffer: Double = 25) {
        self.movie = movie
        self.trace = trace
        self.maximumBuffer = maximumBuffer
    }

    /// Plays the movie with `controller` and returns what happened.
    public func run<C: ABRController>(_ controller: C) -> ABRRun {
        var controller = controller
        var run = ABRRun()
        var clock = Clock()
        let d = movie.segmentDuration
        var current: Int?
        var playlistsLoaded = Set<Int>()
        func context(_ segment: Int) -> ABRContext {
            ABRContext(
                movie: movie, segment: segment, buffer: clock.buffer, current: current, time: clock.time,
                isPlaying: clock.playing, maximumBuffer: maximumBuffer,
                playlistsLoaded: fetchesVariantPlaylists ? playlistsLoaded : nil)
        }
        for _ in 0..<requestsBeforeFirstSegment { clock.advance(trace.period(at: clock.time).latency) }
        for segment in 0..<movie.segmentCount {
            if segment > 0, requestDelay > 0 { clock.advance(requestDelay) }
            let room = maximumBuffer - d
            if clock.buffer > room { clock.advance(clock.buffer - room) }
            let decision = controller.decide(context(segment))
            var rung = min(max(decision.rung, 0), movie.bitratesKbps.count - 1)
            if decision.delay > 0, clock.playing { clock.advance(min(decision.delay, clock.buffer)) }
            run.buffers.append(clock.buffer)
            run.requestTimes.append(clock.time)
            while true {
                if fetchesVariantPlaylists, playlistsLoaded.insert(rung).inserted, segment > 0 {
                    clock.advance(trace.period(at: clock.time).latency)
                }
                let size = movie.segmentSizes[segment][rung]
                let start = clock.time
                let firstBit = start + trace.period(at: start).latency
                let end = trace.completion(ofBits: size, requestedAt: start)
                var transfer = ABRTransfer(
                    trace: trace, segment: segment, rung: rung, start: start, firstBit: firstBit, now: end, size: size)
                var replacement: Int?
                if clock.playing, controller.checksAbandonment {
                    var check = start + checkInterval
                    while check < end {
                        clock.advance(check - clock.time)
                        transfer.now = check
                        if let lower = controller.abandon(transfer, context: context(segment)), lower != rung,
                            (0..<movie.bitratesKbps.count).contains(lower)
                        {
                            replacement = lower
                            break
                        }
                        check += checkInterval
                    }
                }
                if let lower = replacement {
                    transfer.abandoned = true
                    controller.didDownload(transfer, context: context(segment))
                    run.abandons.append(.init(time: clock.time, segment: segment, from: rung, to: lower))
                    rung = lower
                    continue
                }
                clock.advance(end - clock.time)
                transfer.now = end
                if !clock.playing { run.startup = clock.time }
                clock.arrive(d)
                current = rung
                controller.didDownload(transfer, context: context(segment + 1))
                break
            }
            run.rungs.append(rung)
        }
        run.rebufferSeconds = clock.rebuffer
        run.rebufferEvents = clock.events
        run.stalls = clock.stallTimes
        return run
    }

    /// Simulated time, the buffer, and the stalls.
    struct Clock {
        var time = 0.0
        var buffer = 0.0
        var playing = false
        var stalled = false
        var rebuffer = 0.0
        var events = 0
        var stallTimes: [Double] = []

        mutating func advance(_ dt: Double) {
            guard dt > 0 else { return }
            let before = time
            time += dt
            guard playing else { return }
            if buffer >= dt {
                buffer -= dt
            } else {
                if !stalled {
                    events += 1
                    stallTimes.append(before + buffer)
                }
                rebuffer += dt - buffer
                buffer = 0
                stalled = true
            }
        }

        mutating func arrive(_ seconds: Double) {
            buffer += seconds
            playing = true
            stalled = false
        }
    }
}
