import PlayheadHLS

extension AdaptiveBitratePolicy {
    /// `bbb4k.json`'s ladder (1, 2.5, 5, 8, 16, 35 Mbit/s), or its lowest `count` rungs.
    static func fourK(rungs count: Int = 6) -> AdaptiveBitratePolicy {
        AdaptiveBitratePolicy(rungs: [1, 2.5, 5, 8, 16, 35].prefix(count).map { .init(peakBitRate: $0 * 1_000_000) })
    }

    /// `bbb.json`'s ladder (230 kbit/s to 6 Mbit/s, 10 rungs).
    static let bbb = AdaptiveBitratePolicy(
        rungs: [230, 331, 477, 688, 991, 1427, 2056, 2962, 5027, 6000].map { .init(peakBitRate: $0 * 1000) })
}

extension LinkHistory {
    /// A history (half-life 120 s) of `seconds` at `rate`, then, after `idle` seconds, `fastSeconds` at `fastRate`:
    /// a link after one slow spell, as Sabre's sd_fs traces have them.
    static func slowSpell(
        _ rate: Double, seconds: Double, then fastRate: Double, for fastSeconds: Double, idle: Double
    ) -> LinkHistory {
        var history = LinkHistory(halfLife: 120)
        history.add(rate: rate, duration: seconds, idle: 0)
        history.add(rate: fastRate, duration: fastSeconds, idle: idle)
        return history
    }
}
