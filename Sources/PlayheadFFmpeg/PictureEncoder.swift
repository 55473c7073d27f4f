import CFFmpeg

/// Decoded pictures written as PNG (FFmpeg's own encoder), for screenshots. Any thread; each call stands alone.
public enum PictureEncoder {
    /// `frame` scaled to `width` x `height` (its presentation size: the sample aspect ratio applied), turned
    /// `rotation` degrees clockwise (0, 90, 180, 270; 90 and 270 swap the output's sides), as a PNG file's bytes.
    /// `decorate` draws over the upright picture (packed RGB24, its width and height) before it is encoded.
    public static func png(
        _ frame: Frame, width: Int, height: Int, rotation: Int = 0,
        decorate: ((inout [UInt8], Int, Int) -> Void)? = nil
    ) throws(FFmpegError) -> [UInt8] {
        guard width > 0, height > 0, width <= 16384, height <= 16384, frame.width > 0, frame.height > 0 else {
            throw FFmpegError(code: FFmpegError.invalidArgument, function: "PictureEncoder.png")
        }
        var rgb = try scaled(frame, width: width, height: height)
        var (w, h) = (width, height)
        let turn = ((rotation % 360) + 360) % 360
        switch turn {
        case 90, 270:
            rgb = turned(rgb, width: w, height: h, clockwise: turn == 90)
            (w, h) = (h, w)
        case 180: rgb = halfTurned(rgb, width: w, height: h)
        default: break
        }
        decorate?(&rgb, w, h)
        return try encode(rgb, width: w, height: h)
    }

    /// `frame` as packed RGB24 of `width` x `height`.
    private static func scaled(_ frame: Frame, width: Int, height: Int) throws(FFmpegError) -> [UInt8] {
        guard
            let scaler = sws_getContext(
                Int32(frame.width), Int32(frame.height), AVPixelFormat(frame.format), Int32(width), Int32(height),
                AV_PIX_FMT_RGB24, SWS_BICUBIC, nil, nil, nil)
        else { throw FFmpegError(code: FFmpegError.invalidArgument, function: "sws_getContext") }
        defer { sws_freeContext(scaler) }
        frame.describeColours(to: scaler)
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        let rows = frame.withUnsafeAVFrame { f -> Int32 in
            rgb.withUnsafeMutableBufferPointer { out -> Int32 in
                var destination: [UnsafeMutablePointer<UInt8>?] = [out.baseAddress, nil, nil, nil]
                var strides: [Int32] = [Int32(width * 3), 0, 0, 0]
                return withUnsafePointer(to: f.pointee.data) { data in
                    withUnsafePointer(to: f.pointee.linesize) { lines in
                        data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { src in
                            lines.withMemoryRebound(to: Int32.self, capacity: 8) { stride in
                                sws_scale(scaler, src, stride, 0, Int32(frame.height), &destination, &strides)
                            }
                        }
                    }
                }
            }
        }
        guard rows == Int32(height) else { throw FFmpegError(code: rows < 0 ? rows : -1, function: "sws_scale") }
        return rgb
    }

    /// RGB24 turned a quarter (width and height swap).
    private static func turned(_ rgb: [UInt8], width: Int, height: Int, clockwise: Bool) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: rgb.count)
        for y in 0..<height {
            for x in 0..<width {
                // Clockwise: (x, y) goes to (height - 1 - y, x) in a picture `height` wide.
                let (nx, ny) = clockwise ? (height - 1 - y, x) : (y, width - 1 - x)
                let from = (y * width + x) * 3
                let to = (ny * height + nx) * 3
                out[to] = rgb[from]
                out[to + 1] = rgb[from + 1]
                out[to + 2] = rgb[from + 2]
            }
        }
        return out
    }

    /// RGB24 turned upside down.
    private static func halfTurned(_ rgb: [UInt8], width: Int, height: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: rgb.count)
        let count = width * height
        for i in 0..<count {
            let j = count - 1 - i
            out[j * 3] = rgb[i * 3]
            out[j * 3 + 1] = rgb[i * 3 + 1]
            out[j * 3 + 2] = rgb[i * 3 + 2]
        }
        return out
    }

    /// Packed RGB24 as a PNG file.
    private static func encode(_ rgb: [UInt8], width: Int, height: Int) throws(FFmpegError) -> [UInt8] {
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_PNG) else {
            throw FFmpegError(code: ph_averror(ENOSYS), function: "avcodec_find_encoder(png)")
        }
        var context = avcodec_alloc_context3(codec)
        guard let c = context else { throw FFmpegError(code: ph_averror(ENOMEM), function: "avcodec_alloc_context3") }
        defer { avcodec_free_context(&context) }
        c.pointee.width = Int32(width)
        c.pointee.height = Int32(height)
        c.pointee.pix_fmt = AV_PIX_FMT_RGB24
        c.pointee.time_base = AVRational(num: 1, den: 25)
        _ = try check(avcodec_open2(c, codec, nil), "avcodec_open2(png)")
        var picture = av_frame_alloc()
        guard let f = picture else { throw FFmpegError(code: ph_averror(ENOMEM), function: "av_frame_alloc") }
        defer { av_frame_free(&picture) }
        f.pointee.width = Int32(width)
        f.pointee.height = Int32(height)
        f.pointee.format = AV_PIX_FMT_RGB24.rawValue
        _ = try check(av_frame_get_buffer(f, 0), "av_frame_get_buffer")
        let line = Int(f.pointee.linesize.0)
        rgb.withUnsafeBufferPointer { src in
            guard let base = f.pointee.data.0, let from = src.baseAddress else { return }
            for y in 0..<height { (base + y * line).update(from: from + y * width * 3, count: width * 3) }
        }
        _ = try check(avcodec_send_frame(c, f), "avcodec_send_frame(png)")
        _ = try check(avcodec_send_frame(c, nil), "avcodec_send_frame(png)")
        var packet = av_packet_alloc()
        guard let p = packet else { throw FFmpegError(code: ph_averror(ENOMEM), function: "av_packet_alloc") }
        defer { av_packet_free(&packet) }
        _ = try check(avcodec_receive_packet(c, p), "avcodec_receive_packet(png)")
        return Array(UnsafeBufferPointer(start: p.pointee.data, count: Int(p.pointee.size)))
    }
}

extension Frame {
    /// The YUV matrix of the picture: as tagged, else as FFmpeg and mpv guess it (BT.709 for HD sizes). A value
    /// type, safe on any thread.
    public enum Matrix: Sendable { case bt601, bt709, bt2020, other }

    /// The picture's YUV matrix. Any thread.
    public var matrix: Matrix {
        switch AVColorSpace(colorSpace) {
        case AVCOL_SPC_BT709: return .bt709
        case AVCOL_SPC_BT470BG, AVCOL_SPC_SMPTE170M, AVCOL_SPC_FCC: return .bt601
        case AVCOL_SPC_BT2020_NCL, AVCOL_SPC_BT2020_CL: return .bt2020
        case AVCOL_SPC_UNSPECIFIED, AVCOL_SPC_RESERVED: return width >= 1280 || height > 576 ? .bt709 : .bt601
        default: return .other
        }
    }

    /// Tells `scaler` (an `SwsContext` from this picture to RGB) the picture's matrix and range, which swscale
    /// otherwise takes to be limited-range BT.601. Any thread.
    public func describeColours(to scaler: OpaquePointer) {
        let coefficients: Int32
        switch matrix {
        case .bt709: coefficients = SWS_CS_ITU709
        case .bt2020: coefficients = SWS_CS_BT2020
        default: coefficients = SWS_CS_ITU601
        }
        _ = sws_setColorspaceDetails(
            scaler, sws_getCoefficients(coefficients), isFullRange ? 1 : 0, sws_getCoefficients(SWS_CS_DEFAULT), 1, 0,
            1 << 16, 1 << 16)
    }
}
