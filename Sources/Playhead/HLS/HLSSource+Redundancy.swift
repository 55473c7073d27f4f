import Foundation
import PlayheadCore
import PlayheadHLS

/// Redundant variants and pathways: the copies of a variant (the same `STABLE-VARIANT-ID`, or the same attributes
/// with another URI) and the pathways (`PATHWAY-ID`) are tried in turn. The policy chooses only among the variants
/// of the first pathway that has one out of the penalty box, and only the first copy of each there; when a variant
/// fails, the next copy, or the next pathway, takes its place until the penalty is over. Demux thread.
extension HLSAdaptiveState {
    /// What makes variants copies of one another: `STABLE-VARIANT-ID`, else every attribute but `PATHWAY-ID`.
    static func redundancyKey(_ variant: Variant) -> String {
        if let id = variant.stream.stableVariantID { return "id " + id }
        var attributes = variant.stream
        attributes.pathwayID = nil
        return "attributes \(attributes)"
    }

    /// The pathway playing now: the first in `pathwayOrder` with a variant that can be chosen (decodable, out of
    /// the penalty box).
    var activePathway: String? {
        pathwayOrder.first { p in variants.indices.contains { pathways[$0] == p && isAvailable($0) } }
    }

    /// Whether `rung` can be decoded and is out of the penalty box.
    func isAvailable(_ rung: Int) -> Bool { supported[rung] && penalties[rung] == nil }

    /// Sets which rungs the policy may choose: those of the active pathway that are available, one copy of each.
    func refreshRungs() {
        let active = activePathway
        var taken = Set<String>()
        for r in variants.indices {
            policy.rungs[r].isSupported =
                isAvailable(r) && pathways[r] == active && taken.insert(groups[r]).inserted
        }
    }

    /// Adds `variant` to the ladder (a pathway clone's copy), last; the policy may choose it once its pathway is
    /// the active one.
    func add(_ variant: Variant) {
        let supports = variant.codecList.allSatisfy(CodecSupport.isDecodable)
        variants.append(variant)
        policy.rungs.append(AdaptiveBitratePolicy.Rung(variant, isSupported: false))
        supported.append(supports)
        groups.append(Self.redundancyKey(variant))
        pathways.append(variant.stream.pathwayID ?? ".")
        if !pathwayOrder.contains(pathways[pathways.count - 1]) { pathwayOrder.append(pathways[pathways.count - 1]) }
    }

    /// Puts `rung` in the penalty box for `penaltySeconds`.
    func penalize(_ rung: Int) {
        guard variants.indices.contains(rung) else { return }
        penalties[rung] = MonotonicClock.now() + penaltySeconds
        refreshRungs()
    }

    /// Lets rungs whose penalty is over be chosen again.
    func releasePenalties() {
        let now = MonotonicClock.now()
        let over = penalties.filter { $0.value <= now }.keys
        guard !over.isEmpty else { return }
        for rung in over { penalties[rung] = nil }
        refreshRungs()
    }

    /// The rung that stands for `rung` now: itself when the policy may choose it, else the copy of it that may be
    /// chosen (in this pathway or the next); nil when there is none.
    func standIn(for rung: Int) -> Int? {
        if policy.rungs[rung].isSupported { return rung }
        return variants.indices.first { groups[$0] == groups[rung] && policy.rungs[$0].isSupported }
    }

    /// Whether `rung` has somewhere else to go should it fail: an available copy of it at another URL, or another
    /// pathway with an available variant. A failure then moves there at once instead of being retried.
    func hasBackup(for rung: Int) -> Bool {
        variants.indices.contains { r in
            r != rung && isAvailable(r) && variants[r].url != variants[rung].url
                && (groups[r] == groups[rung] || pathways[r] != pathways[rung])
        }
    }

    /// Penalizes `rung` after its segment failed for good; when the failure was the host's (not a 4xx), every
    /// variant on the same host goes too, as long as some variant elsewhere is left.
    func penalizeAfterFailure(of rung: Int, error: PlaybackError) {
        let hostWide = !Self.isResourceError(error)
        let host = Self.host(variants[rung].url)
        let sameHost = variants.indices.filter { Self.host(variants[$0].url) == host }
        let elsewhere = variants.indices.contains { !sameHost.contains($0) && isAvailable($0) }
        for r in hostWide && elsewhere ? sameHost : [rung] {
            penalties[r] = MonotonicClock.now() + penaltySeconds
        }
        refreshRungs()
    }

    /// Whether `error` is the resource's (a 4xx: not there, not allowed), not its host's (a 5xx, no connection, a
    /// time-out): another variant on the same host may still be had.
    static func isResourceError(_ error: PlaybackError) -> Bool { (400..<500).contains(Int(error.code ?? 0)) }

    static func host(_ url: URL?) -> String {
        "\(url?.scheme ?? "")://\(url?.host ?? ""):\(url?.port ?? 0)"
    }
}

/// How a failover is written in the error log (the failing request, then `marker` and where playback went), so
/// `ErrorLogEntry.failoverTarget` can find it.
enum HLSFailover {
    static let marker = "; moved to "
}

extension ErrorLogEntry {
    /// For an entry that records an HLS failover (a variant, host or pathway that failed for good): the playlist URL
    /// of the variant that took over; nil for other entries. Any thread.
    public var failoverTarget: String? {
        guard let range = errorComment.range(of: HLSFailover.marker, options: .backwards) else { return nil }
        return String(errorComment[range.upperBound...])
    }

    /// The reason of a failover entry without where playback went (the whole comment for other entries). Any
    /// thread.
    public var failureReason: String {
        guard let range = errorComment.range(of: HLSFailover.marker, options: .backwards) else { return errorComment }
        return String(errorComment[..<range.lowerBound])
    }
}
