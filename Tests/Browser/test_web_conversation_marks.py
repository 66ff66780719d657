"""Browser test of pinned and muted conversations in the web client (issue 38): alice pins her
conversation with carol (it moves first with 📌) and mutes the one with bob (🔕; bob's new
message counts as unread but without the highlighted count, the client's one alert for new
messages); her second browser follows both live (`conversation.updated`); unpinning and
unmuting put things back. A pin made offline that the server then refuses (an 11th) is undone
with the banner. Two headless Chromium windows against a real `chirp serve`.

Run: python3 Tests/Browser/test_web_conversation_marks.py [path/to/chirp]   (default .build/debug/chirp)
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser_messages import main  # noqa: E402
from server_test_case import ServerTestCase  # noqa: E402
from test_web_client import PASSWORD  # noqa: E402

OTHERS = tuple(f"user{i}" for i in range(1, 11))  # ten more conversations: enough to fill the pins

# Each conversation row: its name (with the marks), its unread count and whether that count is
# highlighted.
ROWS_SCRIPT = """
    return [...document.querySelectorAll('[aria-label=Conversations] li.row')].map((li) => ({
      name: li.querySelector('.name').textContent,
      unread: li.querySelector('.unread')?.textContent || '',
      alert: !!li.querySelector('.badge'),
    }));"""


class ConversationMarksTests(ServerTestCase):
    @classmethod
    def set_up(cls):
        names = ("alice", "bob", "carol") + OTHERS
        cls.tokens = cls.server.register_friends(names, [("alice", name) for name in names[1:]], PASSWORD)
        # Oldest first: bob's conversation is the latest, carol's second.
        for name in OTHERS + ("carol", "bob"):
            status, body = cls.server.api("PUT", f"/v1/conversations/alice/messages/hello-{name}", {"text": f"hello from {name}"},
                                          token=cls.tokens[name])
            assert status == 201, body
        cls.alice = cls.open_browser("alice")
        cls.phone = cls.open_browser("alice's second browser")

    @staticmethod
    def rows(browser):
        return browser.driver.execute_script(ROWS_SCRIPT)

    def names(self, browser):
        return [row["name"] for row in self.rows(browser)]

    def row(self, browser, name):
        return next(row for row in self.rows(browser) if row["name"].endswith(name))

    def server_marks(self, peer):
        status, body = self.server.api("GET", "/v1/conversations?limit=100", token=self.tokens["alice"])
        self.assertEqual(status, 200)
        c = next(c for c in body["items"] if c["peer"]["username"] == peer)
        return c["pinned"], c["muted"]

    def test_01_pin_and_mute_show_here_and_on_the_other_device(self):
        alice, phone = self.alice, self.phone
        for browser in (alice, phone):
            browser.sign_in("alice", create=False)
            browser.wait(lambda b=browser: self.names(b)[:2] == ["bob", "carol"], "bob's and carol's conversations, latest first")

        alice.click("button", "Pin conversation with carol")
        alice.wait(lambda: self.names(alice)[:2] == ["📌 carol", "bob"], "carol's row first, with the pin")
        alice.find("button", "Unpin conversation with carol")
        alice.wait(lambda: self.server_marks("carol") == (True, False), "the pin on the server")
        phone.wait(lambda: self.names(phone)[:2] == ["📌 carol", "bob"], "the pin on the second browser, live")

        alice.click("button", "Mute conversation with bob")
        alice.wait(lambda: self.names(alice)[:2] == ["📌 carol", "🔕 bob"], "bob's row muted")
        alice.find("button", "Unmute conversation with bob")
        alice.wait(lambda: self.server_marks("bob") == (False, True), "the mute on the server")
        phone.wait(lambda: self.names(phone)[:2] == ["📌 carol", "🔕 bob"], "the mute on the second browser, live")
        self.assertTrue(self.row(alice, "carol")["alert"], "carol's unread count is highlighted")

        # bob writes again: counted as unread, not highlighted (the one alert for new messages).
        status, body = self.server.api("PUT", "/v1/conversations/alice/messages/again-bob", {"text": "are you there?"},
                                       token=self.tokens["bob"])
        self.assertEqual(status, 201, body)
        for browser in (alice, phone):
            browser.wait(lambda b=browser: self.row(b, "bob")["unread"] == ", 2 unread", "bob's new message counted")
            self.assertFalse(self.row(browser, "bob")["alert"], "no highlighted count for a muted conversation")

        alice.click("button", "Unpin conversation with carol")
        alice.click("button", "Unmute conversation with bob")
        for browser in (alice, phone):
            browser.wait(lambda b=browser: self.names(b)[:2] == ["bob", "carol"], "the marks gone, latest first again")
            self.assertTrue(self.row(browser, "bob")["alert"], "bob's unread count highlighted again")
        alice.find("button", "Pin conversation with carol")
        alice.find("button", "Mute conversation with bob")
        alice.wait(lambda: self.server_marks("carol") == (False, False) and self.server_marks("bob") == (False, False),
                   "the marks gone on the server")
        self.assertEqual(alice.banner(), "")

    def test_02_a_pin_the_server_refuses_is_undone(self):
        alice = self.alice
        alice.driver.execute_cdp_cmd("Network.enable", {})
        offline = {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
        alice.driver.execute_cdp_cmd("Network.emulateNetworkConditions", offline)
        try:
            alice.click("button", "Pin conversation with carol")
            alice.wait(lambda: self.names(alice)[0] == "📌 carol", "the pin shown at once, offline")
            # Meanwhile alice's other device pins ten: carol's pin is the 11th when it arrives.
            for name in OTHERS:
                status, body = self.server.api("PUT", f"/v1/conversations/{name}/pin", token=self.tokens["alice"])
                self.assertEqual(status, 204, body)
        finally:
            alice.driver.execute_cdp_cmd("Network.emulateNetworkConditions", {**offline, "offline": False})
        alice.wait(lambda: "At most 10 conversations can be pinned" in alice.banner(), "the refusal's banner", timeout=30)
        alice.wait(lambda: "carol" in self.names(alice) and all(n.startswith("📌 user") for n in self.names(alice)[:10]),
                   "carol's pin undone, the other device's ten pinned first")
        alice.find("button", "Pin conversation with carol")
        self.assertEqual(self.server_marks("carol"), (False, False))


if __name__ == "__main__":
    main()
