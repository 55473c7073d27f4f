/// The live edge as the status line counts from it: the seekable window's end, moved on in real time since it last
/// moved. A playlist reload moves the window a segment at a time, while the stream's edge goes on at a second a
/// second: "live -Ns" counted from the window's end alone wobbled by a segment (-13 s, -15 s, -14 s...) while
/// playing steadily. Between moves the estimate runs on by at most the last move, so a late reload holds it at the
/// edge the next one will show. Main actor (the session's value).
struct LiveEdgeEstimate {
    private var item: ObjectIdentifier?
    private var end = 0.0
    private var movedAt = ContinuousClock.now
    private var step = 0.0

    /// Moves larger than this (a window that jumped after a stall or a gap) are not taken as the pace of the edge.
    static let largestStep = 30.0

    /// The edge in item seconds, from the window end `windowEnd` of `item` seen at `now`.
    mutating func edge(windowEnd: Double, of item: ObjectIdentifier, at now: ContinuousClock.Instant = .now) -> Double {
        guard windowEnd.isFinite else { return windowEnd }
        if item != self.item || windowEnd < end {
            self = LiveEdgeEstimate(item: item, end: windowEnd, movedAt: now, step: 0)
        } else if windowEnd > end {
            step = windowEnd - end <= Self.largestStep ? windowEnd - end : 0
            end = windowEnd
            movedAt = now
        }
        let elapsed = now - movedAt
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return end + min(max(seconds, 0), step)
    }
}
