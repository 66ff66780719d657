"""Helpers of the part-2 browser tests: two users who follow each other, signed in in two
headless Chromium windows against a real `chirp serve`, and the rows of a conversation's log
found by their text."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import test_web_client  # noqa: E402
from chirp_server import ChirpServer  # noqa: E402
from test_web_client import PASSWORD, Browser  # noqa: E402

ROW_SCRIPT = """
    for (const row of document.querySelectorAll('[role=log] .msg')) {
      const text = row.querySelector('.text, .file');
      if (text && text.textContent.includes(arguments[0])) return row;
    }
    return null;"""


def binary_from_argv():
    """The chirp binary named on the command line (as test_web_client.py takes it)."""
    if len(sys.argv) > 1 and os.path.exists(sys.argv[1]):
        test_web_client.BINARY = sys.argv.pop(1)
    return test_web_client.BINARY


def main():
    binary_from_argv()
    reason = test_web_client.missing_requirement()
    if reason and os.environ.get("CI") != "true":
        print(f"browser tests skipped: {reason}")
        sys.exit(0)
    unittest.main(verbosity=2)


class TwoUsersTestCase(unittest.TestCase):
    """alice and bob, who follow each other, each in a browser on their conversation."""

    @classmethod
    def setUpClass(cls):
        reason = test_web_client.missing_requirement()
        if reason:
            raise AssertionError(f"CI=true requires the browser tests to run: {reason}")
        cls.server = ChirpServer(test_web_client.BINARY)
        cls.server.start()
        cls.tokens = {}
        for name in ("alice", "bob"):
            status, body = cls.server.api("POST", "/v1/accounts", {"username": name, "password": PASSWORD})
            assert status == 201, body
            cls.tokens[name] = body["token"]
        for follower, followed in (("alice", "bob"), ("bob", "alice")):
            status, _ = cls.server.api("PUT", f"/v1/users/{followed}/follow", token=cls.tokens[follower])
            assert status == 204
        cls.alice = Browser(cls.server.url, "alice")
        cls.bob = Browser(cls.server.url, "bob")
        for browser, peer in ((cls.alice, "bob"), (cls.bob, "alice")):
            browser.sign_in(browser.name, create=False)
            browser.find("button", "New message")  # signed in and routed: the hash is ours now
            browser.driver.get(f"{cls.server.url}/#/c/{peer}")
            browser.find("textbox", "Message")

    # The same end as the part-1 tests': both browsers, the server, its data.
    tearDownClass = classmethod(test_web_client.WebClientTests.tearDownClass.__func__)

    def api(self, method, path, body=None, user="alice"):
        return self.server.api(method, path, body, token=self.tokens[user])

    def message_id(self, user, peer, text):
        """The server id of the message with `text` between `user` and `peer`."""
        status, body = self.api("GET", f"/v1/conversations/{peer}/messages?limit=100", user=user)
        self.assertEqual(status, 200)
        return next(m["id"] for m in reversed(body["items"]) if m["text"] == text)

    @staticmethod
    def row(browser, text):
        """The log row whose text (or file link) contains `text`."""
        return browser.wait(lambda: browser.driver.execute_script(ROW_SCRIPT, text), f"the row {text!r}")

    @staticmethod
    def row_text(browser, text):
        """All the text of the row containing `text`, or '' when there is none."""
        return browser.driver.execute_script("const row = (() => {" + ROW_SCRIPT + "})(); return row ? row.innerText : ''", text)

    @staticmethod
    def reactions(browser, text):
        return browser.driver.execute_script(
            "const row = (() => {" + ROW_SCRIPT + "})(); return row ? [...row.querySelectorAll('.reactions button')].map((b) => b.textContent) : null", text)

    def on_row(self, browser, text, name):
        """Hovers the row containing `text` and clicks its button `name` (the actions show on hover)."""
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.by import By

        def attempt():
            row = browser.driver.execute_script(ROW_SCRIPT, text)
            if not row:
                return False
            ActionChains(browser.driver).move_to_element(row).perform()
            for button in row.find_elements(By.CSS_SELECTOR, "button"):
                if button.accessible_name == name and button.is_displayed():
                    button.click()
                    return True
            return False
        browser.wait(attempt, f"the button {name!r} on the row {text!r}")

    @staticmethod
    def click_in(browser, selector, text, what):
        """Clicks the element matching `selector` whose text is `text` (found first, clicked once:
        the click may redraw the others)."""
        from selenium.webdriver.common.by import By
        found = browser.wait(lambda: next((e for e in browser.driver.find_elements(By.CSS_SELECTOR, selector) if e.text == text), None), what)
        found.click()

    def pick(self, browser, emoji):
        """Clicks `emoji` in the open reaction picker."""
        self.click_in(browser, ".picker button", emoji, f"{emoji} in the picker")
