"""Browser tests of the web client: two headless Chromium sessions (alice and bob) against a
real `chirp serve` child process. Elements are found by their accessible names and roles, as
Chromium computes them.

Run: python3 Tests/Browser/test_web_client.py [path/to/chirp]   (default .build/debug/chirp)
Skipped with a reason when Chromium, chromedriver or Selenium is missing, unless CI=true.
"""
import os
import shutil
import statistics
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from chirp_server import ChirpServer  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BINARY = os.environ.get("CHIRP_BINARY") or os.path.join(ROOT, ".build", "debug", "chirp")
PASSWORD = "correct horse"


def missing_requirement():
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install selenium==4.51.0)"
    if not (shutil.which("chromium") or shutil.which("chromium-browser")):
        return "chromium is not installed (apt-get install chromium chromium-driver)"
    if not shutil.which("chromedriver"):
        return "chromedriver is not installed (apt-get install chromium-driver)"
    if not os.access(BINARY, os.X_OK):
        return f"no chirp binary at {BINARY} (swift build first)"
    return None


ROLE_XPATH = {
    "button": "//button | //*[@role='button']",
    "link": "//a[@href]",
    "textbox": "//input[not(@type) or @type='text' or @type='password'] | //textarea",
    "radio": "//input[@type='radio']",
}


class Browser:
    """One user's browser window."""

    def __init__(self, url, name, download_dir=None):
        """`download_dir`: where the browser saves downloads, without asking."""
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
        # Chromium's profile and the scoped directories it makes under TMPDIR go into one
        # directory of this browser's own, removed by quit(): none is left in /tmp.
        self.scratch = tempfile.mkdtemp(prefix="chirp-chromium-")
        options = webdriver.ChromeOptions()
        options.binary_location = shutil.which("chromium") or shutil.which("chromium-browser")
        for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                         "--window-size=1000,800", "--no-proxy-server",
                         f"--user-data-dir={os.path.join(self.scratch, 'profile')}"):
            options.add_argument(argument)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        if download_dir:
            options.add_experimental_option("prefs", {
                "download.default_directory": download_dir, "download.prompt_for_download": False})
        service = Service(shutil.which("chromedriver"), env={**os.environ, "TMPDIR": self.scratch})
        try:
            self.driver = webdriver.Chrome(options=options, service=service)
        except BaseException:
            shutil.rmtree(self.scratch, ignore_errors=True)
            raise
        if download_dir:
            self.driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": download_dir})
        self.driver.set_script_timeout(20)
        self.url = url
        self.name = name

    def quit(self):
        try:
            self.driver.quit()
        finally:
            shutil.rmtree(self.scratch, ignore_errors=True)

    def wait(self, condition, what, timeout=15):
        deadline = time.monotonic() + timeout
        while True:
            try:
                value = condition()
                if value:
                    return value
            except Exception:  # a stale element while the view re-renders
                pass
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.name}: timed out waiting for {what}; page text: {self.text()[:600]!r}")
            time.sleep(0.05)

    def text(self):
        try:
            return self.driver.execute_script("return document.body.innerText")
        except Exception:
            return ""

    def find(self, role, name, exact=True):
        """The visible element of `role` whose accessible name is `name` (or starts with it)."""
        from selenium.webdriver.common.by import By

        def look():
            for element in self.driver.find_elements(By.XPATH, ROLE_XPATH[role]):
                label = element.accessible_name or ""
                if (label == name if exact else label.startswith(name)) and element.is_displayed():
                    return element
            return None
        try:
            return self.wait(look, f"{role} named {name!r}")
        except AssertionError as error:
            names = [e.accessible_name for e in self.driver.find_elements(By.XPATH, ROLE_XPATH[role])]
            raise AssertionError(f"{error}; {role} names: {names}") from None

    def absent(self, role, name):
        from selenium.webdriver.common.by import By
        return not any(e.accessible_name == name and e.is_displayed()
                       for e in self.driver.find_elements(By.XPATH, ROLE_XPATH[role]))

    def fill(self, name, value):
        field = self.find("textbox", name)
        field.clear()
        field.send_keys(value)
        return field

    def click(self, role, name, exact=True):
        self.find(role, name, exact).click()

    def log_text(self):
        return self.driver.execute_script("const l = document.querySelector('[role=log]'); return l ? l.innerText : ''")

    def banner(self):
        return self.driver.execute_script("const b = document.querySelector('[role=alert]'); return b && !b.hidden ? b.innerText : ''")

    def sign_in(self, username, create):
        self.driver.get(self.url + "/")
        self.fill("Username", username)
        self.fill("Password", PASSWORD)
        self.click("button", "Create account" if create else "Log in")
        self.find("link", "Conversations")

    def open_conversation(self, peer):
        self.click("link", "Conversations")
        self.click("link", peer, exact=False)
        self.find("textbox", "Message")
        self.wait(lambda: self.driver.execute_script("return !!document.querySelector('[role=log]')"), "the message log")

    def send(self, text):
        from selenium.webdriver.common.keys import Keys
        field = self.find("textbox", "Message")
        field.send_keys(text)
        field.send_keys(Keys.ENTER)

    def mark_of(self, text):
        """The delivery mark (a word) of my message with this text, or None."""
        return self.driver.execute_script("""
            for (const row of document.querySelectorAll('[role=log] .msg.mine')) {
              if (row.querySelector('.text').textContent === arguments[0]) return row.querySelector('.mark').textContent;
            }
            return null;""", text)


@unittest.skipIf(missing_requirement() and os.environ.get("CI") != "true", f"skipped: {missing_requirement()}")
class WebClientTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        reason = missing_requirement()
        if reason:
            raise AssertionError(f"CI=true requires the browser tests to run: {reason}")
        cls.server = ChirpServer(BINARY)
        cls.server.start()
        cls.alice = Browser(cls.server.url, "alice")
        cls.bob = Browser(cls.server.url, "bob")

    @classmethod
    def tearDownClass(cls):
        for browser in (cls.alice, cls.bob):
            browser.quit()
        cls.server.stop()
        shutil.rmtree(cls.server.data_dir, ignore_errors=True)

    def token(self, username):
        status, body = self.server.api("POST", "/v1/sessions", {"username": username, "password": PASSWORD})
        self.assertEqual(status, 201)
        return body["token"]

    def messages_between(self, username, peer):
        status, body = self.server.api("GET", f"/v1/conversations/{peer}/messages?limit=100", token=self.token(username))
        self.assertEqual(status, 200)
        return [m["text"] for m in body["items"]]

    def test_01_register_log_out_and_in(self):
        alice, bob = self.alice, self.bob
        alice.sign_in("alice", create=True)
        bob.sign_in("bob", create=True)
        loaded = alice.driver.execute_script("""
            const files = [performance.getEntriesByType('navigation')[0], ...performance.getEntriesByType('resource')]
              .filter((e) => /\\/$|\\.(html|js|css)$/.test(new URL(e.name).pathname));
            return [files.length, files.reduce((sum, e) => sum + e.decodedBodySize, 0)];""")
        print(f"\nfirst load: {loaded[1]} bytes of HTML, JS and CSS in {loaded[0]} files (uncompressed)", flush=True)
        self.assertLess(loaded[1], 160 * 1024)  # issue 54 raised the limit from 80 KB
        alice.click("link", "Settings")
        alice.click("button", "Log out")
        alice.find("button", "Log in")
        databases = alice.driver.execute_async_script(
            "indexedDB.databases().then((d) => arguments[0](d.map((x) => x.name)))")
        self.assertNotIn("chirp-alice", databases, "log out wipes alice's stored data")
        self.assertIsNone(alice.driver.execute_script("return localStorage.getItem('chirp.session')"))
        alice.fill("Username", "alice")
        alice.fill("Password", "wrong password")
        alice.click("button", "Log in")
        alice.wait(lambda: "Wrong username or password" in alice.banner(), "the wrong-password banner")
        # Keyboard only: the password field, Enter submits; Tab reaches the navigation.
        from selenium.webdriver.common.keys import Keys
        password = alice.find("textbox", "Password")
        password.clear()
        password.send_keys(PASSWORD, Keys.ENTER)
        alice.find("button", "New message")
        active = "return document.activeElement.getAttribute('href') || document.activeElement.tagName"
        alice.driver.execute_script("document.querySelector('nav a').focus()")
        alice.driver.switch_to.active_element.send_keys(Keys.TAB)
        self.assertEqual(alice.driver.execute_script(active), "#/timeline")
        alice.driver.switch_to.active_element.send_keys(Keys.ENTER)
        alice.find("textbox", "What's happening?")
        alice.click("link", "Conversations")

    def test_02_not_allowed_then_send_live_and_read(self):
        alice, bob = self.alice, self.bob
        alice.click("button", "New message")
        alice.fill("To", "nobody_here")
        alice.fill("Message", "hello?")
        alice.click("button", "Send")
        alice.wait(lambda: "no user named nobody_here" in alice.banner(), "the no-such-user banner")
        alice.fill("To", "bob")
        alice.fill("Message", "before any follow")
        alice.click("button", "Send")
        alice.wait(lambda: alice.mark_of("before any follow") == "failed", "the failed mark")
        self.assertIn("can't message bob", alice.banner())
        alice.find("button", "Retry")
        # Permission to write: bob follows alice, from alice's conversation screen.
        bob.driver.get(self.server.url + "/#/c/alice")
        bob.click("button", "Follow")
        bob.find("button", "Unfollow")
        bob.click("link", "Conversations")
        alice.click("button", "Retry")
        alice.wait(lambda: alice.mark_of("before any follow") in ("sent", "delivered"), "the retried message sent")
        alice.send("hello bob")
        alice.wait(lambda: alice.mark_of("hello bob") == "delivered", "hello bob delivered")
        # bob, on his conversation list since he logged in: live, without reload.
        bob.wait(lambda: "2 unread" in (bob.find("link", "alice", exact=False).accessible_name or ""), "alice's conversation with 2 unread")
        bob.open_conversation("alice")
        bob.wait(lambda: "hello bob" in bob.log_text(), "the message in bob's log")
        alice.wait(lambda: alice.mark_of("hello bob") == "read", "the read mark")

    def test_03_typing_and_reply_with_a_new_line(self):
        from selenium.webdriver.common.keys import Keys
        alice, bob = self.alice, self.bob
        field = bob.find("textbox", "Message")
        field.send_keys("line one")
        alice.wait(lambda: "bob is typing" in alice.text(), "bob's typing notice")
        field.send_keys(Keys.SHIFT, Keys.ENTER)
        field.send_keys("line two")
        self.assertEqual(field.get_attribute("value"), "line one\nline two", "Shift-Enter is a new line")
        field.send_keys(Keys.ENTER)
        alice.wait(lambda: "line one\nline two" in alice.log_text(), "bob's two-line reply at alice")
        self.assertEqual(field.get_attribute("value"), "", "Enter sent it")

    def test_04_an_over_long_message_is_refused(self):
        alice = self.alice
        field = alice.find("textbox", "Message")
        alice.driver.execute_script("arguments[0].value = 'x'.repeat(10001); arguments[0].dispatchEvent(new Event('input'))", field)
        alice.click("button", "Send")
        alice.wait(lambda: "Too long" in alice.banner(), "the too-long banner")
        self.assertNotIn("x" * 100, alice.log_text())
        self.assertEqual(len(field.get_attribute("value")), 10001, "the text stays for shortening")
        field.clear()
        alice.click("button", "Dismiss")
        alice.wait(lambda: alice.banner() == "", "the banner dismissed")

    def test_05_send_to_display_latency(self):
        """From the Enter key in alice's window to the text in bob's log (bob's DOM is polled
        back to back, a few ms a poll)."""
        from selenium.webdriver.common.keys import Keys
        alice, bob = self.alice, self.bob
        samples = []
        for i in range(20):
            text = f"latency probe {i}"
            field = alice.find("textbox", "Message")
            alice.driver.execute_script("arguments[0].value = arguments[1]", field, text)
            started = time.monotonic()
            field.send_keys(Keys.ENTER)
            while not bob.driver.execute_script(
                    "return [...document.querySelectorAll('[role=log] .text')].some((t) => t.textContent === arguments[0])", text):
                self.assertLess(time.monotonic() - started, 10, f"{text} did not reach bob")
            samples.append((time.monotonic() - started) * 1000)
        median = statistics.median(samples)
        print(f"\nsend in alice's browser to display in bob's: median {median:.0f} ms of 20 "
              f"(min {min(samples):.0f}, max {max(samples):.0f})", flush=True)
        self.assertLess(median, 2000)

    def test_06_offline_send_and_recovery_after_restart(self):
        try:
            self.offline_send_and_recovery()
        finally:
            if self.server.process is None:
                self.server.start()

    def offline_send_and_recovery(self):
        alice, bob = self.alice, self.bob
        self.server.stop()
        alice.wait(lambda: "Can't reach the server" in alice.banner(), "the unreachable banner")
        alice.send("written while offline")
        alice.wait(lambda: alice.mark_of("written while offline") == "sending", "the sending mark")
        self.server.start()
        alice.wait(lambda: alice.mark_of("written while offline") in ("delivered", "read"), "delivery after the restart", timeout=30)
        bob.wait(lambda: "written while offline" in bob.log_text(), "the offline message at bob", timeout=30)
        # Written offline, tab closed, server back, tab reopened: sent once.
        self.server.stop()
        alice.wait(lambda: "Can't reach the server" in alice.banner(), "the unreachable banner again")
        alice.send("kept across a reopen")
        alice.wait(lambda: alice.mark_of("kept across a reopen") == "sending", "the sending mark")
        alice.driver.get("about:blank")
        self.server.start()
        alice.driver.get(self.server.url + "/#/c/bob")
        alice.wait(lambda: alice.mark_of("kept across a reopen") in ("delivered", "read"), "delivery after the reopen", timeout=30)
        bob.wait(lambda: "kept across a reopen" in bob.log_text(), "the reopened tab's message at bob", timeout=30)
        texts = self.messages_between("bob", "alice")
        self.assertEqual(texts.count("written while offline"), 1)
        self.assertEqual(texts.count("kept across a reopen"), 1)
        self.assertEqual(bob.log_text().count("kept across a reopen"), 1)

    def test_07_timeline_post_and_refresh(self):
        alice, bob = self.alice, self.bob
        alice.click("link", "Timeline")
        field = alice.fill("What's happening?", "Hello from the browser")
        alice.wait(lambda: "22/280" in alice.text(), "the live count")
        alice.click("button", "Post")
        alice.wait(lambda: any("Hello from the browser" in a.text for a in alice.driver.find_elements("css selector", "[role=article], article")), "the posted tweet")
        self.assertEqual(field.get_attribute("value"), "")
        bob.click("link", "Timeline")
        bob.click("button", "Refresh")
        bob.wait(lambda: any("Hello from the browser" in a.text for a in bob.driver.find_elements("css selector", "article")), "the tweet at bob after refresh")

    def test_08_theme_switch(self):
        alice = self.alice
        alice.click("link", "Settings")
        background = "return getComputedStyle(document.body).backgroundColor"
        alice.click("radio", "Dark")
        alice.wait(lambda: alice.driver.execute_script(background) == "rgb(15, 20, 25)", "the dark background")
        alice.click("radio", "High contrast")
        alice.wait(lambda: alice.driver.execute_script(background) == "rgb(0, 0, 0)", "the high-contrast background")
        alice.click("radio", "Light")
        alice.wait(lambda: alice.driver.execute_script(background) == "rgb(255, 255, 255)", "the light background")
        alice.driver.refresh()
        alice.find("link", "Settings")
        self.assertEqual(alice.driver.execute_script("return document.documentElement.dataset.theme"), "light")

    def test_09_narrow_window_has_no_horizontal_scroll(self):
        alice = self.alice
        alice.driver.set_window_size(390, 844)
        alice.open_conversation("bob")
        alice.send("a-very-long-unbroken-word-" * 12)
        alice.wait(lambda: alice.mark_of("a-very-long-unbroken-word-" * 12), "the long message")
        width = alice.driver.execute_script("return [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        self.assertLessEqual(width[0], width[1], f"no horizontal scroll at 390 px: {width}")
        self.assertEqual(alice.driver.execute_script("return document.documentElement.dataset.stream"), "websocket",
                         "the event stream runs over the WebSocket under the CSP")
        violations = [e["message"] for e in alice.driver.get_log("browser") if "Content Security Policy" in e["message"]]
        self.assertEqual(violations, [], "nothing the page does is refused by its CSP")

    def test_10_a_second_tab_stays_consistent(self):
        alice = self.alice
        alice.driver.set_window_size(1000, 800)
        first = alice.driver.current_window_handle
        alice.driver.switch_to.new_window("tab")
        alice.driver.get(self.server.url + "/#/c/bob")
        alice.send("from the second tab")
        alice.wait(lambda: alice.mark_of("from the second tab") in ("sent", "delivered"), "the second tab's message sent")
        alice.driver.close()
        alice.driver.switch_to.window(first)
        alice.wait(lambda: alice.mark_of("from the second tab") == "delivered", "the message in the first tab")
        self.assertEqual(alice.log_text().count("from the second tab"), 1)
        self.assertEqual(self.messages_between("alice", "bob").count("from the second tab"), 1)
        # Logging out in one tab logs the other out too.
        alice.driver.switch_to.new_window("tab")
        alice.driver.get(self.server.url + "/#/settings")
        alice.click("button", "Log out")
        alice.find("button", "Log in")
        alice.driver.close()
        alice.driver.switch_to.window(first)
        alice.find("button", "Log in")

    def test_11_ten_thousand_messages_keep_few_rows_in_the_dom(self):
        alice = self.alice
        status, body = self.server.api("POST", "/v1/accounts", {"username": "zed", "password": PASSWORD})
        self.assertEqual(status, 201)
        self.assertEqual(self.server.api("PUT", "/v1/users/alice/follow", token=body["token"])[0], 204)
        started = time.monotonic()
        token = self.token("alice")
        self.server.send_many(token, "zed", ["bulk 0"])  # first and last on their own: a known order
        self.server.send_many(token, "zed", [f"bulk {i}" for i in range(1, 9999)], first=1)
        self.server.send_many(token, "zed", ["bulk 9999"], first=9999)
        seeded = time.monotonic() - started
        alice.sign_in("alice", create=False)
        alice.open_conversation("zed")
        alice.wait(lambda: "bulk 9999" in alice.log_text(), "the newest message")
        rows = "return document.querySelectorAll('[role=log] .msg').length"
        started = time.monotonic()
        while "bulk 0\n" not in alice.log_text() + "\n":
            alice.driver.execute_script("document.querySelector('[role=log]').scrollTop = 0")
            self.assertLess(alice.driver.execute_script(rows), 80, "only rows near the viewport are in the DOM")
            self.assertLess(time.monotonic() - started, 60, "paging back to the first message")
            time.sleep(0.02)
        paged = time.monotonic() - started
        loaded = alice.driver.execute_script("return document.querySelector('[role=log]').scrollHeight")
        print(f"\n10,000 messages: seeded in {seeded:.1f} s, paged back to the first in {paged:.1f} s, "
              f"{alice.driver.execute_script(rows)} rows in the DOM, log {loaded} px tall", flush=True)
        self.assertGreater(loaded, 10000 * 30)
        alice.driver.execute_script("const l = document.querySelector('[role=log]'); l.scrollTop = l.scrollHeight / 2")
        alice.wait(lambda: "bulk 0\n" not in alice.log_text() and "bulk 9999" not in alice.log_text(), "the middle of the history")
        self.assertLess(alice.driver.execute_script(rows), 80)

    def test_12_long_poll_when_the_websocket_cannot_connect(self):
        status, body = self.server.api("POST", "/v1/accounts", {"username": "carol", "password": PASSWORD})
        self.assertEqual(status, 201)
        self.assertEqual(self.server.api("PUT", "/v1/users/carol/follow", token=self.token("bob"))[0], 204)
        carol = Browser(self.server.url, "carol")
        try:
            # Every WebSocket this page opens fails at once, as behind a proxy that drops upgrades.
            carol.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
                window.WebSocket = class { constructor() { setTimeout(() => this.onclose && this.onclose({ code: 1006 }), 10); } close() {} };"""})
            carol.sign_in("carol", create=False)
            carol.wait(lambda: carol.driver.execute_script("return document.documentElement.dataset.stream") == "long-poll",
                       "the long-poll fallback", timeout=20)
            carol.click("button", "New message")
            carol.fill("To", "bob")
            carol.fill("Message", "polling hello")
            carol.click("button", "Send")
            carol.wait(lambda: carol.mark_of("polling hello") == "delivered", "delivery seen through the long-poll")
            status, _ = self.server.api("PUT", "/v1/conversations/carol/messages/reply-1", {"text": "bob answers"}, self.token("bob"))
            self.assertEqual(status, 201)
            carol.wait(lambda: "bob answers" in carol.log_text(), "bob's answer through the long-poll")
        finally:
            carol.quit()


if __name__ == "__main__":
    if len(sys.argv) > 1 and os.path.exists(sys.argv[1]):
        BINARY = sys.argv.pop(1)
    reason = missing_requirement()
    if reason and os.environ.get("CI") != "true":
        print(f"browser tests skipped: {reason}")
        sys.exit(0)
    unittest.main(verbosity=2)
