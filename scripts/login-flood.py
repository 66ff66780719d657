#!/usr/bin/env python3
"""The login defence under a flood (issue 36): failed logins from many loopback addresses.

Usage: scripts/login-flood.py CHIRP_BINARY [COUNT] [THREADS]

Starts `CHIRP_BINARY serve` on a free loopback port with a fresh data directory (SQLite,
default limits), registers an owner, then sends COUNT (default 100,000) failed logins with
random usernames: nine in ten long (1,000-60,000 characters, refused by the username rule
before any state is kept), the rest valid in form (3-15 characters, each one new, so each keys
the throttle's tables and costs a decoy bcrypt), spread over source addresses 127.1.0.1,
127.1.0.2, ... (150 logins per address: past the per-address limit of 100, 429s). It prints the server's resident memory (VmRSS) before and after and
the answers by status, then logs the owner in from 127.0.0.1 and from a fresh address and ends
the server it started (by its pid). Loopback only; nothing else is touched.
"""
import collections, http.client, json, os, random, re, shutil, string, subprocess, sys, tempfile, threading, time

binary = sys.argv[1] if len(sys.argv) > 1 else ".build/debug/chirp"
count = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
threads = int(sys.argv[3]) if len(sys.argv) > 3 else 8
per_address = 150


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def login(connection, username, password):
    body = json.dumps({"username": username, "password": password})
    connection.request("POST", "/v1/sessions", body=body, headers={"Content-Type": "application/json"})
    reply = connection.getresponse()
    reply.read()
    return reply.status


def address(index):
    """The index-th source address: 127.1.0.1, 127.1.0.2, ... (never 127.0.0.1)."""
    index += 1
    return f"127.{1 + index // 65_536 % 254}.{index // 256 % 256}.{index % 256 or 1}"


LONG = "".join(random.Random(1).choices(string.ascii_letters, k=60_000))


def random_name(rng, long):
    if long:  # a random prefix makes each one new; the rest is a slice of one long string
        return "".join(rng.choices(string.ascii_letters, k=12)) + LONG[:rng.randint(1_000, 60_000)]
    return "".join(rng.choices(string.ascii_lowercase + string.digits + "_", k=rng.randint(3, 15)))


def worker(port, first_batch, batches, statuses, lock, seed):
    rng = random.Random(seed)
    local = collections.Counter()
    for batch in range(first_batch, first_batch + batches):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60, source_address=(address(batch), 0))
        try:
            for index in range(per_address):
                local[login(connection, random_name(rng, index % 10 != 0), "not the password")] += 1
        except (OSError, http.client.HTTPException) as error:
            local[f"error {type(error).__name__}"] += 1
        finally:
            connection.close()
    with lock:
        statuses.update(local)


def main():
    directory = tempfile.mkdtemp(prefix="chirp-login-flood-")
    server = subprocess.Popen(
        [binary, "serve", "--port", "0", "--data-dir", directory, "--log-level", "warning"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        port = None
        for line in server.stdout:
            found = re.search(r"listening on http://127\.0\.0\.1:(\d+)", line)
            if found:
                port = int(found.group(1))
                break
        if port is None:
            sys.exit("the server did not start")
        threading.Thread(target=lambda: [None for _ in server.stdout], daemon=True).start()

        owner = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        owner.request("POST", "/v1/accounts", body=json.dumps({"username": "owner", "password": "the owner's password"}),
                      headers={"Content-Type": "application/json"})
        reply = owner.getresponse()
        reply.read()
        assert reply.status == 201, reply.status
        before = rss_kib(server.pid)
        print(f"RSS before: {before / 1024:.1f} MiB")

        batches = (count + per_address - 1) // per_address
        statuses, lock = collections.Counter(), threading.Lock()
        share = (batches + threads - 1) // threads
        started = time.monotonic()
        workers = [threading.Thread(target=worker, args=(port, n * share, min(share, batches - n * share), statuses, lock, n))
                   for n in range(threads) if n * share < batches]
        for thread in workers:
            thread.start()
        peak = before
        while any(thread.is_alive() for thread in workers):
            time.sleep(0.5)
            peak = max(peak, rss_kib(server.pid))
        for thread in workers:
            thread.join()
        elapsed = time.monotonic() - started
        after = rss_kib(server.pid)
        print(f"{sum(statuses.values())} failed logins from {batches} addresses in {elapsed:.1f} s: {dict(statuses)}")
        print(f"RSS after: {after / 1024:.1f} MiB (peak {peak / 1024:.1f} MiB, growth {(after - before) / 1024:.1f} MiB)")

        for source in ["127.0.0.1", address(batches + 1)]:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60, source_address=(source, 0))
            started = time.monotonic()
            status = login(connection, "owner", "the owner's password")
            print(f"owner's login from {source}: {status} in {1000 * (time.monotonic() - started):.0f} ms")
            connection.close()
            if status != 201:
                sys.exit(1)
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
        shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    main()
