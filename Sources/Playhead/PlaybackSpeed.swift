/// A speed the player controls offer, like `AVPlaybackSpeed`: a rate and its name in the speed menu. A value type,
/// safe anywhere.
public struct PlaybackSpeed: Sendable, Hashable {
    /// The rate it plays at (`Player.rate`), within 0.25...4.
    public let rate: Float
    /// The name in the speed menu ("Normal", "1.5×").
    public let localizedName: String

    /// The rate as the speed button writes it: "1×", "1.25×", "0.5×".
    public var localizedNumericName: String {
        var digits = String(format: "%.2f", Double(rate))
        while digits.hasSuffix("0") { digits.removeLast() }
        if digits.hasSuffix(".") { digits.removeLast() }
        return digits + "×"
    }

    /// A speed of `rate` named `localizedName`; nil when the rate is not a number within 0.25...4 (what a player
    /// plays at).
    public init?(rate: Float, localizedName: String) {
        guard rate.isFinite, rate >= 0.25, rate <= 4 else { return nil }
        self.rate = rate
        self.localizedName = localizedName
    }

    /// 0.5×, 1× (Normal), 1.25×, 1.5× and 2×, like `AVPlaybackSpeed.systemDefaultSpeeds`.
    public static let systemDefaultSpeeds: [PlaybackSpeed] = [
        (0.5, "0.5×"), (1, "Normal"), (1.25, "1.25×"), (1.5, "1.5×"), (2, "2×"),
    ].compactMap { PlaybackSpeed(rate: $0.0, localizedName: $0.1) }
}
