"""Browser tests of the web client's history: the stretches it holds whole (history-stretches.js,
tested on its own in the page), away and back with 2,000 new messages paged back to the first
with none missing and a bounded DOM, a gap in the middle after time offline, and unread counts
that match the server's after reconnects. Headless Chromium against a real `chirp serve`.

Run: python3 Tests/Browser/test_web_history.py [path/to/chirp]   (default .build/debug/chirp)
Skipped with a reason when Chromium, chromedriver or Selenium is missing, unless CI=true.
"""
import os
import re
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import test_web_client  # noqa: E402
from server_test_case import ServerTestCase  # noqa: E402
from test_web_client import PASSWORD, missing_requirement  # noqa: E402

ROWS = "return document.querySelectorAll('[role=log] .msg').length"
GAP = "return !!document.querySelector('[role=log] .gap')"


class WebHistoryTests(ServerTestCase):
    @classmethod
    def set_up(cls):
        cls.bob = cls.open_browser("bob")
        cls.bob.sign_in("bob", create=True)
        cls.bob.wait(lambda: "Create account" not in cls.bob.text(), "the account created")

    token = test_web_client.WebClientTests.token

    def writer(self, username):
        """A user who may write to bob (bob follows them); returns their token."""
        status, body = self.server.api("POST", "/v1/accounts", {"username": username, "password": PASSWORD})
        self.assertEqual(status, 201)
        self.assertEqual(self.server.api("PUT", f"/v1/users/{username}/follow", token=self.token("bob"))[0], 204)
        return body["token"]

    def send(self, token, numbers):
        """Sends bob `n<number>` for each number, over a few connections at once."""
        self.server.send_many(token, "bob", [f"n{i}" for i in numbers], first=numbers[0])

    def server_unread(self, peer):
        status, body = self.server.api("GET", "/v1/conversations", token=self.token("bob"))
        self.assertEqual(status, 200)
        return next(c["unreadCount"] for c in body["items"] if c["peer"]["username"] == peer)

    def listed_unread(self, peer):
        """The unread count bob's conversation list shows for `peer` (0 when none)."""
        text = self.bob.driver.execute_script(
            "const a = [...document.querySelectorAll('a.conversation')].find((a) => a.querySelector('.name').textContent === arguments[0]);"
            "return a ? a.textContent : null", peer)
        if text is None:
            return None
        match = re.search(r"(\d+) unread", text)
        return int(match.group(1)) if match else 0

    def newest_number(self, peer):
        """The number of the newest message `peer` sent bob (sent concurrently, numbers and ids
        need not agree)."""
        status, body = self.server.api("GET", f"/v1/conversations/{peer}/messages?limit=1", token=self.token("bob"))
        self.assertEqual(status, 200)
        return int(body["items"][-1]["text"][1:])

    def numbers_shown(self):
        return {int(n) for n in re.findall(r"(?m)^n(\d+)$", self.bob.log_text())}

    def page_back(self):
        """Scrolls the log up a screen at a time in the page itself, each once the list has
        drawn the last (two animation frames), until the first message shows and no gap is
        left; returns every number the list drew, the seconds it took and the screens."""
        self.bob.driver.set_script_timeout(130)
        result = self.bob.driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const log = document.querySelector('[role=log]');
            const seen = new Set();
            const started = performance.now();
            let rows = 0;
            let screens = 0;
            function step() {
              for (const text of log.querySelectorAll('.msg .text')) {
                const number = /^n(\\d+)$/.exec(text.textContent);
                if (number) seen.add(Number(number[1]));
              }
              rows = Math.max(rows, log.querySelectorAll('.msg').length);
              const finished = seen.has(1) && !log.querySelector('.gap') && log.scrollTop === 0;
              if (finished || performance.now() - started > 120000) return done({ seen: [...seen], ms: performance.now() - started, rows, screens });
              log.scrollTop = Math.max(0, log.scrollTop - log.clientHeight);
              screens += 1;
              requestAnimationFrame(() => requestAnimationFrame(step));
            }
            step();""")
        self.bob.driver.set_script_timeout(20)
        self.assertLess(result["rows"], 80, "only rows near the viewport are in the DOM")
        return set(result["seen"]), result["ms"] / 1000, result["screens"], result["rows"]

    def go_away(self):
        self.bob.driver.get("about:blank")

    def come_back(self):
        self.bob.driver.get(self.server.url + "/")
        self.bob.find("link", "Conversations")

    def test_01_history_stretches_on_their_own(self):
        results = self.bob.driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            import('/web/history-stretches.js').then(({ emptyHistory, addPage, addStreamed, newest }) => {
              const range = (a, b) => Array.from({ length: b - a + 1 }, (_, i) => a + i);
              let away = addPage(emptyHistory(), range(1, 5), {}, 100);            // the early history, whole
              away = addPage(away, range(1906, 2005), {}, 100);                     // back after 2,000 more: a gap
              const gap = away.stretches.length;
              away = addPage(away, range(1806, 1905), { before: 1906 }, 100);       // read into the gap from above
              const closer = newest(away).low;
              away = addPage(away, range(6, 1805), { before: 1806 }, 1800);         // meets the early five
              let after = addPage(emptyHistory(), [10, 20], {}, 2);
              after = addPage(after, [1, 2, 3], { before: 4 }, 3);                 // a stretch below, apart
              after = addPage(after, [5, 6], { after: 3 }, 2);                      // full: the gap above 6 stays
              const afterGap = after.stretches.length;
              after = addPage(after, [8, 10], { after: 6 }, 2);                     // meets 10: one stretch
              let stream = addStreamed(addStreamed(emptyHistory(), 5), 9);
              stream = addStreamed(stream, 30);
              done({ gap, closer, joined: away.stretches, afterGap, after: after.stretches, stream });
            });""")
        self.assertEqual(results["gap"], 2)
        self.assertEqual(results["closer"], 1806)
        self.assertEqual(results["joined"], [{"low": 0, "high": 2005}])
        self.assertEqual(results["afterGap"], 2)
        self.assertEqual(results["after"], [{"low": 1, "high": 20}])
        self.assertEqual(results["stream"], {"stretches": [{"low": 5, "high": 30}], "eventEdge": 30})

    def test_02_away_and_back_with_2000_new_messages(self):
        bob = self.bob
        alice = self.writer("alice")
        self.send(alice, list(range(1, 6)))
        bob.wait(lambda: self.listed_unread("alice") == 5, "alice's five unread")
        bob.open_conversation("alice")
        bob.wait(lambda: self.numbers_shown() == {1, 2, 3, 4, 5}, "the early five")
        bob.wait(lambda: self.server_unread("alice") == 0, "the five read")

        self.go_away()
        started = time.monotonic()
        self.send(alice, list(range(6, 2006)))
        seeded = time.monotonic() - started
        self.come_back()
        bob.wait(lambda: self.listed_unread("alice") == 2000, "2,000 unread, once each", timeout=30)
        self.assertEqual(self.server_unread("alice"), 2000)

        bob.open_conversation("alice")
        newest = self.newest_number("alice")
        bob.wait(lambda: newest in self.numbers_shown(), "the newest message")
        seen, paged, screens, rows = self.page_back()
        print(f"\nweb: 2,000 messages seeded in {seeded:.1f} s; paged back through 2,005 to the first in {paged:.2f} s, "
              f"{screens} screens ({1000 * paged / max(screens, 1):.0f} ms a screen, headless Chromium), "
              f"at most {rows} message rows in the DOM", flush=True)
        self.assertEqual(seen, set(range(1, 2006)), f"missing: {sorted(set(range(1, 2006)) - seen)[:20]}")
        self.assertLess(bob.driver.execute_script(ROWS), 80)

    def test_03_a_gap_in_the_middle_after_time_offline(self):
        bob = self.bob
        carol = self.writer("carol")
        bob.click("link", "Conversations")
        self.send(carol, list(range(1, 21)))  # online: the stream brings them
        bob.wait(lambda: self.listed_unread("carol") == 20, "carol's twenty unread")
        # Offline: the browser reaches nothing, and the server restarting ends its stream.
        offline = {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
        bob.driver.execute_cdp_cmd("Network.enable", {})
        bob.driver.execute_cdp_cmd("Network.emulateNetworkConditions", offline)
        self.server.stop()
        self.server.start()
        bob.wait(lambda: bob.driver.execute_script("return document.documentElement.dataset.stream") == "offline", "offline",
                 timeout=30)
        self.send(carol, list(range(21, 521)))  # 500 while offline
        bob.driver.execute_cdp_cmd("Network.emulateNetworkConditions", {**offline, "offline": False})
        bob.wait(lambda: self.listed_unread("carol") == 520, "520 unread after reconnecting", timeout=30)
        self.assertEqual(self.server_unread("carol"), 520)
        bob.open_conversation("carol")
        newest = self.newest_number("carol")
        bob.wait(lambda: newest in self.numbers_shown(), "the newest message")
        seen = self.page_back()[0]
        self.assertEqual(seen, set(range(1, 521)), f"missing: {sorted(set(range(1, 521)) - seen)[:20]}")
        bob.wait(lambda: self.server_unread("carol") == 0, "read up to the newest")

        # Away again: five more; the list and the server agree after the reconnect.
        self.go_away()
        self.send(carol, list(range(521, 526)))
        self.come_back()
        bob.wait(lambda: self.listed_unread("carol") == 5, "five unread after coming back", timeout=30)
        self.assertEqual(self.server_unread("carol"), 5)


if __name__ == "__main__":
    if len(sys.argv) > 1 and os.path.exists(sys.argv[1]):
        test_web_client.BINARY = sys.argv.pop(1)
    reason = missing_requirement()
    if reason and os.environ.get("CI") != "true":
        print(f"browser tests skipped: {reason}")
        sys.exit(0)
    unittest.main(verbosity=2)
