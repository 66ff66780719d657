"""A real `chirp serve` child process on a free loopback port with a temporary data
directory, stopped by its pid (and started again on the same port and data)."""
import http.client
import json
from concurrent.futures import ThreadPoolExecutor
import os
import signal
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ChirpServer:
    def __init__(self, binary):
        self.binary = binary
        self.port = free_port()
        self.data_dir = tempfile.mkdtemp(prefix="chirp-browser-")
        self.process = None
        self.url = f"http://127.0.0.1:{self.port}"

    def start(self):
        self.process = subprocess.Popen(
            [self.binary, "serve", "--host", "127.0.0.1", "--port", str(self.port), "--data-dir", self.data_dir,
             "--no-rate-limits", "--log-level", "warning", "--test-bcrypt-cost", "4"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            line = self.process.stdout.readline()
            if "listening on" in line:
                return
            if self.process.poll() is not None:
                raise RuntimeError(f"chirp serve exited: {line}{self.process.stdout.read()}")
        raise RuntimeError("chirp serve did not start within 30 s")

    def stop(self):
        if self.process and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.kill(self.process.pid, signal.SIGKILL)
                self.process.wait()
        if self.process:
            self.process.stdout.close()
        self.process = None

    def api(self, method, path, body=None, token=None):
        """One API call; returns (status, JSON or None)."""
        request = urllib.request.Request(self.url + path, method=method,
                                         data=None if body is None else json.dumps(body).encode())
        if body is not None:
            request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                raw = response.read()
                return response.status, json.loads(raw) if raw else None
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"null")

    def register_friends(self, names, friends, password, display_names=None):
        """Registers `names` (each with `password`, and its display name in `display_names` if
        there is one) and makes each pair in `friends` follow each other; returns their tokens
        by name."""
        tokens = {}
        for name in names:
            extra = {"displayName": display_names[name]} if name in (display_names or {}) else {}
            status, body = self.api("POST", "/v1/accounts", {"username": name, "password": password, **extra})
            assert status == 201, body
            tokens[name] = body["token"]
        for one, other in friends:
            for follower, followed in ((one, other), (other, one)):
                assert self.api("PUT", f"/v1/users/{followed}/follow", token=tokens[follower])[0] == 204
        return tokens

    def send_many(self, token, peer, texts, first=0, connections=8):
        """Sends `texts` to `peer` over a few keep-alive connections at once."""
        def worker(slice_):
            connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            for index, text in slice_:
                connection.request("PUT", f"/v1/conversations/{peer}/messages/bulk-{index}", json.dumps({"text": text}),
                                   {"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
                response = connection.getresponse()
                response.read()
                if response.status not in (200, 201):
                    raise RuntimeError(f"send {index}: {response.status}")
            connection.close()
        items = list(enumerate(texts, start=first))
        with ThreadPoolExecutor(connections) as pool:
            list(pool.map(worker, [items[i::connections] for i in range(connections)]))
