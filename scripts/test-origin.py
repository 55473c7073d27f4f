#!/usr/bin/env python3
"""A small HTTP origin for Playhead's tests: serves files from a folder with Range support, and misbehaves on
request through query parameters:

  ?rate=BYTES_PER_SECOND   pace the body
  ?stall_after=BYTES&stall_for=SECONDS   stop sending for a while mid-body
  ?status=CODE             answer with that status and a short body
  ?first_byte_delay=SECONDS
  ?redirect=loop           answer 302 to the same URL, forever
  ?reset_after=BYTES       close the connection after that many body bytes

With --trace=SECONDS:BITS_PER_SECOND,... every body shares one link whose rate follows the trace (each step
lasts its seconds; the last rate holds), counted from the first request: a bandwidth trace replayed.

Prints the port it listens on (127.0.0.1 only), then serves until killed. Each request is logged to stdout as
"METHOD PATH RANGE", and the end of each body as "SENT PATH BYTES complete|aborted".
"""
import http.server
import os
import sys
import threading
import time
import urllib.parse


class Link:
    """A shared link paced to a bandwidth trace: [(seconds, bits_per_second)]."""

    def __init__(self, trace):
        self.trace = trace
        self.lock = threading.Lock()
        self.start = None
        self.free_at = 0.0

    def rate(self, t):
        elapsed = t - self.start
        for seconds, bps in self.trace:
            if elapsed < seconds:
                return bps / 8.0
            elapsed -= seconds
        return self.trace[-1][1] / 8.0

    def begin(self):
        with self.lock:
            if self.start is None:
                self.start = time.monotonic()

    def send(self, n):
        """Waits until n bytes have crossed the link."""
        with self.lock:
            now = time.monotonic()
            begin = max(now, self.free_at)
            self.free_at = begin + n / self.rate(begin)
            until = self.free_at
        delay = until - time.monotonic()
        if delay > 0:
            time.sleep(delay)


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    root = "."
    link = None

    def log_message(self, *args):
        pass

    def do_GET(self):
        url = urllib.parse.urlparse(self.path)
        q = {k: v[-1] for k, v in urllib.parse.parse_qs(url.query).items()}
        print("GET %s %s" % (url.path, self.headers.get("Range", "-")), flush=True)
        if self.link is not None:
            self.link.begin()
        if q.get("redirect") == "loop":
            self.send_response(302)
            self.send_header("Location", self.path)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if "status" in q:
            body = b"error\n"
            self.send_response(int(q["status"]))
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        path = os.path.join(self.root, url.path.lstrip("/"))
        if not os.path.isfile(path):
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        size = os.path.getsize(path)
        start, end = 0, size - 1
        rng = self.headers.get("Range")
        if rng and rng.startswith("bytes="):
            a, _, b = rng[6:].partition("-")
            start = int(a) if a else 0
            end = int(b) if b else size - 1
            self.send_response(206)
            self.send_header("Content-Range", "bytes %d-%d/%d" % (start, end, size))
        else:
            self.send_response(200)
        self.send_header("Accept-Ranges", "bytes")
        self.send_header("Content-Length", str(end - start + 1))
        self.send_header("Content-Type", "application/octet-stream")
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
                    self.link.send(len(data))
                try:
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    print("SENT %s %d aborted" % (url.path, sent), flush=True)
                    return
                sent += len(data)
                remaining -= len(data)
                if rate > 0:
                    ahead = sent / rate - (time.monotonic() - t0)
                    if ahead > 0:
                        time.sleep(ahead)
        print("SENT %s %d complete" % (url.path, sent), flush=True)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--trace=")]
    for a in sys.argv[1:]:
        if a.startswith("--trace="):
            steps = [step.split(":") for step in a[len("--trace="):].split(",") if step]
            Handler.link = Link([(float(sec), float(bps)) for sec, bps in steps])
    Handler.root = args[0] if args else "."
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
