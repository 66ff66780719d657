"""Browser test of the web client's moderation screen (issue 39): an operator (made one with
`chirp admin grant`) resolves a report by suspending the reported user, whose open session in
another browser ends at once; the audit log shows both actions; a non-operator sees no
moderation link; a reply quotes a message the operators removed as "removed by the operators".
Three headless Chromium windows against a real `chirp serve`.

Run: python3 Tests/Browser/test_web_moderation.py [path/to/chirp]   (default .build/debug/chirp)
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import test_web_client  # noqa: E402
from browser_messages import main  # noqa: E402
from server_test_case import ServerTestCase  # noqa: E402
from test_web_client import PASSWORD  # noqa: E402


class ModerationTests(ServerTestCase):
    @classmethod
    def set_up(cls):
        cls.tokens = cls.server.register_friends(("root", "alice", "bob"), [("alice", "bob")], PASSWORD)
        status, message = cls.server.api("PUT", "/v1/conversations/alice/messages/pills-1", {"text": "buy my pills"}, token=cls.tokens["bob"])
        assert status == 201, message
        status, report = cls.server.api(
            "POST", "/v1/reports", {"username": "bob", "messageId": message["id"], "reason": "spam"}, token=cls.tokens["alice"])
        assert status == 202, report
        cls.report = report["id"]
        grant = subprocess.run([test_web_client.BINARY, "admin", "grant", "root", "--data-dir", cls.server.data_dir],
                               capture_output=True, text=True, timeout=60)
        assert grant.returncode == 0, grant.stdout + grant.stderr
        cls.root = cls.open_browser("root")
        cls.bob = cls.open_browser("bob")

    def test_01_resolving_a_report_by_suspending_ends_the_users_session(self):
        root, bob = self.root, self.bob
        bob.sign_in("bob", create=False)
        bob.find("button", "New message")
        self.assertTrue(bob.absent("link", "Moderation"), "no moderation link for a non-operator")

        root.sign_in("root", create=False)
        root.click("link", "Moderation")
        root.find("button", "Open reports")
        root.wait(lambda: "buy my pills" in root.text(), "the reported message as it was")
        self.assertIn("alice reported bob for spam", root.text())
        root.click("button", f"Resolve report {self.report}: suspend")
        root.wait(lambda: f"Report {self.report} resolved." in root.banner(), "the resolution's banner")
        root.wait(lambda: "No open reports." in root.text(), "the queue is empty")

        # bob's open session ends: his browser is back at the login form, saying so.
        bob.find("textbox", "Username")
        bob.wait(lambda: "session has ended" in bob.banner(), "the ended session's banner")
        bob.fill("Username", "bob")
        bob.fill("Password", PASSWORD)
        bob.click("button", "Log in")
        bob.wait(lambda: "suspended" in bob.banner(), "login refused: suspended")

        root.click("button", "Resolved reports")
        root.wait(lambda: "Resolved (suspend) by root" in root.text(), "the resolved report")
        self.assertIn("(suspended)", root.text(), "the reported account is marked suspended")
        audit = root.driver.execute_script("return document.querySelector('[aria-label=\"Audit log\"]').innerText")
        self.assertIn("root · suspend bob", audit)
        self.assertIn(f"root · resolve-report {self.report} (suspend)", audit)
        self.assertIn("command line · grant root", audit)

    def test_02_unsuspend_lets_the_user_log_in_again(self):
        root, bob = self.root, self.bob
        root.fill("Account", "bob")
        root.click("button", "Unsuspend")
        root.wait(lambda: "bob is no longer suspended." in root.banner(), "the unsuspension's banner")
        bob.click("button", "Log in")
        bob.find("link", "Conversations")

    def test_03_a_reply_quotes_a_removed_message_as_removed_by_the_operators(self):
        root, api, tokens = self.root, self.server.api, self.tokens
        # The suspension ended bob's sessions: he logs in again.
        status, login = api("POST", "/v1/sessions", {"username": "bob", "password": PASSWORD})
        self.assertEqual(status, 201, login)
        status, pills = api("PUT", "/v1/conversations/alice/messages/pills-2", {"text": "more pills"}, token=login["token"])
        self.assertEqual(status, 201, pills)
        status, reply = api("PUT", "/v1/conversations/bob/messages/reply-1", {"text": "stop it", "replyTo": pills["id"]}, token=tokens["alice"])
        self.assertEqual(status, 201, reply)
        status, report = api("POST", "/v1/reports", {"username": "bob", "messageId": pills["id"], "reason": "spam"}, token=tokens["alice"])
        self.assertEqual(status, 202, report)
        root.click("button", "Open reports")
        root.click("button", f"Resolve report {report['id']}: remove message")
        root.wait(lambda: f"Report {report['id']} resolved." in root.banner(), "the resolution's banner")

        alice = self.open_browser("alice")
        alice.sign_in("alice", create=False)
        alice.open_conversation("bob")
        alice.wait(lambda: "stop it" in alice.text(), "alice's reply")
        # The quote above her reply says what happened to it, as the message's own row does.
        alice.wait(lambda: "bob: removed by the operators" in alice.text(), "the quote of the removed message")
        self.assertNotIn("more pills", alice.text())


if __name__ == "__main__":
    main()
