import CPulse

/// The C callbacks PulseAudio calls on its mainloop thread: they only signal the waiting thread and post events.
enum PulseCallbacks {
    static func output(_ p: UnsafeMutableRawPointer?) -> PulseAudioOutput? {
        p.map { Unmanaged<PulseAudioOutput>.fromOpaque($0).takeUnretainedValue() }
    }

    static let streamState: pa_stream_notify_cb_t = { s, userdata in
        guard let o = output(userdata) else { return }
        if pa_stream_get_state(s) == PA_STREAM_FAILED, s == o.stream, o.wantsStream, !o.reconnecting,
            let c = o.context, pa_context_get_state(c) == PA_CONTEXT_READY
        {
            // The stream died but the server lives (its sink went away with nowhere to go): rebuild it.
            o.post(.failed(String(cString: pa_strerror(pa_context_errno(c)))))
            o.startRebuild()
        }
        pa_threaded_mainloop_signal(o.mainloop, 0)
    }

    static let writable: pa_stream_request_cb_t = { _, _, userdata in
        guard let o = output(userdata) else { return }
        pa_threaded_mainloop_signal(o.mainloop, 0)
    }

    /// The server played everything written and found nothing more: the listener hears silence until the
    /// writer catches up (at the end of a stream, before the drain, this is expected).
    static let underflow: pa_stream_notify_cb_t = { _, userdata in
        AudioCounters.underflowed()
        output(userdata)?.post(.underflow)
    }

    static let success: pa_stream_success_cb_t = { _, _, userdata in
        guard let o = output(userdata) else { return }
        pa_threaded_mainloop_signal(o.mainloop, 0)
    }

    static let event: pa_stream_event_cb_t = { _, name, _, userdata in
        guard let o = output(userdata), let name else { return }
        switch String(cString: name) {
        case PA_STREAM_EVENT_REQUEST_CORK:
            // An interruption stops the sound at once, as iOS does; the app (the player) decides when to play again.
            if AudioSession.shared.corkRequestsInterrupt { o.corkForInterruption() }
            o.post(.corkRequested)
        case PA_STREAM_EVENT_REQUEST_UNCORK: o.post(.uncorkRequested)
        default: break
        }
    }

    /// The interruption's cork landed (or failed: a stream going away).
    static let corkedForInterruption: pa_stream_success_cb_t = { _, success, userdata in
        guard success != 0, let o = output(userdata) else { return }
        o.askWhetherStillMuted()
    }

    /// The answer to `askWhetherStillMuted`: one call with the stream's information (unless it is gone), then
    /// one with `eol` set.
    static let muteAnswer: pa_sink_input_info_cb_t = { _, info, eol, userdata in
        guard let o = output(userdata) else { return }
        if let info {
            o.stillMutedAnswered(info.pointee.mute != 0)
        } else if eol != 0, o.muteQuery != nil {
            o.stillMutedAnswered(nil)
        }
    }

    static let moved: pa_stream_notify_cb_t = { s, userdata in
        guard let o = output(userdata), let s else { return }
        let device = pa_stream_get_device_name(s).map { String(cString: $0) } ?? ""
        o.post(.moved(toDevice: device))
    }

}
