"""Browser test of the web client as an app (issue 54): what the server sends (the first load's
size, gzip, the service worker at /sw.js, the manifest and its icons); the layout (the list
beside the open conversation at 1280 px, one pane at 390 px, the "Conversations" heading on one
line at 360 px, a message's actions never over a message's text, date lines and runs, avatars
legible in every theme, every control named), with screenshots in /tmp/chirp-screens/; the
notifications (a push delivered to the service worker through the DevTools Protocol shows
one per conversation, its click opens the conversation, reading it closes them; Settings turns
them on; a message arriving while the tab is hidden shows one, not for a muted conversation nor
for my own; the unread count in the title and icon); and the app opening from its cache with
the server stopped, the conversations from IndexedDB and a typed message waiting in the outbox.
Headless Chromium against a real `chirp serve`.

Run: python3 Tests/Browser/test_web_app_shell.py [path/to/chirp]   (default .build/debug/chirp)
"""
import gzip
import json
import os
import struct
import sys
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser_messages import ROW_SCRIPT, main  # noqa: E402
from devtools import DevTools  # noqa: E402
from server_test_case import ServerTestCase  # noqa: E402
from test_web_client import PASSWORD  # noqa: E402

SCREENS = "/tmp/chirp-screens"
FIRST_LOAD_LIMIT = 160 * 1024

# The files of the first load (page, modules, stylesheet) as the browser fetched them:
# [path, bytes decoded, bytes on the wire].
FIRST_LOAD_SCRIPT = """
    return [performance.getEntriesByType('navigation')[0], ...performance.getEntriesByType('resource')]
      .filter((e) => /\\/$|\\.(html|js|css|webmanifest)$/.test(new URL(e.name).pathname))
      .map((e) => [new URL(e.name).pathname, e.decodedBodySize, e.encodedBodySize]);"""

# The notifications the service worker shows (for `tag` alone when given).
NOTIFICATIONS_SCRIPT = """
    const done = arguments[arguments.length - 1];
    navigator.serviceWorker.ready.then((r) => r.getNotifications(arguments[0] ? {tag: arguments[0]} : {}))
      .then((ns) => done(ns.map((n) => ({title: n.title, body: n.body, tag: n.tag, silent: n.silent, icon: n.icon, data: n.data}))));"""
# Whether the page's service worker is active and activated (waits up to 2 s for it).
ACTIVATED_SCRIPT = """
    const done = arguments[arguments.length - 1];
    navigator.serviceWorker.ready.then((r) => {
      const w = r.active;
      if (w.state === 'activated') return done(true);
      w.addEventListener('statechange', () => done(w.state === 'activated'));
      setTimeout(() => done(false), 2000);
    });"""
NOTIFICATIONS_EXPRESSION = """navigator.serviceWorker.ready.then((r) => r.getNotifications())
    .then((ns) => ns.map((n) => ({title: n.title, body: n.body, tag: n.tag, silent: n.silent})))"""

# The two panes of `main` as rectangles (null for one not shown).
PANES_SCRIPT = """
    const rect = (e) => { if (!e || !e.checkVisibility()) return null; const r = e.getBoundingClientRect();
      return r.width > 0 ? {left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width} : null; };
    const [first, second] = document.querySelectorAll('main > .screen');
    return [rect(first), rect(second), innerWidth];"""

# For the row with text arguments[0]: whether its actions show, and every rectangle of message
# text in the log that they intersect.
COVERS_SCRIPT = "const row = (() => {" + ROW_SCRIPT + """})();
    const bar = row.querySelector('.actions');
    const r = bar.getBoundingClientRect();
    const shown = getComputedStyle(bar).opacity === '1' && r.width > 20 && r.height > 10;
    const hits = [...document.querySelectorAll('[role=log] .text, [role=log] .sender, [role=log] .quote')]
      .filter((t) => t.textContent && t.checkVisibility()).map((t) => [t.textContent.slice(0, 30), t.getBoundingClientRect()])
      .filter(([, t]) => t.left < r.right - 0.5 && r.left < t.right - 0.5 && t.top < r.bottom - 0.5 && r.top < t.bottom - 0.5)
      .map(([text]) => text);
    return {shown, hits, bar: [r.left, r.top, r.width, r.height]};"""

# The contrast ratio of each avatar's initials on its colour (WCAG's formula, the colours read
# back from a canvas, so oklch() resolves as it is drawn).
AVATAR_CONTRAST_SCRIPT = """
    const g = document.createElement('canvas').getContext('2d', {willReadFrequently: true});
    const rgb = (color) => { g.clearRect(0, 0, 1, 1); g.fillStyle = color; g.fillRect(0, 0, 1, 1); return [...g.getImageData(0, 0, 1, 1).data].slice(0, 3); };
    const lum = (c) => c.map((v) => { v /= 255; return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
      .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
    return [...document.querySelectorAll('.avatar')].filter((a) => a.checkVisibility()).map((a) => {
      const s = getComputedStyle(a);
      const [x, y] = [lum(rgb(s.backgroundColor)), lum(rgb(s.color))].sort((p, q) => q - p);
      return [a.textContent, (x + 0.05) / (y + 0.05), s.backgroundColor];
    });"""


def fetch(url, encoding=None):
    request = urllib.request.Request(url)
    if encoding:
        request.add_header("Accept-Encoding", encoding)
    with urllib.request.urlopen(request, timeout=10) as reply:
        return reply.status, reply.headers, reply.read()


class AppShellTests(ServerTestCase):
    @classmethod
    def set_up(cls):
        cls.tokens = cls.server.register_friends(("alice", "bob", "carol"), [("alice", "bob"), ("alice", "carol")], PASSWORD)
        status, group = cls.server.api("PUT", "/v1/groups/trip", {"title": "Trip", "members": ["bob", "carol"]}, token=cls.tokens["alice"])
        assert status == 201, group
        cls.group = group["id"]
        cls.say("bob", "alice", ["Hi alice!", "Are you coming on Saturday?", "We leave at nine from the station, bring boots "
                                 "and something warm: the forecast says rain in the afternoon and wind on the ridge."])
        cls.say("alice", "bob", ["Yes, count me in.", "See you there"])
        cls.say("carol", "alice", ["hello from carol"])
        cls.alice = cls.open_browser("alice")
        cls.alice.driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": cls.server.url, "permissions": ["notifications"]})
        cls.alice.sign_in("alice", create=False)
        cls.alice.find("button", "New message")
        cls.alice.wait(lambda: cls.alice.driver.execute_script("return !!navigator.serviceWorker.controller"),
                       "the service worker controlling the page")

    @classmethod
    def say(cls, sender, peer, texts):
        for text in texts:
            status, body = cls.server.api("PUT", f"/v1/conversations/{peer}/messages/{os.urandom(8).hex()}", {"text": text},
                                          token=cls.tokens[sender])
            assert status == 201, body

    def go(self, hash_):
        self.alice.driver.execute_script("location.hash = arguments[0]", hash_)

    def size(self, width, height=900):
        self.alice.driver.set_window_size(width, height)
        self.alice.wait(lambda: self.alice.driver.execute_script("return innerWidth") == width, f"a {width} px wide viewport")

    def theme(self, name):
        self.alice.driver.execute_script("""localStorage.setItem('chirp.theme', arguments[0]);
            if (arguments[0] === 'system') delete document.documentElement.dataset.theme;
            else document.documentElement.dataset.theme = arguments[0];""", name)

    def open_bob(self):
        self.go("#/c/bob")
        self.alice.find("textbox", "Message")
        self.alice.wait(lambda: "See you there" in self.alice.log_text(), "alice's conversation with bob")

    def notifications(self, tag=None):
        return self.alice.driver.execute_async_script(NOTIFICATIONS_SCRIPT, tag)

    def test_01_first_load_gzip_worker_and_manifest(self):
        visitor = self.open_browser("visitor")
        visitor.driver.get(self.server.url + "/")
        visitor.find("button", "Log in")
        files = visitor.driver.execute_script(FIRST_LOAD_SCRIPT)
        status, headers, manifest = fetch(self.server.url + "/web/manifest.webmanifest")
        self.assertEqual(headers["Content-Type"], "application/manifest+json")
        _, _, manifest_gzip = fetch(self.server.url + "/web/manifest.webmanifest", "gzip")
        decoded = sum(f[1] for f in files) + len(manifest)
        encoded = sum(f[2] for f in files) + len(manifest_gzip)
        print(f"\nfirst load: {decoded} bytes uncompressed, {encoded} bytes gzip-compressed, in {len(files) + 1} files "
              "(page, modules, stylesheet, manifest)", flush=True)
        self.assertLess(decoded, FIRST_LOAD_LIMIT)
        self.assertLess(encoded, decoded / 2, "the files come gzip-compressed")
        self.assertEqual(visitor.driver.execute_script("return Notification.permission"), "default",
                         "no permission asked outside Settings")

        for path in ("/", "/web/app.js", "/web/style.css", "/sw.js"):
            _, plain_headers, plain = fetch(self.server.url + path)
            self.assertIsNone(plain_headers["Content-Encoding"], path)
            _, headers, body = fetch(self.server.url + path, "br;q=1, gzip;q=0.8")
            self.assertEqual(headers["Content-Encoding"], "gzip", path)
            self.assertEqual(headers["Vary"], "Accept-Encoding", path)
            self.assertEqual(gzip.decompress(body), plain, path)
            self.assertNotEqual(headers["ETag"], plain_headers["ETag"], f"{path}: each representation its own validator")
            _, refused, _ = fetch(self.server.url + path, "gzip;q=0, identity")
            self.assertIsNone(refused["Content-Encoding"], path)
        status, headers, worker = fetch(self.server.url + "/sw.js")
        self.assertEqual((status, headers["Content-Type"], headers["Cache-Control"]), (200, "text/javascript; charset=utf-8", "no-cache"))
        self.assertNotIn(b"__CHIRP_SHELL__", worker)
        for name in (b'"/"', b'"/web/app.js"', b'"/web/view-conversation.js"', b'"/web/style.css"', b'"/web/icon-192.png"'):
            self.assertIn(name, worker, "the shell the worker precaches")

        app = json.loads(manifest)
        self.assertEqual((app["name"], app["short_name"], app["start_url"], app["display"]), ("Chirp", "Chirp", "/", "standalone"))
        self.assertTrue(app["theme_color"] and app["background_color"])
        icons = {(icon["sizes"], icon.get("purpose", "any")): icon["src"] for icon in app["icons"]}
        self.assertEqual(set(icons), {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")})
        for (sizes, _), src in icons.items():
            status, headers, png = fetch(self.server.url + src)
            self.assertEqual((status, headers["Content-Type"], png[:8]), (200, "image/png", b"\x89PNG\r\n\x1a\n"))
            self.assertEqual("x".join(map(str, struct.unpack(">II", png[16:24]))), sizes, src)
        link = visitor.driver.execute_script("return document.querySelector('link[rel=manifest]').href")
        self.assertEqual(link, self.server.url + "/web/manifest.webmanifest")

    def test_02_two_panes_wide_one_pane_narrow(self):
        alice = self.alice
        self.size(1280)
        self.open_bob()
        listed, conversation, _ = alice.driver.execute_script(PANES_SCRIPT)
        self.assertTrue(listed and conversation, f"both panes at 1280 px: {listed}, {conversation}")
        self.assertLessEqual(listed["right"], conversation["left"], "the list beside the conversation")
        self.assertLess(abs(listed["top"] - conversation["top"]), 2)
        self.assertGreater(conversation["width"], 600)
        self.assertEqual(alice.driver.execute_script(
            "return document.querySelector('a.conversation[aria-current=page]')?.getAttribute('href')"), "#/c/bob")
        self.size(390, 844)
        listed, conversation, _ = alice.driver.execute_script(PANES_SCRIPT)
        self.assertIsNone(listed, "one pane at 390 px: the list is hidden while a conversation is open")
        self.assertGreater(conversation["width"], 340)
        self.go("#/conversations")
        alice.wait(lambda: alice.driver.execute_script(PANES_SCRIPT)[0], "the list alone at 390 px")
        self.assertIsNone(alice.driver.execute_script(PANES_SCRIPT)[1], "no empty second pane at 390 px")
        width = alice.driver.execute_script("return [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        self.assertLessEqual(width[0], width[1])

    def test_03_headings_fit_at_360_px(self):
        alice = self.alice
        self.size(360, 800)
        for hash_, title in (("#/conversations", "Conversations"), ("#/c/bob", "bob"), ("#/settings", "Settings")):
            self.go(hash_)
            heading = alice.wait(lambda: alice.driver.execute_script("""
                const h = [...document.querySelectorAll('h1')].find((e) => e.textContent === arguments[0] && e.checkVisibility());
                return h && [h.getBoundingClientRect().height, parseFloat(getComputedStyle(h).lineHeight), h.getBoundingClientRect().width];""",
                title), f"the heading {title!r}")
            self.assertLess(heading[0], heading[1] * 1.5, f"{title!r} on one line at 360 px: {heading}")
            width = alice.driver.execute_script("return [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
            self.assertLessEqual(width[0], width[1], f"no horizontal scroll on {hash_} at 360 px")

    def test_04_actions_never_cover_text_and_runs(self):
        from selenium.webdriver.common.action_chains import ActionChains
        alice = self.alice
        for width in (1280, 390):
            self.size(width, 900)
            self.open_bob()
            for text in ("Hi alice!", "Are you coming", "We leave at nine", "Yes, count me in.", "See you there"):
                row = self.row(text)
                alice.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", row)
                # Wide: a hover shows them; narrow: a click on the message (a hover would move rows).
                if width == 1280:
                    ActionChains(alice.driver).move_to_element(row).perform()
                else:
                    ActionChains(alice.driver).click(row.find_element("css selector", ".text")).perform()
                shown = alice.wait(lambda: (lambda c: c if c["shown"] else None)(alice.driver.execute_script(COVERS_SCRIPT, text)),
                                   f"the actions of {text!r} shown at {width} px")
                self.assertEqual(shown["hits"], [], f"at {width} px the actions of {text!r} ({shown['bar']}) cover no text")
            # Keyboard: the focus on a message's React button shows its actions, over no text.
            alice.driver.execute_script("(() => {" + ROW_SCRIPT + "})().querySelector('.actions button').focus()", "See you there")
            focused = alice.driver.execute_script(COVERS_SCRIPT, "See you there")
            self.assertTrue(focused["shown"])
            self.assertEqual(focused["hits"], [], f"at {width} px, focused")
        # Runs: bob's three messages share one avatar; "Today" once above the first.
        runs = alice.driver.execute_script("""
            return [...document.querySelectorAll('[role=log] .entry')].map((e) => [e.querySelector('.text')?.textContent.slice(0, 12),
              !!e.querySelector('.avatar'), e.classList.contains('continued'), e.querySelector('.day')?.textContent || '']);""")
        self.assertEqual([r[3] for r in runs if r[3]], ["Today"], runs)
        self.assertEqual(runs[0][3], "Today")
        theirs = [r for r in runs if r[0] and (r[0].startswith("Hi alice") or r[0].startswith("Are you") or r[0].startswith("We leave"))]
        self.assertEqual([(r[1], r[2]) for r in theirs], [(True, False), (False, True), (False, True)], runs)

    def row(self, text):
        return self.alice.wait(lambda: self.alice.driver.execute_script(ROW_SCRIPT, text), f"the row {text!r}")

    def test_05_avatars_legible_and_controls_named(self):
        from selenium.webdriver.common.by import By
        alice = self.alice
        self.size(1280)
        self.open_bob()
        for theme in ("light", "dark", "contrast"):
            self.theme(theme)
            ratios = alice.driver.execute_script(AVATAR_CONTRAST_SCRIPT)
            self.assertTrue(ratios, "avatars in the list and the log")
            for initials, ratio, colour in ratios:
                self.assertGreaterEqual(ratio, 4.5, f"{theme}: the avatar {initials} on {colour}")
        self.theme("system")
        hues = alice.driver.execute_script(
            "return Object.fromEntries([...document.querySelectorAll('.avatar')].map((a) => [a.textContent, a.style.getPropertyValue('--hue')]))")
        self.assertEqual(len(set(hues.values())), len(hues), f"a colour per name: {hues}")
        for hash_ in ("#/c/bob", f"#/c/g%3A{self.group}", "#/settings"):
            self.go(hash_)
            alice.wait(lambda: alice.driver.execute_script("return document.querySelectorAll('main h1').length") >= 1, hash_)
            time.sleep(0.3)
            unnamed = [(e.tag_name, e.get_attribute("outerHTML")[:120])
                       for e in alice.driver.find_elements(By.CSS_SELECTOR, "main button, main a[href], main input, main select, main textarea, nav a")
                       if e.is_displayed() and not (e.accessible_name or "").strip()]
            self.assertEqual(unnamed, [], f"every control on {hash_} has an accessible name")

    def test_06_screenshots(self):
        from selenium.webdriver.common.action_chains import ActionChains
        alice = self.alice
        os.makedirs(SCREENS, exist_ok=True)
        shots = []
        for width, height in ((1280, 800), (390, 844)):
            self.size(width, height)
            for theme in ("light", "dark"):
                self.theme(theme)
                self.open_bob()
                alice.driver.execute_script("const l = document.querySelector('[role=log]'); l.scrollTop = l.scrollHeight")
                time.sleep(0.2)
                shots.append(f"{SCREENS}/conversation-{width}-{theme}.png")
                alice.driver.save_screenshot(shots[-1])
                if theme == "light":  # a message's actions, shown by hovering it (a click when narrow)
                    row = self.row("Yes, count me in.")
                    ActionChains(alice.driver).move_to_element(row).perform()
                    if width < 900:
                        row.click()
                    time.sleep(0.2)
                    shots.append(f"{SCREENS}/actions-{width}-{theme}.png")
                    alice.driver.save_screenshot(shots[-1])
                    ActionChains(alice.driver).move_by_offset(0, -300).perform()
                if width == 390:
                    self.go("#/conversations")
                    alice.find("link", "bob", exact=False)
                    shots.append(f"{SCREENS}/conversations-{width}-{theme}.png")
                    alice.driver.save_screenshot(shots[-1])
        self.theme("system")
        self.size(1000, 800)
        print("\nscreenshots: " + " ".join(shots), flush=True)
        self.assertTrue(all(os.path.getsize(s) > 5000 for s in shots))

    def test_07_a_pushed_message_shows_collapses_and_opens_its_conversation(self):
        alice = self.alice
        self.go("#/conversations")
        alice.find("link", "bob", exact=False)
        devtools = DevTools(alice.driver)
        try:
            page = devtools.attach("page", self.server.url)
            devtools.send("ServiceWorker.enable", session=page)
            scope = self.server.url + "/"
            registration = devtools.event("ServiceWorker.workerRegistrationUpdated",
                                          lambda p: any(r["scopeURL"] == scope and not r["isDeleted"] for r in p["registrations"]))
            registration_id = next(r["registrationId"] for r in registration["registrations"] if r["scopeURL"] == scope)
            # A push reaches only an activated worker: under load the install (which caches the
            # shell) can still be running when the registration is first reported.
            alice.wait(lambda: alice.driver.execute_async_script(ACTIVATED_SCRIPT), "the service worker activated")

            def push(payload):
                devtools.send("ServiceWorker.deliverPushMessage",
                              {"origin": self.server.url, "registrationId": registration_id, "data": json.dumps(payload)}, page)
            direct = {"kind": "direct", "peer": "bob"}
            push({"type": "message", "conversation": direct, "sender": "bob", "messageId": "41", "text": "first of a burst"})
            push({"type": "message", "conversation": direct, "sender": "bob", "messageId": "42", "text": "second of a burst"})
            push({"type": "message", "conversation": {"kind": "group", "group": self.group}, "sender": "carol", "messageId": "43", "text": None})
            shown = alice.wait(lambda: (lambda n: n if len(n) == 2 and any(x["body"] == "second of a burst" for x in n) else None)(self.notifications()),
                               "a notification per conversation")
            by_tag = {n["tag"]: n for n in shown}
            self.assertEqual(set(by_tag), {"bob", f"g:{self.group}"}, "the burst collapsed under its conversation's tag")
            self.assertEqual((by_tag["bob"]["title"], by_tag["bob"]["body"], by_tag["bob"]["silent"]), ("bob", "second of a burst", True))
            self.assertEqual(by_tag["bob"]["data"]["conversation"], direct)
            self.assertTrue(by_tag["bob"]["icon"].endswith("/web/icon-192.png"))
            group = by_tag[f"g:{self.group}"]
            self.assertEqual((group["title"], group["body"]), ("carol in Trip", "New message"), "the group's name from IndexedDB; no text")

            # The click: Chromium headless has no notification to click, and a NotificationEvent
            # made in script is untrusted (waitUntil throws), so the test runs, inside the
            # worker, the function its notificationclick handler calls with the notification's
            # key: the open window is told to route there.
            worker = devtools.attach("service_worker", "/sw.js")
            devtools.evaluate(worker, "self.registration.getNotifications({tag: 'bob'}).then((ns) => openConversation(ns[0].data.key))")
            alice.wait(lambda: alice.driver.execute_script("return location.hash") == "#/c/bob", "the conversation opened from the notification")
            alice.find("textbox", "Message")
            # Opening it read it: its notifications closed, the group's stays.
            alice.wait(lambda: [n["tag"] for n in self.notifications()] == [f"g:{self.group}"], "bob's notification closed once read")
            self.go(f"#/c/g%3A{self.group}")
            alice.wait(lambda: self.notifications() == [], "the group's notification closed once opened")
        finally:
            devtools.close()

    def test_08_settings_turn_notifications_on(self):
        alice = self.alice
        self.go("#/settings")
        heading = alice.wait(lambda: alice.driver.execute_script(
            "return [...document.querySelectorAll('h2')].find((h) => h.textContent === 'Notifications')"), "the Notifications section")
        self.assertTrue(heading)
        alice.click("button", "Turn on notifications")
        alice.find("button", "Turn off notifications")
        status = alice.wait(lambda: (lambda t: t if t and "Turning" not in t else None)(
            alice.driver.execute_script("return document.querySelector('main [role=status]').textContent")), "the notifications' status")
        self.assertTrue("While a Chirp tab is open" in status or "Notifications are on" in status, status)
        print(f"\nSettings, notifications turned on: {status}", flush=True)
        prefs = lambda: json.loads(alice.driver.execute_script("return localStorage.getItem('chirp.notify.alice')"))  # noqa: E731
        self.assertTrue(prefs()["on"] and prefs()["preview"] and prefs()["id"])
        checkbox = alice.driver.execute_script(
            "return [...document.querySelectorAll('input[type=checkbox]')].find((c) => c.closest('label')?.textContent.trim() === 'Show message text in notifications')")
        self.assertEqual(checkbox.accessible_name, "Show message text in notifications")
        checkbox.click()
        alice.wait(lambda: prefs()["preview"] is False, "the preview turned off")
        checkbox.click()
        alice.wait(lambda: prefs()["preview"] is True, "the preview turned on again")
        self.assertEqual(alice.driver.execute_script("return Notification.permission"), "granted")

    def test_09_hidden_tab_notifies_unread_shows_and_reading_clears(self):
        alice = self.alice
        self.assertTrue(json.loads(alice.driver.execute_script("return localStorage.getItem('chirp.notify.alice')"))["on"])
        self.go("#/conversations")
        alice.find("link", "bob", exact=False)
        self.assertEqual(self.server.api("PUT", "/v1/conversations/carol/mute", token=self.tokens["alice"])[0], 204)
        alice.find("link", "🔕 carol", exact=False)  # muted, live
        first = alice.driver.current_window_handle
        alice.driver.switch_to.new_window("tab")
        devtools = DevTools(alice.driver)
        try:
            page = devtools.attach("page", self.server.url)
            self.assertEqual(devtools.evaluate(page, "document.visibilityState"), "hidden", "the first tab is hidden behind the second")
            self.say("carol", "alice", ["muted, no notification"])
            self.say("alice", "bob", ["my own, no notification"])
            self.say("bob", "alice", ["while you were away", "and once more"])
            shown = alice.wait(lambda: (lambda n: n if any(x["body"] == "and once more" for x in n) else None)(
                devtools.evaluate(page, NOTIFICATIONS_EXPRESSION)), "the notification of bob's message in the hidden tab")
            self.assertEqual([(n["title"], n["tag"], n["silent"]) for n in shown], [("bob", "bob", True)],
                             "bob's two collapse into one; none for the muted conversation or my own message")
            self.assertEqual(devtools.evaluate(page, "document.title"), "(2) Chirp", "the unread total, the muted conversation apart")
            self.assertTrue(devtools.evaluate(page, "document.querySelector('link[rel=icon]').href").startswith("data:image/png"),
                            "the favicon with its count")
        finally:
            devtools.close()
        alice.driver.close()
        alice.driver.switch_to.window(first)
        self.open_bob()
        alice.wait(lambda: self.notifications("bob") == [], "bob's notification closed once read")
        alice.wait(lambda: alice.driver.execute_script("return document.title") == "Chirp", "nothing unread")
        self.assertTrue(alice.driver.execute_script("return document.querySelector('link[rel=icon]').href").endswith("/web/icon-192.png"))

    def test_10_opens_offline_from_the_cache(self):
        self.addCleanup(lambda: self.server.process is None and self.server.start())  # back for the class's end
        alice = self.alice
        self.size(1000, 800)
        self.open_bob()
        self.server.stop()
        alice.driver.get(self.server.url + "/#/conversations")
        alice.find("link", "bob", exact=False)
        alice.find("link", "🔕 carol", exact=False)
        alice.wait(lambda: "Can't reach the server" in alice.banner(), "the unreachable notice")
        self.assertEqual(alice.driver.execute_script("return document.querySelectorAll('main h1').length"), 1, "the list, not an error page")
        alice.open_conversation("bob")
        alice.wait(lambda: "See you there" in alice.log_text(), "bob's conversation from IndexedDB")
        alice.send("typed with the server away")
        alice.wait(lambda: alice.mark_of("typed with the server away") == "sending", "the message waiting in the outbox")
        alice.driver.refresh()
        alice.find("textbox", "Message")
        alice.wait(lambda: alice.mark_of("typed with the server away") == "sending", "still waiting after a reload offline")
        self.server.start()
        alice.wait(lambda: alice.mark_of("typed with the server away") in ("delivered", "read"), "sent once the server is back", timeout=30)
        _, body = self.server.api("GET", "/v1/conversations/alice/messages?limit=100", token=self.tokens["bob"])
        self.assertEqual([m["text"] for m in body["items"]].count("typed with the server away"), 1)


if __name__ == "__main__":
    main()
