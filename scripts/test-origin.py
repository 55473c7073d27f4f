#!/usr/bin/env python3
"""A small HTTP origin for Playhead's tests: serves files from a folder with Range support, and misbehaves on
request through query parameters:

  ?rate=BYTES_PER_SECOND   pace the body
  ?stall_after=BYTES&stall_for=SECONDS   stop sending for a while mid-body
  ?status=CODE             answer with that status and a short body
  ?first_byte_delay=SECONDS

Prints the port it listens on (127.0.0.1 only), then serves until killed. Each request is logged to stdout as
"METHOD PATH RANGE".
"""
import http.server
import os
import sys
import time
import urllib.parse


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    root = "."

    def log_message(self, *args):
        pass

    def do_GET(self):
        url = urllib.parse.urlparse(self.path)
        q = {k: v[-1] for k, v in urllib.parse.parse_qs(url.query).items()}
        print("GET %s %s" % (url.path, self.headers.get("Range", "-")), flush=True)
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
                try:
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    return
                sent += len(data)
                remaining -= len(data)
                if rate > 0:
                    ahead = sent / rate - (time.monotonic() - t0)
                    if ahead > 0:
                        time.sleep(ahead)


def main():
    Handler.root = sys.argv[1] if len(sys.argv) > 1 else "."
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
