"""Browser tests of the message actions and search in the web client (issue 23): react, reply,
edit and unsend, each seen live by the other user; actions on a message still in the outbox;
search opening the conversation at the result. Two headless Chromium windows against a real
`chirp serve`.

Run: python3 Tests/Browser/test_web_actions.py [path/to/chirp]   (default .build/debug/chirp)
"""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser_messages import TwoUsersTestCase, main  # noqa: E402
from test_web_client import missing_requirement  # noqa: E402


@unittest.skipIf(missing_requirement() and os.environ.get("CI") != "true", f"skipped: {missing_requirement()}")
class MessageActionsTests(TwoUsersTestCase):
    def test_01_react_live_and_the_picker_survives_other_events(self):
        alice, bob = self.alice, self.bob
        alice.send("react to this")
        bob.wait(lambda: "react to this" in bob.log_text(), "alice's message at bob")
        self.on_row(bob, "react to this", "React")
        self.pick(bob, "👍")
        alice.wait(lambda: self.reactions(alice, "react to this") == ["👍 1"], "bob's reaction at alice")
        # alice opens the picker; bob's reaction to the same message and a new message redraw
        # her log (that very row, and the list): the picker stays open.
        self.on_row(alice, "react to this", "React")
        alice.find("button", "👍")
        message_id = self.message_id("bob", "alice", "react to this")
        self.assertEqual(self.api("PUT", f"/v1/conversations/alice/messages/{message_id}/reactions/%E2%9D%A4%EF%B8%8F", user="bob")[0], 204)
        self.assertEqual(self.api("PUT", "/v1/conversations/alice/messages/unrelated-1", {"text": "an unrelated message"}, user="bob")[0], 201)
        alice.wait(lambda: "an unrelated message" in alice.log_text(), "bob's new message at alice")
        alice.wait(lambda: "❤️ 1" in self.reactions(alice, "react to this"), "bob's second reaction at alice")
        self.assertTrue(alice.driver.execute_script("return !!document.querySelector('.picker')"), "the picker is still open")
        self.pick(alice, "👍")
        bob.wait(lambda: sorted(self.reactions(bob, "react to this")) == sorted(["👍 2", "❤️ 1"]), "alice's reaction at bob")
        # Clicking one's own reaction removes it.
        self.click_in(bob, "[role=log] .reactions button", "👍 2", "bob's 👍 chip")
        alice.wait(lambda: sorted(self.reactions(alice, "react to this")) == sorted(["👍 1", "❤️ 1"]), "bob's reaction removed at alice")

    def test_02_reply_shows_what_it_answers(self):
        alice, bob = self.alice, self.bob
        self.on_row(bob, "react to this", "Reply")
        bob.wait(lambda: "Replying to alice: react to this" in bob.text(), "the quoted message above the input")
        bob.send("this answers it")
        alice.wait(lambda: "this answers it" in alice.log_text(), "bob's reply at alice")
        quote = alice.driver.execute_script("return arguments[0].querySelector('.quote').textContent", self.row(alice, "this answers it"))
        self.assertEqual(quote, "In reply to You: react to this")
        self.assertNotIn("Replying to", bob.text(), "the quote above the input is gone once sent")
        replied = self.message_id("alice", "bob", "this answers it")
        status, body = self.api("GET", "/v1/conversations/bob/messages?limit=100")
        self.assertEqual(next(m["replyTo"] for m in body["items"] if m["id"] == replied), self.message_id("alice", "bob", "react to this"))

    def test_03_edit_inline_survives_a_redraw(self):
        alice, bob = self.alice, self.bob
        alice.send("teh first draft")
        bob.wait(lambda: "teh first draft" in bob.log_text(), "the draft at bob")
        self.on_row(alice, "teh first draft", "Edit")
        editor = alice.find("textbox", "Edit message")
        self.assertEqual(editor.get_attribute("value"), "teh first draft")
        editor.send_keys(" (half typed")
        # bob reacts to that very message and writes: the row and the list are drawn again.
        message_id = self.message_id("alice", "bob", "teh first draft")
        self.assertEqual(self.api("PUT", f"/v1/conversations/alice/messages/{message_id}/reactions/%F0%9F%98%AE", user="bob")[0], 204)
        self.assertEqual(self.api("PUT", "/v1/conversations/alice/messages/unrelated-2", {"text": "while you edit"}, user="bob")[0], 201)
        alice.wait(lambda: "while you edit" in alice.log_text(), "bob's message while alice edits")
        alice.wait(lambda: "😮 1" in alice.log_text(), "bob's reaction on the message being edited")
        editor = alice.find("textbox", "Edit message")
        self.assertEqual(editor.get_attribute("value"), "teh first draft (half typed", "the editor kept what was typed")
        self.assertTrue(alice.driver.execute_script("return document.activeElement === arguments[0]", editor), "the editor kept the focus")
        from selenium.webdriver.common.keys import Keys
        editor.send_keys(Keys.CONTROL, "a")
        editor.send_keys("the final text", Keys.ENTER)
        bob.wait(lambda: "the final text" in bob.log_text() and "teh first draft" not in bob.log_text(), "the edit at bob")
        bob.wait(lambda: "edited" in self.row_text(bob, "the final text"), "the edited mark at bob")
        self.assertIn("edited", self.row_text(alice, "the final text"))

    def test_04_unsend_live_and_after_a_reopen(self):
        alice, bob = self.alice, self.bob
        alice.send("oops wrong chat")
        bob.wait(lambda: "oops wrong chat" in bob.log_text(), "the message at bob")
        self.on_row(alice, "oops wrong chat", "Unsend")
        alice.driver.switch_to.alert.accept()
        bob.wait(lambda: "oops wrong chat" not in bob.log_text(), "the message gone at bob")
        alice.wait(lambda: "oops wrong chat" not in alice.log_text(), "the message gone at alice")
        self.assertIn("message unsent", bob.log_text())
        self.assertIn("message unsent", alice.log_text())
        # bob's tab is closed while alice unsends and edits; reopened, it shows both.
        alice.send("second mistake")
        alice.send("to be edited while bob is away")
        bob.wait(lambda: "to be edited while bob is away" in bob.log_text(), "the messages at bob")
        bob.driver.get("about:blank")
        self.on_row(alice, "second mistake", "Unsend")
        alice.driver.switch_to.alert.accept()
        alice.wait(lambda: "second mistake" not in alice.log_text(), "the second unsend at alice")
        self.on_row(alice, "to be edited while bob is away", "Edit")
        from selenium.webdriver.common.keys import Keys
        editor = alice.find("textbox", "Edit message")
        editor.send_keys(Keys.CONTROL, "a")
        editor.send_keys("edited while bob was away", Keys.ENTER)
        alice.wait(lambda: "edited while bob was away" in alice.log_text(), "the edit at alice")
        bob.driver.get(f"{self.server.url}/#/c/alice")
        bob.wait(lambda: "edited while bob was away" in bob.log_text(), "the edit at bob after the reopen")
        self.assertNotIn("second mistake", bob.log_text())
        self.assertEqual(bob.log_text().count("message unsent"), 2)

    def test_05_actions_on_a_pending_message_wait_behind_it(self):
        alice, bob = self.alice, self.bob
        self.server.stop()
        try:
            alice.wait(lambda: "Can't reach the server" in alice.banner(), "the unreachable banner")
            alice.send("written offline, then liked")
            alice.wait(lambda: alice.mark_of("written offline, then liked") == "sending", "the sending mark")
            self.on_row(alice, "written offline, then liked", "React")
            self.pick(alice, "🙏")
            alice.wait(lambda: self.reactions(alice, "written offline, then liked") == ["🙏 1"], "the reaction shown at once")
        finally:
            self.server.start()
        alice.wait(lambda: alice.mark_of("written offline, then liked") in ("delivered", "read"), "delivery after the restart", timeout=30)
        bob.wait(lambda: self.reactions(bob, "written offline, then liked") == ["🙏 1"], "the message and its reaction at bob", timeout=30)
        status, body = self.api("GET", "/v1/conversations/bob/messages?limit=100")
        message = next(m for m in body["items"] if m["text"] == "written offline, then liked")
        self.assertEqual([(r["emoji"], r["users"]) for r in message["reactions"]], [("🙏", ["alice"])])

    def test_06_search_opens_the_conversation_at_the_result(self):
        alice = self.alice
        self.assertEqual(self.api("PUT", "/v1/conversations/alice/messages/needle-1", {"text": "The Néedle in the haystack"}, user="bob")[0], 201)
        self.server.send_many(self.tokens["bob"], "alice", [f"filler {i}" for i in range(250)])
        alice.click("link", "Conversations")
        alice.fill("Search messages", "needle HAYSTACK")
        alice.click("button", "Search")
        alice.wait(lambda: "with “needle HAYSTACK”" in alice.text(), "the search results")
        self.assertEqual(alice.driver.execute_script("return document.querySelectorAll('a.result').length"), 1)
        alice.click("link", "bob", exact=False)
        alice.wait(lambda: alice.driver.execute_script("""
            const row = document.querySelector('[role=log] .msg.found');
            if (!row || !row.innerText.includes('The Néedle in the haystack')) return false;
            const log = document.querySelector('[role=log]').getBoundingClientRect(), r = row.getBoundingClientRect();
            return r.top >= log.top && r.bottom <= log.bottom;"""), "the result shown in its conversation", timeout=30)


if __name__ == "__main__":
    main()
