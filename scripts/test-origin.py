#!/usr/bin/env python3
"""A small HTTP origin for Playhead's tests: serves files from a folder with Range support, and misbehaves on
request through query parameters:

  ?rate=BYTES_PER_SECOND   pace the body
  ?stall_after=BYTES&stall_for=SECONDS   stop sending for a while mid-body
  ?status=CODE             answer with that status and a short body
  ?retry_after=SECONDS     with status: send a Retry-After header
  ?first_byte_delay=SECONDS
  ?redirect=loop           answer 302 to the same URL, forever
  ?redirect=to:BASE        answer 302 to BASE followed by the path (another host serving the same files)
  ?reset_after=BYTES       close the connection after that many body bytes
  ?ranges=no               ignore Range and send no Accept-Ranges: the whole body, 200 (an origin that cannot seek)
  ?once=1                  apply status/reset_after/stall/first_byte_delay only to the first request for that path
  ?nth=N                   ... only to the Nth request for that path (a player may probe with a request first)
  ?type=CONTENT_TYPE       answer with that Content-Type (default application/octet-stream)
  ?trickle=SECONDS         chunked: the file, then a comment line ("# still here") every SECONDS, forever
  ?icy=TITLE|TITLE...&icy_every=BYTES   an internet radio (SHOUTcast/Icecast): the file as one body of no
                           announced length, ended by closing the connection; to a client that asks for ICY metadata
                           (Icy-MetaData: 1), "icy-name: Test Radio" and a metadata block every 8192 bytes whose
                           StreamTitle is the Nth title over the body's Nth icy_every bytes (sent when it changes);
                           stall_after/stall_for and reset_after (a reset: SO_LINGER 0) apply to it as well

/_control?status=CODE[&seconds=S][&match=TEXT] makes every other request (with match, every one whose path and
query contain TEXT) answer CODE (for S seconds, or until the next /_control; status=0 ends it at once): an origin
or host that goes down while a test plays, or only its playlist reloads.

/llhls/DIR/index.m3u8 serves DIR/index.m3u8 (a VOD playlist of 2 s MPEG-TS segments, or fMP4 segments with an
EXT-X-MAP init section and four movie fragments each) as a low-latency live stream that starts with the first
request under /llhls/ for its ladder (the first folder below /llhls/, so all variants of a ladder share one
clock): each segment is listed as it completes, and while it is being "made", as four EXT-X-PART byte ranges of
0.5 s (a part is available once its time has passed). TS parts are cut at the first PES start from each quarter of the segment's bytes; fMP4 parts
at movie fragment boundaries, found by walking the MP4 box headers (each part holds one moof + mdat with the
boxes before it), and INDEPENDENT=YES is set where the fragment's first sample of every track is a sync sample.
?_HLS_msn=M&_HLS_part=P blocks until that part exists (RFC 8216bis blocking reload). ?gap_parts=K,...
lists those parts (numbered from 0 over the whole stream, four per segment) with GAP=YES, ?lost_parts=K,... lists
them as usual; the URIs of both answer 404 (with "gap=1" or "lost=1" in their query). /llhls/DIR/FILE serves
DIR/FILE once the part asked for (by Range) is available. /llhls/DIR/master*.m3u8 serves DIR/master*.m3u8 as it is:
its relative variant URIs resolve to /llhls/DIR/vN/index.m3u8, the low-latency playlists of its variants.
/live/... serves the same as a plain live stream (RFC 8216: no parts, no blocking reload, no server control): a
window of the last six complete segments, each listed once it is complete. ?msn_offset=N on a playlist of either
kind adds N to its media sequence numbers (renditions may number their segments otherwise than the variants);
?gap_segments=K,... on a plain one marks those segments (numbered from 0) EXT-X-GAP.

With --log-queries each request is logged with its query string. With --parent=PID the origin ends once process PID
is gone (the test process that started it, if it crashed).

With --trace=SECONDS:BITS_PER_SECOND[:LATENCY_SECONDS],... every body shares one link whose rate follows the trace
(each step lasts its seconds; the last rate holds), counted from the first request: a bandwidth trace replayed. A
step's latency (0 when not given) delays the answer to each request made during it, as Sabre's traces do.

Prints the port it listens on (127.0.0.1 only), then serves until killed. Each request is logged to stdout as
"METHOD PATH RANGE", and the end of each body as "SENT PATH BYTES complete|aborted".
"""
import http.server
import os
import socket
import struct
import sys
import threading
import time
import urllib.parse


LOG_LOCK = threading.Lock()


def log(line):
    """Writes one line of the request log whole: print's text and newline are two writes, and a line of another
    thread could come between them ("SENT /a 4096 abortedGET /a -")."""
    with LOG_LOCK:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()


class Link:
    """A shared link paced to a bandwidth trace: [(seconds, bits_per_second, latency_seconds)]."""

    def __init__(self, trace):
        self.trace = trace
        self.lock = threading.Lock()
        self.start = None
        self.free_at = 0.0

    def step(self, t):
        elapsed = t - self.start
        for step in self.trace:
            if elapsed < step[0]:
                return step
            elapsed -= step[0]
        return self.trace[-1]

    def rate(self, t):
        return self.step(t)[1] / 8.0

    def latency(self):
        """The latency of the step in force now."""
        return self.step(time.monotonic())[2]

    def begin(self):
        with self.lock:
            if self.start is None:
                self.start = time.monotonic()

    # A body's next write comes after the link fell free only because the sender was held up (a sleep's overshoot,
    # the write itself, this process or the reader waiting for a CPU on a loaded machine): its bytes follow the
    # last ones on the link, as on a real link whose capacity does not wait for the sender's scheduling, instead of
    # adding that delay each time (2 % slower than the trace over a 110 KB segment of 4 KB writes; on a loaded
    # machine the real-player comparison read the link 12 % slower than its trace). A new request starts when it
    # comes.

    def send(self, n, follows=False):
        """Waits until n bytes have crossed the link; `follows`: they continue the body sent just before."""
        with self.lock:
            now = time.monotonic()
            begin = self.free_at if follows else max(now, self.free_at)
            self.free_at = begin + n / self.rate(begin)
            until = self.free_at
        delay = until - time.monotonic()
        if delay > 0:
            time.sleep(delay)


def boxes(data, start=0, end=None):
    """The MP4 boxes in data[start:end] as (offset, type, size): a walk over the box headers."""
    end = len(data) if end is None else end
    out = []
    while start + 8 <= end:
        size, kind = struct.unpack(">I4s", data[start:start + 8])
        if size == 1:
            size = struct.unpack(">Q", data[start + 8:start + 16])[0]
        elif size == 0:
            size = end - start
        if size < 8:
            break
        out.append((start, kind.decode("latin-1"), size))
        start += size
    return out


def first_samples_are_sync(data, moof, size):
    """Whether the first sample of every track fragment in the moof at `moof` is a sync sample (ISO/IEC 14496-12
    sample flags: sample_is_non_sync_sample, bit 16)."""
    for offset, kind, length in boxes(data, moof + 8, moof + size):
        if kind != "traf":
            continue
        flags = None
        for o, k, n in boxes(data, offset + 8, offset + length):
            body = o + 8
            if k == "tfhd":
                tf = struct.unpack(">I", data[body:body + 4])[0] & 0xFFFFFF
                p = body + 8
                for bit in (0x1, 0x2, 0x8, 0x10):
                    if tf & bit:
                        p += 8 if bit == 0x1 else 4
                if tf & 0x20:
                    flags = struct.unpack(">I", data[p:p + 4])[0]
            elif k == "trun":
                tr = struct.unpack(">I", data[body:body + 4])[0] & 0xFFFFFF
                p = body + 8 + (4 if tr & 0x1 else 0)
                if tr & 0x4:
                    flags = struct.unpack(">I", data[p:p + 4])[0]
                elif tr & 0x400:
                    p += (4 if tr & 0x100 else 0) + (4 if tr & 0x200 else 0)
                    flags = struct.unpack(">I", data[p:p + 4])[0]
        if flags is not None and flags & 0x10000:
            return False
    return True


class LowLatency:
    """A VOD playlist (TS, or fMP4 with four fragments per segment) replayed as a low-latency live stream: 2 s
    segments, 4 parts of 0.5 s, from `start` (time.monotonic())."""

    SEGMENT = 2.0
    PARTS = 4
    WINDOW = 6

    def __init__(self, folder, start, plain=False):
        self.folder = folder
        self.plain = plain
        self.map = None
        self.names = []
        with open(os.path.join(folder, "index.m3u8")) as f:
            for line in f:
                line = line.strip()
                if line.startswith("#EXT-X-MAP:"):
                    self.map = line
                elif line and not line.startswith("#"):
                    self.names.append(line)
        self.start = start
        self.cache = {}

    def elapsed(self):
        return time.monotonic() - self.start

    def parts(self, n):
        """Segment n's parts as (offset, length, independent)."""
        if n in self.cache:
            return self.cache[n]
        path = os.path.join(self.folder, self.names[n])
        if self.map is None:
            with open(path, "rb") as f:
                data = f.read()
            size = len(data)

            def pes_start(offset):
                """The first TS packet at or after `offset` that starts a PES (as a packager cuts parts: whole
                PES packets, never one split across two parts)."""
                while offset < size:
                    pid = ((data[offset + 1] & 0x1F) << 8) | data[offset + 2]
                    if data[offset + 1] & 0x40 and pid not in (0, 0x11, 0x1000) and offset + 188 <= size:
                        payload = offset + 4 + (1 + data[offset + 4] if data[offset + 3] & 0x20 else 0)
                        if data[payload:payload + 3] == b"\x00\x00\x01":
                            return offset
                    offset += 188
                return size

            cuts = [0] + [pes_start(round(size * k / self.PARTS / 188) * 188) for k in range(1, self.PARTS)]
            cuts = [min(c, size) for c in cuts] + [size]
            parts = [(cuts[k], cuts[k + 1] - cuts[k], k == 0) for k in range(self.PARTS)]
        else:
            with open(path, "rb") as f:
                data = f.read()
            parts, begin = [], 0
            for offset, kind, size in boxes(data):
                if kind == "moof":
                    independent = first_samples_are_sync(data, offset, size)
                elif kind == "mdat":
                    parts.append((begin, offset + size - begin, independent))
                    begin = offset + size
            if len(parts) != self.PARTS:
                sys.stderr.write("%s: %d fragments, not %d\n" % (path, len(parts), self.PARTS))
                raise ValueError("segment %s has %d fragments" % (path, len(parts)))
            last = parts[-1]
            parts[-1] = (last[0], len(data) - last[0], last[2])
        self.cache[n] = parts
        return parts

    def available(self, n, part):
        """Whether part `part` of segment n is out (part None: the whole segment)."""
        if n >= len(self.names):
            return False
        done = n * self.SEGMENT + (self.PARTS if part is None else part + 1) * self.SEGMENT / self.PARTS
        return self.elapsed() >= done

    def wait(self, n, part):
        deadline = time.monotonic() + 3 * self.SEGMENT
        while not self.available(n, part) and time.monotonic() < deadline and n < len(self.names):
            time.sleep(0.02)

    def playlist(self, gap_parts=(), lost_parts=(), msn_offset=0, gap_segments=()):
        e = self.elapsed()
        complete = min(int(e // self.SEGMENT), len(self.names))
        first = max(0, complete - self.WINDOW)
        if self.plain:
            out = ["#EXTM3U", "#EXT-X-VERSION:6", "#EXT-X-TARGETDURATION:2",
                   "#EXT-X-MEDIA-SEQUENCE:%d" % (first + msn_offset)]
            if self.map:
                out.append(self.map)
            for n in range(first, complete):
                out += (["#EXT-X-GAP"] if n in gap_segments else []) + ["#EXTINF:2.000,", self.names[n]]
            if complete >= len(self.names):
                out.append("#EXT-X-ENDLIST")
            return ("\n".join(out) + "\n").encode()
        out = ["#EXTM3U", "#EXT-X-VERSION:9", "#EXT-X-TARGETDURATION:2",
               "#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=1.5",
               "#EXT-X-PART-INF:PART-TARGET=0.5", "#EXT-X-MEDIA-SEQUENCE:%d" % (first + msn_offset)]
        if self.map:
            out.append(self.map)

        def part_lines(n, count):
            for k, (offset, length, independent) in enumerate(self.parts(n)[:count]):
                number = n * self.PARTS + k
                # A lost part's URI answers 404; a gap's too, and it says GAP=YES (a client must not ask for it).
                uri = self.names[n] + ("?gap=1&status=404" if number in gap_parts else
                                       "?lost=1&status=404" if number in lost_parts else "")
                out.append('#EXT-X-PART:DURATION=0.5,URI="%s",BYTERANGE="%d@%d"%s%s' % (
                    uri, length, offset, ",INDEPENDENT=YES" if independent else "",
                    ",GAP=YES" if number in gap_parts else ""))

        for n in range(first, complete):
            if n >= complete - 2:
                part_lines(n, self.PARTS)
            out += ["#EXTINF:2.000,", self.names[n]]
        if complete < len(self.names):
            part_lines(complete, min(self.PARTS - 1, int((e - complete * self.SEGMENT) // (self.SEGMENT / self.PARTS))))
        else:
            out.append("#EXT-X-ENDLIST")
        return ("\n".join(out) + "\n").encode()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # TCP_NODELAY, as nginx and CDNs set it: the headers and a short body go out in separate writes, and with Nagle's
    # algorithm the second waited for the client's delayed ACK (40 ms on Linux) on every request.
    disable_nagle_algorithm = True
    root = "."
    link = None
    streams = {}
    clocks = {}
    streams_lock = threading.Lock()
    seen = {}
    outage = None  # (status, until monotonic time or None)
    log_queries = False

    def low_latency(self, url, q):
        parts = url.path.split("/")
        name = parts[-1]
        if name.startswith("master") or len(parts) < 4:
            return False
        folder = os.path.join(self.root, *parts[2:-1])
        plain = parts[1] == "live"
        with self.streams_lock:
            ladder = (parts[1], parts[2])
            if ladder not in self.clocks:
                self.clocks[ladder] = time.monotonic()
            if (plain, folder) not in self.streams:
                self.streams[(plain, folder)] = LowLatency(folder, self.clocks[ladder], plain)
            stream = self.streams[(plain, folder)]
        if name.endswith(".m3u8"):
            offset = int(q.get("msn_offset", "0"))
            if "_HLS_msn" in q:
                part = int(q["_HLS_part"]) if "_HLS_part" in q else None
                stream.wait(int(q["_HLS_msn"]) - offset, part)
            numbers = lambda key: {int(x) for x in q.get(key, "").split(",") if x.strip().isdigit()}
            body = stream.playlist(numbers("gap_parts"), numbers("lost_parts"), offset, numbers("gap_segments"))
            self.send_response(200)
            self.send_header("Content-Type", "application/vnd.apple.mpegurl")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return True
        if name in stream.names:
            n = stream.names.index(name)
            rng = self.headers.get("Range", "")
            start = int(rng[6:].partition("-")[0]) if rng.startswith("bytes=") else None
            part = None
            if start is not None:
                part = max([k for k, (offset, _, _) in enumerate(stream.parts(n)) if offset <= start] or [0])
            stream.wait(n, part)
        return False

    def log_message(self, *args):
        pass

    def do_GET(self):
        url = urllib.parse.urlparse(self.path)
        q = {k: v[-1] for k, v in urllib.parse.parse_qs(url.query).items()}
        shown = self.path if url.path.startswith(("/llhls/", "/live/")) or self.log_queries else url.path
        log("GET %s %s" % (shown, self.headers.get("Range", "-")))
        if url.path == "/_control":
            status = int(q.get("status", "0"))
            seconds = float(q["seconds"]) if "seconds" in q else None
            with self.streams_lock:
                Handler.outage = None if status == 0 else (
                    status, None if seconds is None else time.monotonic() + seconds, q.get("match"))
            self.send_response(204)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        with self.streams_lock:
            outage = Handler.outage
        if outage is not None and (outage[1] is None or time.monotonic() < outage[1]) and (
                outage[2] is None or outage[2] in self.path):
            body = b"down\n"
            self.send_response(outage[0])
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        if self.link is not None:
            # Every request waits for the link's latency, a live playlist's as well.
            self.link.begin()
            delay = self.link.latency()
            if delay > 0:
                time.sleep(delay)
        if url.path.startswith(("/llhls/", "/live/")) and self.low_latency(url, q):
            return
        if q.get("once") == "1" or "nth" in q:
            with self.streams_lock:
                self.seen[url.path] = self.seen.get(url.path, 0) + 1
                count = self.seen[url.path]
            if count != int(q.get("nth", 1)):
                for k in ("status", "reset_after", "stall_after", "stall_for", "first_byte_delay"):
                    q.pop(k, None)
        if q.get("redirect", "").startswith("to:"):
            self.send_response(302)
            self.send_header("Location", q["redirect"][3:] + url.path)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if q.get("redirect") == "loop":
            self.send_response(302)
            self.send_header("Location", self.path)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if "status" in q:
            body = b"error\n"
            self.send_response(int(q["status"]))
            if "retry_after" in q:
                self.send_header("Retry-After", q["retry_after"])
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        rel = urllib.parse.unquote(url.path.lstrip("/"))
        if rel.startswith(("llhls/", "live/")):
            rel = rel.partition("/")[2]
        path = os.path.join(self.root, rel)
        if not os.path.isfile(path):
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if "trickle" in q:
            self.trickle(path, float(q["trickle"]), q.get("type", "application/vnd.apple.mpegurl"))
            return
        if "icy" in q:
            self.icy(path, q["icy"].split("|"), int(q.get("icy_every", 1 << 30)), float(q.get("rate", 0)),
                     int(q.get("stall_after", -1)), float(q.get("stall_for", 0)), int(q.get("reset_after", -1)))
            return
        size = os.path.getsize(path)
        start, end = 0, size - 1
        rng = self.headers.get("Range") if q.get("ranges") != "no" else None
        if rng and rng.startswith("bytes="):
            a, _, b = rng[6:].partition("-")
            start = int(a) if a else 0
            # A range past the end is cut at it (RFC 9110 14.1.2), as real servers do.
            end = min(int(b), size - 1) if b else size - 1
            self.send_response(206)
            self.send_header("Content-Range", "bytes %d-%d/%d" % (start, end, size))
        else:
            self.send_response(200)
        if q.get("ranges") != "no":
            self.send_header("Accept-Ranges", "bytes")
        self.send_header("Content-Length", str(end - start + 1))
        self.send_header("Content-Type", q.get("type", "application/octet-stream"))
        self.end_headers()
        time.sleep(float(q.get("first_byte_delay", 0)))
        rate = float(q.get("rate", 0))
        stall_after = int(q.get("stall_after", -1))
        stall_for = float(q.get("stall_for", 0))
        reset_after = int(q.get("reset_after", -1))
        sent = 0
        chunk = 4096
        t0 = time.monotonic()
        with open(path, "rb") as f:
            f.seek(start)
            remaining = end - start + 1
            while remaining > 0:
                data = f.read(min(chunk, remaining))
                if not data:
                    break
                if stall_after >= 0 and sent <= stall_after < sent + len(data):
                    time.sleep(stall_for)
                    stall_after = -1
                if reset_after >= 0 and sent + len(data) > reset_after:
                    self.close_connection = True
                    self.connection.close()
                    return
                if self.link is not None:
                    self.link.send(len(data), follows=sent > 0)
                try:
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    log("SENT %s %d aborted" % (url.path, sent))
                    return
                sent += len(data)
                remaining -= len(data)
                if rate > 0:
                    ahead = sent / rate - (time.monotonic() - t0)
                    if ahead > 0:
                        time.sleep(ahead)
        log("SENT %s %d complete" % (url.path, sent))


    def icy(self, path, titles, every, rate, stall_after=-1, stall_for=0, reset_after=-1):
        """Sends the file as an internet radio does: no length, the end a closed connection, and ICY metadata
        blocks (a length byte in 16-byte units, then "StreamTitle='...';" padded with NULs) after every 8192
        bytes of audio when the client asked for them. After stall_after bytes of audio it sends nothing for
        stall_for seconds; after reset_after bytes it drops the connection (a reset, not a close)."""
        interval = 8192
        metadata = self.headers.get("Icy-MetaData") == "1"
        with open(path, "rb") as f:
            data = f.read()
        self.send_response(200)
        self.send_header("Content-Type", "audio/mpeg")
        self.send_header("Connection", "close")
        if metadata:
            self.send_header("icy-name", "Test Radio")
            self.send_header("icy-metaint", str(interval))
        self.end_headers()
        self.close_connection = True
        sent, shown, t0 = 0, None, time.monotonic()
        try:
            while sent < len(data):
                block = data[sent:sent + interval]
                if 0 <= stall_after < sent + len(block):
                    self.wfile.flush()
                    time.sleep(stall_for)
                    stall_after = -1
                if 0 <= reset_after < sent + len(block):
                    self.wfile.flush()
                    self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                    self.close_connection = True
                    self.connection.close()
                    log("SENT %s %d reset" % (urllib.parse.urlparse(self.path).path, sent))
                    return
                self.wfile.write(block)
                sent += len(block)
                if metadata and len(block) == interval:
                    title = titles[min(sent // every, len(titles) - 1)]
                    if title == shown:
                        self.wfile.write(b"\0")
                    else:
                        text = ("StreamTitle='%s';" % title).encode()
                        n = (len(text) + 15) // 16
                        self.wfile.write(bytes([n]) + text.ljust(n * 16, b"\0"))
                        shown = title
                if rate > 0:
                    ahead = sent / rate - (time.monotonic() - t0)
                    if ahead > 0:
                        time.sleep(ahead)
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            log("SENT %s %d aborted" % (urllib.parse.urlparse(self.path).path, sent))
            return
        log("SENT %s %d complete" % (urllib.parse.urlparse(self.path).path, sent))

    def trickle(self, path, every, content_type):
        """Sends the file with chunked transfer encoding, then one comment line every `every` seconds until the
        client hangs up: a body that never ends, yet never stays silent for long."""
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()

        def chunk(data):
            self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
            self.wfile.flush()

        sent = 0
        try:
            with open(path, "rb") as f:
                data = f.read()
            chunk(data)
            sent += len(data)
            while True:
                time.sleep(every)
                chunk(b"# still here\n")
                sent += 13
        except (BrokenPipeError, ConnectionResetError, OSError):
            log("SENT %s %d aborted" % (urllib.parse.urlparse(self.path).path, sent))


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    Handler.log_queries = "--log-queries" in sys.argv[1:]
    for a in sys.argv[1:]:
        if a.startswith("--trace="):
            steps = [step.split(":") for step in a[len("--trace="):].split(",") if step]
            Handler.link = Link([(float(s[0]), float(s[1]), float(s[2]) if len(s) > 2 else 0.0) for s in steps])
    Handler.root = args[0] if args else "."
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print(server.server_address[1], flush=True)
    for a in sys.argv[1:]:
        if a.startswith("--parent="):
            threading.Thread(target=exit_with, args=(int(a[len("--parent="):]),), daemon=True).start()
    server.serve_forever()


def exit_with(pid):
    """Ends the origin once process `pid` (the test process) is gone: one that crashed never stops it."""
    while True:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            os._exit(0)
        except PermissionError:
            pass
        time.sleep(1)


if __name__ == "__main__":
    main()
