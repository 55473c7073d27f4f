import CCurl
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// libcurl's header callback: one line of a response's header, `context` the `Transfer` (driver thread).
let transferHeaderLine: playhead_curl_data_fn = { data, size, count, context in
    guard let data, let context else { return 0 }
    let bytes = UnsafeRawBufferPointer(start: data, count: size * count)
    let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
    return transfer.headerLine(String(decoding: bytes, as: UTF8.self)) ? size * count : 0
}

/// libcurl's body callback: a chunk of the body, `context` the `Transfer` (driver thread).
let transferBody: playhead_curl_data_fn = { data, size, count, context in
    guard let data, let context else { return 0 }
    let bytes = UnsafeRawBufferPointer(start: data, count: size * count)
    let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
    return transfer.body(bytes) ? size * count : 0
}

/// What the response and the body do to a download: a status, a range ignored, a body too large, each chunk. On
/// the driver thread; returning false stops the transfer with `decided` as its outcome.
extension Transfer {
    func headerLine(_ line: String) -> Bool {
        lastActivity = monotonicSeconds()
        if line.hasPrefix("HTTP/") {
            headers = [:]
            return true
        }
        let field = line.trimmingCharacters(in: .whitespacesAndNewlines)
        guard field.isEmpty else {
            if let colon = field.firstIndex(of: ":") {
                let name = field[..<colon].lowercased()
                headers[name] = field[field.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            return true
        }
        guard let easy else { return false }
        var status = 0
        _ = playhead_curl_get_long(easy, CURLINFO_RESPONSE_CODE, &status)
        // An interim answer (100 Continue), or a redirect libcurl follows: the final response is still to come.
        if (100..<200).contains(status) || ((300..<400).contains(status) && headers["location"] != nil) {
            return true
        }
        var effective: UnsafeMutablePointer<CChar>?
        _ = playhead_curl_get_string(easy, CURLINFO_EFFECTIVE_URL, &effective)
        finalURL = effective.flatMap { URL(string: String(cString: $0)) } ?? url
        return responded(status: status)
    }

    /// The final response's header arrived: false (with `decided`) when it is refused.
    private func responded(status: Int) -> Bool {
        var failure: SegmentLoadError? = (200..<300).contains(status) ? nil : .httpStatus(status)
        if let onResponse,
            let response = HTTPURLResponse(
                url: finalURL ?? url, statusCode: status, httpVersion: nil, headerFields: headers)
        {
            onResponse(response)
        }
        let now = monotonicSeconds()
        responseAt = now
        meter.responded(at: now)
        statusCode = status
        contentType = headers["content-type"]
        let length = headers["content-encoding"] == nil ? headers["content-length"].flatMap { Int($0) } : nil
        expectedBytes = length
        wholeBytes = length
        if let range, status == 200 {
            // The range was ignored: the whole resource comes, read through and cut to the range when it is
            // within the limit, else refused now.
            skip = range.offset
            keep = range.length
            expectedBytes = range.length
            if failure == nil, length.map({ $0 > limit }) ?? true { failure = .rangeIgnored(wholeBytes: length) }
        }
        if let expected = expectedBytes, expected > limit, failure == nil { failure = .tooLarge(limit: limit) }
        if let failure { decided = .failure(failure) }
        return failure == nil
    }

    func body(_ data: UnsafeRawBufferPointer) -> Bool {
        guard decided == nil else { return false }
        received += data.count
        var body = data[...]
        if skip > 0 {
            let dropped = min(skip, body.count)
            body = body.dropFirst(dropped)
            skip -= dropped
        }
        var complete = false
        if let keep {
            body = body.prefix(keep)
            self.keep = keep - body.count
            complete = self.keep == 0
        }
        let now = monotonicSeconds()
        let sample = meter.chunk(bytes: body.count, at: now)
        lastActivity = now
        if !body.isEmpty {
            let chunk = SegmentChunk(data: Data(body), offset: delivered, duration: sample.duration, arrival: now)
            delivered += body.count
            if delivered > limit {
                decided = .failure(.tooLarge(limit: limit))
                return false
            }
            onChunk(chunk)
        }
        if complete {
            // The range is in: the rest of the whole body is not waited for.
            decided = .success(result())
            return false
        }
        return true
    }
}
