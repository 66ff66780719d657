#!/usr/bin/env python3
"""Sequential sends from one client over one keep-alive connection.

Usage: scripts/sequential-sends.py BASE_URL [COUNT]
Registers two fresh users (the recipient follows the sender), then sends COUNT direct
messages one after another and prints sends per second and latency percentiles.
A stand-in until `chirp bench` exists.
"""
import http.client, json, sys, time, uuid

base = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8080"
count = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
host, port = base.replace("http://", "").split(":")
conn = http.client.HTTPConnection(host, int(port))

def call(method, path, body=None, token=None):
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = "Bearer " + token
    conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
    reply = conn.getresponse()
    data = reply.read()
    return reply.status, data

suffix = uuid.uuid4().hex[:6]
sender, recipient = "s" + suffix, "r" + suffix
status, data = call("POST", "/v1/accounts", {"username": sender, "password": "bench-password"})
sender_token = json.loads(data)["token"]
status, data = call("POST", "/v1/accounts", {"username": recipient, "password": "bench-password"})
recipient_token = json.loads(data)["token"]
call("PUT", f"/v1/users/{sender}/follow", token=recipient_token)

latencies = []
start = time.perf_counter()
for index in range(count):
    t0 = time.perf_counter()
    status, _ = call("PUT", f"/v1/conversations/{recipient}/messages/m{index}", {"text": f"message {index}"}, sender_token)
    latencies.append(time.perf_counter() - t0)
    if status != 201:
        sys.exit(f"send {index} answered {status}")
elapsed = time.perf_counter() - start
latencies.sort()
pct = lambda p: latencies[min(len(latencies) - 1, int(p * len(latencies)))] * 1000
print(f"{count} sequential sends in {elapsed:.2f} s: {count / elapsed:.0f} sends/s; "
      f"latency p50 {pct(0.50):.2f} ms, p99 {pct(0.99):.2f} ms")
