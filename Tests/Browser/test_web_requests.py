"""Browser test of message requests in the web client (issue 38): alice lets everyone message
her (Settings); messages from bob, carol and dave, whom she does not follow, wait under
Message requests, not in her conversations; she accepts bob's (his conversation joins her
list), declines carol's, reports and blocks dave, each with a button named for whom it answers
("Accept request from bob"); her second browser follows the answers live
(`conversation.updated`); a request that arrives while the screen is open shows at once, and
a reply from the second browser accepts it.
Two headless Chromium windows against a real `chirp serve`.

Run: python3 Tests/Browser/test_web_requests.py [path/to/chirp]   (default .build/debug/chirp)
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser_messages import main  # noqa: E402
from server_test_case import ServerTestCase  # noqa: E402
from test_web_client import PASSWORD  # noqa: E402

STRANGERS = ("bob", "carol", "dave", "erin")

# The names of the rows of a list (the conversations, or the requests).
ROWS_SCRIPT = """
    return [...document.querySelectorAll(`[aria-label="${arguments[0]}"] li.row .name`)].map((n) => n.textContent);"""


class RequestsTests(ServerTestCase):
    @classmethod
    def set_up(cls):
        cls.tokens = cls.server.register_friends(("alice",) + STRANGERS, [], PASSWORD)
        cls.alice = cls.open_browser("alice")
        cls.phone = cls.open_browser("alice's second browser")

    @staticmethod
    def rows(browser, label):
        return browser.driver.execute_script(ROWS_SCRIPT, label)

    def send(self, sender, text):
        status, body = self.server.api("PUT", f"/v1/conversations/alice/messages/{sender}-{len(text)}", {"text": text},
                                       token=self.tokens[sender])
        self.assertEqual(status, 201, body)

    def server_list(self, requests):
        status, body = self.server.api("GET", f"/v1/conversations?limit=100{'&requests=true' if requests else ''}",
                                       token=self.tokens["alice"])
        self.assertEqual(status, 200, body)
        return [c["peer"]["username"] for c in body["items"]]

    def test_01_requests_wait_apart_and_are_answered_from_their_screen(self):
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.ui import Select

        alice, phone = self.alice, self.phone
        alice.sign_in("alice", create=False)
        alice.find("link", "Message requests")  # the conversations screen shows: the session has started
        alice.click("link", "Settings")
        select = alice.wait(lambda: alice.driver.find_element(By.XPATH, "//select[@id='f-who-may-message-you-first']"),
                            "the message requests setting")
        alice.wait(lambda: select.get_attribute("value") == "followers", "the default read from the server")
        Select(select).select_by_value("everyone")
        alice.wait(lambda: self.server.api("GET", "/v1/me/settings", token=self.tokens["alice"])[1] == {"messageRequests": "everyone"},
                   "the setting saved on the server")

        alice.click("link", "Conversations")
        for name in ("dave", "carol", "bob"):
            self.send(name, f"hello from {name}")
        alice.click("link", "Message requests")
        alice.wait(lambda: self.rows(alice, "Message requests") == ["bob", "carol", "dave"], "the requests, latest first")
        phone.sign_in("alice", create=False)
        self.assertEqual(self.rows(phone, "Conversations"), [], "requests are not conversations")
        phone.click("link", "Message requests")
        phone.wait(lambda: self.rows(phone, "Message requests") == ["bob", "carol", "dave"], "the requests on the second browser")

        alice.click("button", "Accept request from bob")
        alice.wait(lambda: self.rows(alice, "Message requests") == ["carol", "dave"], "bob's request answered")
        alice.wait(lambda: self.server_list(False) == ["bob"] and "bob" not in self.server_list(True), "accepted on the server")
        alice.click("button", "Decline request from carol")
        alice.wait(lambda: self.rows(alice, "Message requests") == ["dave"], "carol's request answered")
        alice.wait(lambda: self.server_list(True) == ["dave"], "declined on the server")
        phone.wait(lambda: self.rows(phone, "Message requests") == ["dave"], "both answers on the second browser, live")

        alice.click("button", "Report dave")
        alice.driver.switch_to.alert.accept()
        alice.wait(lambda: "your report about dave was sent" in alice.banner(), "the report's banner")
        alice.click("button", "Block dave")
        alice.driver.switch_to.alert.accept()
        alice.wait(lambda: self.rows(alice, "Message requests") == [], "dave's request gone with the block")
        status, blocks = self.server.api("GET", "/v1/me/blocks", token=self.tokens["alice"])
        self.assertEqual([u["username"] for u in blocks["items"]], ["dave"])

        alice.click("link", "Conversations")
        alice.wait(lambda: self.rows(alice, "Conversations") == ["bob"], "only the accepted one in the list")
        alice.click("link", "Message requests")

        # A new request while the screen is open shows at once; a reply from the second
        # browser accepts it, here too.
        self.send("erin", "hi alice, erin here")
        for browser in (alice, phone):
            browser.wait(lambda b=browser: self.rows(b, "Message requests") == ["erin"], "erin's request, live")
        phone.click("link", "erin", exact=False)
        phone.send("hi erin")
        alice.wait(lambda: self.rows(alice, "Message requests") == [], "the reply accepted erin's request")
        self.assertEqual(self.server_list(True), [])
        alice.click("link", "Conversations")
        alice.wait(lambda: self.rows(alice, "Conversations") == ["erin", "bob"], "erin's conversation joins the list")


if __name__ == "__main__":
    main()
