"""Browser and tmux test of encrypted conversations across the clients (issue 55): alice uses the
web client in headless Chromium, bob the Swift command line client and, in a tmux session, the
terminal app, all against one real `chirp serve`. bob logs in with `chirp login` (his device is
registered: `chirp devices` shows it, `chirp devices alice` shows alice's browser) and turns the
conversation's encryption on with `chirp encrypt alice`: alice's browser shows the lock before
she writes, and what she then sends never leaves her browser in the clear (the bodies of its
requests are recorded). What alice's browser sends, `chirp messages alice` prints and the
terminal app shows (🔒 in its list and by its title); what bob sends with `chirp send` and types
in the terminal app opens in alice's browser (not "could not be verified"). The server holds
only envelopes (`text: null`), each sealed by one side's device to the other side's;
`chirp safety-number alice`, the terminal app's Ctrl-K and alice's browser show the same number;
no file of the server's data directory holds a secret. bob's client directory, HOME and tmux
socket are in a temporary directory, removed after.

Run: python3 Tests/Browser/test_web_interop.py [path/to/chirp]   (default .build/debug/chirp)
Skipped with a reason when Chromium, chromedriver, Selenium or tmux is missing, unless CI=true.
"""
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import test_web_client  # noqa: E402
from browser_messages import main  # noqa: E402
from server_test_case import ServerTestCase  # noqa: E402
from test_web_client import PASSWORD  # noqa: E402
from test_web_encryption import ROW_TEXT_SCRIPT, files_holding  # noqa: E402

# From alice's browser, from bob's `chirp send`, from bob's terminal app.
SECRETS = ["kilo hides under the mossy stone", "lima answers from the command line", "mike types in the terminal app"]
SESSION = f"chirp-interop-{os.getpid()}"

# Keeps the method, path and body of each request the page makes with a text body in `sentBodies`.
RECORD_SCRIPT = """
    window.sentBodies = [];
    const original = window.fetch;
    window.fetch = (resource, options) => {
      if (typeof options?.body === 'string') window.sentBodies.push(`${options.method} ${resource} ${options.body}`);
      return original(resource, options);
    };"""


def wait_until(read, condition, what, timeout=10):
    """Calls `read` until `condition` holds for what it returns (returned then), for at most
    `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = read()
        if condition(value):
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}; last:\n{value}")
        time.sleep(0.1)


class Terminal:
    """A command in a tmux session (`SESSION`) of 120×40 on a tmux server of its own (its socket
    at `socket`, no configuration read), read with capture-pane."""

    def __init__(self, socket, command, env):
        self.tmux = ["tmux", "-S", socket, "-f", "/dev/null"]
        self.env = env
        self.run("new-session", "-d", "-s", SESSION, "-x", "120", "-y", "40", command)
        self.pid = int(self.run("display-message", "-p", "-t", SESSION, "#{pane_pid}"))

    def run(self, *arguments):
        return subprocess.run(self.tmux + list(arguments), env=self.env, check=True, capture_output=True, text=True, timeout=10).stdout

    def screen(self):
        return self.run("capture-pane", "-p", "-t", SESSION)

    def keys(self, *keys):
        self.run("send-keys", "-t", SESSION, *keys)

    def type(self, text):
        self.run("send-keys", "-t", SESSION, "-l", text)

    def wait_for(self, condition, what):
        """The screen once `condition(screen)` holds."""
        return wait_until(self.screen, condition, what)

    def close(self):
        """Ends the session (its command gets the hang-up; the server ends with its last session)
        and waits for the pane's process, killed by its pid after 5 s."""
        subprocess.run(self.tmux + ["kill-session", "-t", SESSION], env=self.env, capture_output=True, timeout=10)
        deadline = time.monotonic() + 5
        try:
            while time.monotonic() < deadline:
                os.kill(self.pid, 0)
                time.sleep(0.05)
            os.kill(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


class InteropTests(ServerTestCase):
    @classmethod
    def setUpClass(cls):
        if not shutil.which("tmux"):
            if os.environ.get("CI") == "true":
                raise AssertionError("CI=true requires the interop test to run: tmux is not installed")
            raise unittest.SkipTest("skipped: tmux is not installed (apt-get install tmux)")
        cls.scratch, cls.terminal = None, None
        super().setUpClass()

    @classmethod
    def set_up(cls):
        # bob's HOME, his client directory (`--home`) and the tmux socket.
        cls.scratch = tempfile.mkdtemp(prefix="chirp-interop-")
        cls.home = os.path.join(cls.scratch, "chirp")
        cls.env = {**{k: v for k, v in os.environ.items() if not k.startswith("CHIRP_")}, "HOME": cls.scratch}
        cls.tokens = cls.server.register_friends(("alice", "bob"), [("alice", "bob")], PASSWORD)
        cls.alice = cls.open_browser("alice")
        cls.alice.sign_in("alice", create=False)
        cls.alice.find("button", "New message")
        cls.alice.wait(lambda: len(cls.devices("alice")) == 1, "alice's browser registered as a device")
        output = cls.chirp("login", "bob", input=PASSWORD + "\n")
        assert output == "logged in as bob\n", output

    @classmethod
    def tearDownClass(cls):
        try:
            if cls.terminal:
                cls.terminal.close()
            super().tearDownClass()
        finally:
            if cls.scratch:
                shutil.rmtree(cls.scratch, ignore_errors=True)

    @classmethod
    def chirp(cls, command, *arguments, input=None):
        """What bob's `chirp COMMAND ARGUMENTS…` printed (its options go first: `send` takes what
        follows its user as the message); an AssertionError with its output when it fails."""
        result = subprocess.run([test_web_client.BINARY, command, "--server", cls.server.url, "--home", cls.home, *arguments],
                                input=input, env=cls.env, capture_output=True, text=True, timeout=20)
        assert result.returncode == 0, f"chirp {command} {shlex.join(arguments)} exited {result.returncode}: {result.stdout}{result.stderr}"
        return result.stdout

    @classmethod
    def devices(cls, user):
        status, body = cls.server.api("GET", f"/v1/users/{user}/devices", token=cls.tokens["alice"])
        assert status == 200, body
        return body

    def open_conversation(self):
        self.alice.driver.execute_script("location.hash = '#/c/bob'")
        self.alice.find("textbox", "Message")

    def lock_shown(self):
        return self.alice.driver.execute_script("const l = document.querySelector('section.conversation .bar .lock'); return !!l && !l.hidden")

    def assert_only_envelopes(self, count):
        """The server holds `count` messages between alice and bob, each an envelope without text,
        sealed by its sender's one device to the other person's one device."""
        status, body = self.server.api("GET", "/v1/conversations/bob/messages?limit=100", token=self.tokens["alice"])
        self.assertEqual(status, 200, body)
        self.assertEqual(len(body["items"]), count)
        device = {user: [d["id"] for d in self.devices(user)] for user in ("alice", "bob")}
        for message in body["items"]:
            self.assertIsNone(message["text"], "the server holds no text")
            other = "bob" if message["sender"] == "alice" else "alice"
            self.assertEqual([message["envelope"]["senderDevice"]], device[message["sender"]])
            self.assertEqual([key["device"] for key in message["envelope"]["keys"]], device[other])

    def test_01_bob_logs_in_and_turns_encryption_on(self):
        mine = self.chirp("devices").splitlines()
        self.assertEqual(len(mine), 1, mine)
        self.assertEqual([mine[0].split()[0]], [d["id"] for d in self.devices("bob")], "the device `chirp login` registered")
        self.assertTrue(mine[0].endswith("(this device)"), mine)
        alices = self.chirp("devices", "alice").splitlines()
        self.assertEqual([line.split()[0] for line in alices], [d["id"] for d in self.devices("alice")], "alice's browser")

        self.open_conversation()
        self.alice.find("button", "Turn on encryption")
        self.assertEqual(self.chirp("encrypt", "alice"),
                         "🔒 alice is encrypted: from now on only its members' devices can read it (compare chirp safety-number alice with theirs)\n")
        # On for the server: text in the clear is refused (and not stored).
        status, body = self.server.api("PUT", "/v1/conversations/bob/messages/probe", {"text": "probe"}, token=self.tokens["alice"])
        self.assertEqual((status, body["error"]["code"]), (422, "encryption_required"), body)

    def test_02_alice_s_browser_shows_the_lock_before_she_writes(self):
        self.open_conversation()
        self.alice.wait(self.lock_shown, "the lock in alice's browser after bob's `chirp encrypt alice`", timeout=5)
        self.assertTrue(self.alice.absent("button", "Turn on encryption"))

    def test_03_the_browser_s_message_opens_in_the_cli_and_never_leaves_it_in_the_clear(self):
        alice = self.alice
        self.open_conversation()
        alice.driver.execute_script(RECORD_SCRIPT)
        alice.send(SECRETS[0])
        alice.wait(lambda: alice.mark_of(SECRETS[0]) in ("sent", "delivered", "read"), "alice's message sent")
        alice.wait(self.lock_shown, "the lock in alice's browser once she wrote")
        self.assert_only_envelopes(1)
        printed = wait_until(lambda: self.chirp("messages", "alice"), lambda out: SECRETS[0] in out, "the secret in chirp messages alice")
        self.assertRegex(printed, rf"(?m)^\S+ alice: {re.escape(SECRETS[0])}  #\d+$")
        self.assertNotIn("could not be verified", printed)
        alice.wait(lambda: alice.mark_of(SECRETS[0]) == "read", "read by bob's `chirp messages`")
        sent = alice.driver.execute_script("return window.sentBodies")
        self.assertTrue(any('"envelope"' in body for body in sent), sent)
        self.assertEqual([body for body in sent if SECRETS[0] in body], [], "alice's browser sent the secret to the server in the clear")

    def test_04_and_in_the_terminal_app(self):
        command = shlex.join([test_web_client.BINARY, "app", "--server", self.server.url, "--home", self.home]) + "; echo 'chirp exited'; sleep 30"
        type(self).terminal = terminal = Terminal(os.path.join(self.scratch, "tmux.sock"), command, self.env)
        screen = terminal.wait_for(lambda s: "● live" in s and re.search(rf"🔒alice +alice: {re.escape(SECRETS[0])}", s),
                                   "alice's conversation in the list: locked, her message opened")
        self.assertIn("▸ 🔒alice", screen, "the only conversation, selected")
        terminal.keys("Enter")
        screen = terminal.wait_for(lambda s: "Chirp · bob · 🔒 alice" in s and f"\n   {SECRETS[0]}\n" in s, "the conversation opened, with the secret")
        self.assertNotIn("could not be verified", screen)

    def test_05_the_cli_s_and_the_app_s_replies_open_in_the_browser(self):
        alice, terminal = self.alice, self.terminal
        self.assertIsNotNone(terminal, "test_04 opens the terminal app")
        self.open_conversation()
        self.assertEqual(self.chirp("send", "alice", SECRETS[1]), f"sent: {SECRETS[1]} → alice\n")
        terminal.type(SECRETS[2])
        terminal.keys("Enter")
        for secret in SECRETS[1:]:
            alice.wait(lambda s=secret: alice.driver.execute_script(ROW_TEXT_SCRIPT, s) == [s, "text"], f"{secret!r} opened in alice's browser")
        self.assertTrue(self.lock_shown())
        self.assertNotIn("could not be verified", alice.log_text())
        terminal.wait_for(lambda s: all(f"\n   {secret}\n" in s for secret in SECRETS), "all three in the terminal app")
        self.assert_only_envelopes(3)

    def test_06_the_safety_number_is_the_same_everywhere(self):
        alice, terminal = self.alice, self.terminal
        printed = self.chirp("safety-number", "alice").splitlines()
        self.assertEqual(printed[0], "safety number with alice:")
        self.assertRegex(printed[1], r"^(\d{5} ){11}\d{5}$")
        self.open_conversation()
        alice.click("button", "Safety number")
        shown = alice.wait(lambda: (lambda t: t if t and t[0].isdigit() else None)(
            alice.driver.execute_script("return document.querySelector('.safety-number')?.textContent")), "the browser's safety number")
        alice.click("button", "Close")
        self.assertEqual(shown, printed[1], "chirp safety-number alice and alice's browser")
        terminal.keys("C-k")
        screen = terminal.wait_for(lambda s: "Safety number with alice" in s and "any key" in s, "the terminal app's safety number")
        self.assertIn(printed[1].replace(" ", ""), re.sub(r"\D", "", screen), "and the terminal app's")
        terminal.keys("Escape")
        terminal.wait_for(lambda s: "Chirp · bob · 🔒 alice" in s, "back to the conversation")

    def test_07_no_plaintext_in_the_data_directory(self):
        self.assertEqual(files_holding(self.server.data_dir, SECRETS), [], "plaintext in the server's files")

if __name__ == "__main__":
    main()
