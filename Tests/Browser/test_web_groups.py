"""Browser test of group conversations in the web client (issue 38): alice creates a group on
the New group screen (its title, bob and carol picked from the people she may message); the
three of them talk in it live from three browsers, each message under its sender's name; carol
typing shows to alice as "carol is typing"; alice's message says "read by 2" once bob and carol
have read it, and that opens the list of who read it (names, usernames, times) by its
accessible name "Read by 2: show who", closed by Close or Escape; alice pins and mutes the group in her list; she removes carol from the Members
panel, and carol's browser keeps what she saw but can send nothing more, nor gets what follows.
Then a group request: erin, whom carol does not follow, adds her to a group (carol lets
everyone message her); it waits under Message requests, and carol accepts it. A group with
no message yet shows in bob's list at once, with no preview.
Three headless Chromium windows against a real `chirp serve`.

Run: python3 Tests/Browser/test_web_groups.py [path/to/chirp]   (default .build/debug/chirp)
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser_messages import ROW_SCRIPT, main  # noqa: E402
from server_test_case import ServerTestCase  # noqa: E402
from test_web_client import PASSWORD  # noqa: E402

# The names of the rows of a list (the conversations, or the requests).
ROWS_SCRIPT = """
    return [...document.querySelectorAll(`[aria-label="${arguments[0]}"] li.row .name`)].map((n) => n.textContent);"""

# The sender's name and the delivery mark of the row with this text ('' when it has none).
ROW_PARTS_SCRIPT = "const row = (() => {" + ROW_SCRIPT + """})();
    return row ? [row.querySelector('.sender strong')?.textContent || '', row.querySelector('.mark')?.textContent || ''] : null;"""

# The readers list on screen (the section under a visible "Read by" heading): each reader's
# name, the text of their row, whether it says when, and whether the list has the focus; null
# when none shows.
READERS_SCRIPT = """
    const heading = [...document.querySelectorAll('h2')].find((e) => e.textContent.startsWith('Read by') && e.checkVisibility());
    const list = heading?.closest('section').querySelector('ul');
    if (!list) return null;
    const items = [...list.querySelectorAll('li')];
    return {names: items.map((li) => li.querySelector('.name').textContent), rows: items.map((li) => li.textContent),
            timed: items.every((li) => li.querySelector('time[datetime]')?.textContent), focused: list === document.activeElement};"""


class GroupTests(ServerTestCase):
    @classmethod
    def set_up(cls):
        cls.tokens = cls.server.register_friends(
            ("alice", "bob", "carol", "erin"), [("alice", "bob"), ("alice", "carol")], PASSWORD, {"bob": "Bob Builder"})
        cls.alice = cls.open_browser("alice")
        cls.bob = cls.open_browser("bob")
        cls.carol = cls.open_browser("carol")
        for browser in (cls.alice, cls.bob, cls.carol):
            browser.sign_in(browser.name, create=False)
            browser.find("button", "New group")  # signed in and routed

    def api(self, method, path, body=None, user="alice"):
        return self.server.api(method, path, body, token=self.tokens[user])

    @staticmethod
    def rows(browser, label):
        return browser.driver.execute_script(ROWS_SCRIPT, label)

    @staticmethod
    def parts(browser, text):
        return browser.driver.execute_script(ROW_PARTS_SCRIPT, text)

    def the_group(self, user="alice"):
        status, body = self.api("GET", "/v1/conversations?limit=100", user=user)
        self.assertEqual(status, 200, body)
        return next((c for c in body["items"] if c.get("kind") == "group"), None)

    def test_01_create_talk_live_read_by_and_remove(self):
        from selenium.webdriver.common.by import By

        alice, bob, carol = self.alice, self.bob, self.carol
        alice.click("button", "New group")
        alice.fill("Group title", "Trip")
        for name in ("bob", "carol"):
            alice.wait(lambda n=name: alice.driver.find_element(By.ID, f"member-{n}"), f"{name} offered as a member")
            alice.driver.find_element(By.XPATH, f"//label[@for='member-{name}']").click()
        alice.click("button", "Create group")
        alice.find("button", "Members")
        alice.wait(lambda: alice.driver.execute_script("return document.querySelector('section.conversation h1').textContent") == "Trip", "the group's title")
        alice.send("hello group")
        alice.wait(lambda: self.the_group() is not None, "the group's conversation on the server")
        group = self.the_group()["group"]
        self.assertEqual(sorted(m["user"]["username"] for m in group["members"]), ["alice", "bob", "carol"])
        self.assertEqual(next(m["role"] for m in group["members"] if m["user"]["username"] == "alice"), "admin")

        # bob and carol see the group in their lists, live, and open it.
        for browser in (bob, carol):
            browser.wait(lambda b=browser: "Trip" in self.rows(b, "Conversations"), "the group in the list, live")
            browser.click("link", "Trip", exact=False)
            browser.find("textbox", "Message")
            browser.wait(lambda b=browser: self.parts(b, "hello group") == ["alice", ""], "alice's message under her name")

        # Read by both: alice's message says so, and shows who.
        alice.wait(lambda: (self.parts(alice, "hello group") or ["", ""])[1] == "read by 2", "read by 2")
        self.check_readers(alice, "Read by 2: show who", {"Bob Builder": "bob", "carol": "carol"})

        # Typing, with the group.
        carol.find("textbox", "Message").send_keys("typing a")
        alice.wait(lambda: "carol is typing" in alice.text(), "carol is typing")
        self.assertNotIn("carol is typing", carol.text())
        carol.find("textbox", "Message").clear()

        # Three browsers live, each message under its sender's name.
        bob.send("hi from bob")
        for browser in (alice, carol):
            browser.wait(lambda b=browser: self.parts(b, "hi from bob") == ["bob", ""], "bob's message, live")
        carol.send("carol here")
        for browser in (alice, bob):
            browser.wait(lambda b=browser: self.parts(b, "carol here") == ["carol", ""], "carol's message, live")

        # Pin and mute the group in alice's list.
        alice.click("link", "Conversations")
        alice.click("button", "Pin conversation with Trip")
        alice.click("button", "Mute conversation with Trip")
        alice.wait(lambda: (lambda c: c and c["pinned"] and c["muted"])(self.the_group()), "pinned and muted on the server")
        alice.wait(lambda: self.rows(alice, "Conversations")[0].startswith("📌 🔕 Trip"), "the marks in the list")
        alice.click("link", "📌 🔕 Trip", exact=False)

        # alice removes carol: carol keeps what she saw, and can send nothing more.
        alice.click("button", "Members")
        alice.click("button", "Remove carol")
        alice.driver.switch_to.alert.accept()
        alice.wait(lambda: self.api("GET", f"/v1/groups/{group['id']}")[1]["memberCount"] == 2, "carol removed on the server")
        carol.wait(lambda: "You are no longer in this group" in carol.text(), "carol told she was removed")
        self.assertTrue(carol.absent("textbox", "Message"), "no input for a removed member")
        self.assertIsNotNone(self.parts(carol, "carol here"), "what carol saw stays")
        alice.send("after carol left")
        bob.wait(lambda: self.parts(bob, "after carol left") == ["alice", ""], "bob still gets the group's messages")
        alice.wait(lambda: (self.parts(alice, "after carol left") or ["", ""])[1] == "read by 1", "read by bob alone")
        self.check_readers(alice, "Read by 1: show who", {"Bob Builder": "bob"})
        self.assertIsNone(self.parts(carol, "after carol left"), "carol gets nothing after her removal")

    def check_readers(self, browser, control, expected):
        """Opens the readers list from the button named `control`: exactly the display names of
        `expected` (display name → username), each with its username and a time, the list
        focused; Close, then Escape, close it, the focus back on the button."""
        from selenium.webdriver.common.keys import Keys

        listed = lambda: browser.driver.execute_script(READERS_SCRIPT)  # noqa: E731
        focused = lambda: browser.driver.switch_to.active_element.accessible_name  # noqa: E731
        self.assertIsNone(listed(), "no readers list before it is asked for")
        for close in ("Close", Keys.ESCAPE):
            browser.click("button", control)
            shown = browser.wait(listed, "the readers list")
            self.assertEqual(sorted(shown["names"]), sorted(expected))
            for name, row in zip(shown["names"], shown["rows"]):
                self.assertIn(f"@{expected[name]}", row, "the username by the name")
            self.assertTrue(shown["timed"], "when each read it")
            self.assertTrue(shown["focused"], "the list has the focus")
            if close == "Close":
                browser.click("button", "Close")
            else:
                browser.driver.switch_to.active_element.send_keys(close)
            browser.wait(lambda: listed() is None, f"the readers list closed by {close!r}")
            browser.wait(lambda: focused() == control, "the focus back on the button")

    def test_02_a_group_request_is_accepted(self):
        carol = self.carol
        status, _ = self.api("PATCH", "/v1/me/settings", {"messageRequests": "everyone"}, user="carol")
        self.assertEqual(status, 200)
        status, group = self.api("PUT", "/v1/groups/book-club", {"title": "Book club", "members": ["carol"]}, user="erin")
        self.assertEqual(status, 201, group)
        status, body = self.api("PUT", f"/v1/groups/{group['id']}/messages/first", {"text": "join our book club"}, user="erin")
        self.assertEqual(status, 201, body)

        carol.click("link", "Conversations")
        carol.click("link", "Message requests")
        carol.wait(lambda: self.rows(carol, "Message requests") == ["Book club"], "the group request")
        carol.click("button", "Accept request from Book club")
        carol.wait(lambda: self.rows(carol, "Message requests") == [], "the request answered")
        status, body = self.api("GET", "/v1/conversations?limit=100", user="carol")
        self.assertIn("Book club", [c["group"]["title"] for c in body["items"] if c.get("kind") == "group"], "accepted on the server")
        carol.click("link", "Conversations")
        carol.wait(lambda: "Book club" in self.rows(carol, "Conversations"), "the group joins carol's list")
        carol.click("link", "Book club", exact=False)
        carol.send("count me in")
        status, body = self.api("GET", f"/v1/groups/{group['id']}/messages?limit=10", user="erin")
        self.assertEqual(status, 200, body)
        carol.wait(lambda: "count me in" in [m["text"] for m in self.api("GET", f"/v1/groups/{group['id']}/messages?limit=10", user="erin")[1]["items"]],
                   "carol's message in the group")

    def test_03_a_group_with_no_message_is_listed_at_once(self):
        bob = self.bob
        bob.click("link", "Conversations")
        status, group = self.api("PUT", "/v1/groups/quiet-one", {"title": "Quiet one", "members": ["bob"]})
        self.assertEqual(status, 201, group)
        bob.wait(lambda: "Quiet one" in self.rows(bob, "Conversations"), "the new group in bob's list, live, with no message")
        preview = bob.driver.execute_script("""
            const row = [...document.querySelectorAll('[aria-label="Conversations"] li.row')].find((r) => r.textContent.includes('Quiet one'));
            return row.querySelector('.preview').textContent;""")
        self.assertEqual(preview, ": no messages yet")


if __name__ == "__main__":
    main()
