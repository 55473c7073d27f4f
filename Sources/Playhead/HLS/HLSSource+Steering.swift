import Foundation
import PlayheadCore
import PlayheadHLS

/// Where an item's content steering stands (`EXT-X-CONTENT-STEERING`): the URL to ask next, when, and the
/// failures in a row. A value type owned by its `HLSSource` (demux thread).
struct SteeringState {
    var url: URL
    /// When to ask next, on `MonotonicClock` (0: before the first segment).
    var reloadAt = 0.0
    var failures = 0
    /// The last `TTL` taken: how long to wait once the retries are spent.
    var ttl = 300
}

/// Content steering: the steering manifest is asked for before the first segment and again after its `TTL`, with
/// `_HLS_pathway` (the pathway playing) and `_HLS_throughput` (the estimate in bits/s, the start estimate until one
/// is measured); its `PATHWAY-PRIORITY` orders the pathways and its `PATHWAY-CLONES` add pathways copied from
/// others with their URIs rewritten. The pathway changes at the next segment boundary (`adapt`: the copy of the variant playing in the new pathway).
/// A steering server that cannot be reached, or a manifest that cannot be used, leaves the pathways as they are
/// and is asked again after the retry policy's backoff (after its `TTL` once the retries are spent); each failure
/// is one error-log entry naming its URL. Demux thread.
extension HLSSource {
    /// The most a steering manifest may weigh.
    static let steeringLimit = 64 << 10

    /// Content steering for `master`, when it names an http(s) steering server or holds its manifest in a `data:`
    /// URI (read in place; its `RELOAD-URI`, if any, is then asked after the `TTL`).
    static func steering(for master: MultivariantPlaylist) -> SteeringState? {
        guard let cs = master.contentSteering,
            let url = URL(string: cs.serverURI, relativeTo: cs.baseURL ?? master.url)?.absoluteURL,
            ["http", "https", "data"].contains(url.scheme?.lowercased() ?? "")
        else { return nil }
        return SteeringState(url: url)
    }

    /// The body of a steering manifest: read from a `data:` URI in place, else fetched from `request`.
    private func steeringManifestBody(_ request: URL) throws(PlaybackError) -> Data {
        guard request.scheme?.lowercased() == "data" else {
            // A steering server never holds playback up for long: a few seconds at most.
            return try fetch.get(request, limit: Self.steeringLimit, deadline: min(fetch.timeout, 4)).body
        }
        guard let body = HLSKeyStore.dataURIBytes(request.absoluteString), body.count <= Self.steeringLimit else {
            throw PlaybackError(
                .parsing, source: "data: steering URI (in the playlist)", reason: "not a readable data: URI")
        }
        return body
    }

    /// Asks the steering server when it is due and takes its answer (`apply`). Before each segment.
    func steerIfDue() {
        guard var s = steering, let state = adaptive, MonotonicClock.now() >= s.reloadAt else { return }
        var request = s.url
        if s.url.scheme?.lowercased() != "data", var c = URLComponents(url: s.url, resolvingAgainstBaseURL: true) {
            var items = (c.queryItems ?? []).filter { !$0.name.hasPrefix("_HLS_") }
            if let p = state.activePathway { items.append(URLQueryItem(name: "_HLS_pathway", value: p)) }
            let estimate = state.estimator.estimate
            if estimate.isFinite, estimate >= 1 {
                items.append(URLQueryItem(name: "_HLS_throughput", value: "\(Int(min(estimate, 1e12)))"))
            }
            c.queryItems = items
            request = c.url ?? s.url
        }
        do throws(PlaybackError) {
            let body = try steeringManifestBody(request)
            let manifest: SteeringManifest
            do {
                manifest = try SteeringManifest.parse(body, url: s.url)
            } catch {
                let name = request.scheme?.lowercased() == "data" ? "data: steering URI" : request.absoluteString
                throw PlaybackError(
                    .parsing, source: name, reason: "not a usable steering manifest: \(error.reason)")
            }
            s = SteeringState(
                url: manifest.reloadURL ?? s.url, reloadAt: MonotonicClock.now() + Double(manifest.ttl), failures: 0,
                ttl: manifest.ttl)
            steering = s
            apply(manifest, from: request)
        } catch {
            if isCancelled { return }
            s.failures += 1
            report(.recovered(error))
            let wait = s.failures <= retryPolicy.maximumRetries ? retryDelay(s.failures) : Double(s.ttl)
            s.reloadAt = MonotonicClock.now() + wait
            steering = s
        }
    }

    /// Takes a steering manifest fetched from `url`: adds the pathway clones (a clone of a pathway that does not
    /// exist is one error-log entry naming `url`; a clone whose ID exists already is ignored), then orders the
    /// pathways by `PATHWAY-PRIORITY` (IDs it does not know are ignored; pathways it does not list come last, as
    /// fallbacks).
    func apply(_ manifest: SteeringManifest, from url: URL) {
        guard let state = adaptive else { return }
        for clone in manifest.clones where !state.pathways.contains(clone.id) {
            guard state.pathways.contains(clone.baseID) else {
                let reason = "pathway clone \(clone.id) copies pathway \(clone.baseID), which does not exist"
                report(.recovered(PlaybackError(.parsing, source: url.absoluteString, reason: reason)))
                continue
            }
            for rung in state.variants.indices where state.pathways[rung] == clone.baseID {
                var copy = state.variants[rung]
                guard let base = copy.url, let cloned = clone.clonedURL(base, stableID: copy.stream.stableVariantID)
                else { continue }
                copy.uri = cloned.absoluteString
                copy.baseURL = nil
                copy.stream.pathwayID = clone.id
                state.add(copy)
            }
        }
        let known = state.pathwayOrder
        let listed = manifest.pathwayPriority.filter(known.contains)
        state.pathwayOrder = listed + known.filter { !listed.contains($0) }
        state.refreshRungs()
    }
}
