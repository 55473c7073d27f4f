/// The last frames an output wrote, kept by frame number so that when the sound server goes away, the frames it
/// had been given and had not played yet can be written again to the next stream: the listener hears the media
/// go on where it stopped, and the clock does not jump over the buffered latency.
///
/// A value type used under its owner's lock (`PulseAudioOutput`: the mainloop lock); not thread-safe itself.
struct ReplayRing {
    private var samples: [Float] = []
    private var channels = 1
    /// The number of frames held (the ring's size).
    private(set) var capacity = 0
    /// One past the newest frame recorded; the ring holds frames `end - capacity ..< end` (those recorded).
    private(set) var end: Int64 = 0
    /// How many frames since `reset` were recorded, at most `capacity`.
    private var filled = 0

    /// Empties the ring and sizes it for `frames` frames of `channels` channels; frame numbers start at 0.
    mutating func reset(channels: Int, frames: Int) {
        self.channels = max(1, channels)
        capacity = max(0, frames)
        samples = [Float](repeating: 0, count: capacity * self.channels)
        end = 0
        filled = 0
    }

    /// Records `count` frames from `source` as frames `first ..< first + count`. A `first` other than `end` (the
    /// writer went back after a flush, or skipped) keeps only what stays contiguous.
    mutating func record(_ source: UnsafePointer<Float>, frames count: Int, at first: Int64) {
        guard capacity > 0, count > 0 else { return }
        if first != end {
            filled = first < end ? max(0, filled - Int(end - first)) : 0
        }
        var done = max(0, count - capacity)  // older frames of a long write are overwritten at once
        while done < count {
            let frame = first + Int64(done)
            let slot = Int(frame % Int64(capacity))
            let n = min(count - done, capacity - slot)
            samples.withUnsafeMutableBufferPointer { ring in
                (ring.baseAddress! + slot * channels).update(from: source + done * channels, count: n * channels)
            }
            done += n
        }
        end = first + Int64(count)
        filled = min(capacity, filled + count)
    }

    /// Whether every frame of `range` is held.
    func holds(_ range: Range<Int64>) -> Bool {
        range.isEmpty || (range.lowerBound >= end - Int64(filled) && range.upperBound <= end)
    }

    /// Calls `body` with the frames held from `first`, as many as lie contiguous in the ring up to `limit` frames
    /// and `end`; returns what `body` returns. `first` must be held.
    func withFrames<R>(from first: Int64, limit: Int, _ body: (UnsafeBufferPointer<Float>) -> R) -> R {
        let slot = Int(first % Int64(max(1, capacity)))
        let n = max(0, min(limit, Int(end - first), capacity - slot))
        return samples.withUnsafeBufferPointer { ring in
            body(UnsafeBufferPointer(rebasing: ring[slot * channels..<(slot + n) * channels]))
        }
    }
}
