"""Browser test of encrypted conversations in the web client (issue 55): each browser registers
a device for its user at sign-in; "Turn on encryption" is refused with a clear message while
the other person (carol) has no device, and works with bob; alice's message reaches bob's
browser and bob's reply reaches hers, both shown with a lock, while the server holds only
envelopes (`text: null`) and no file of its data directory holds any plaintext; alice finds
her message by searching this browser's opened copies; a device added for bob (a Python
device, with `cryptography`) shows a notice in both browsers, and alice's next message is
sealed to it too (it opens it); what that device sends opens in alice's browser, and an
envelope it tampered with shows "could not be verified", never its text; the safety number is
the same in both browsers (and in Python); an image attached in the encrypted conversation is
uploaded as ciphertext (application/octet-stream, no name) and shows decrypted in bob's. In a
group, only the admin is offered the switch; an edit and a reply travel sealed. A rotated
encryption key is put at the next start, and what was sealed to the older one opens. A second
browser for alice reads what follows, not what came before. Logging out
removes bob's device on the server and its keys from the browser.
Two headless Chromium windows against a real `chirp serve`.

Run: python3 Tests/Browser/test_web_encryption.py [path/to/chirp]   (default .build/debug/chirp)
"""
import base64
import os
import sys
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser_messages import ROW_SCRIPT, TwoUsersTestCase, main  # noqa: E402
from server_test_case import ServerTestCase  # noqa: E402
from test_web_client import PASSWORD  # noqa: E402

SECRETS = ["alpha meets the quiet falcon", "bravo answers under the bridge", "charlie whispers to every device"]
GROUP = ["delta plans the group picnic", "delta plans the group picnic on sunday", "echo brings the lemonade"]
ROTATED = "foxtrot after the rotation"
LATER = "golf reaches the second browser"
PICTURE_NAME = "holiday-zebra-picture.png"

# The row's text (its `.text`) of the row whose text contains arguments[0], and its classes.
ROW_TEXT_SCRIPT = "const row = (() => {" + ROW_SCRIPT + """})();
    return row ? [row.querySelector('.text').textContent, row.querySelector('.text').className] : null;"""

# Drops a file made of base64 bytes on the conversation (as a user dragging it in).
DROP_SCRIPT = """
    const [name, type, b64] = arguments;
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const data = new DataTransfer();
    data.items.add(new File([bytes], name, { type }));
    const target = document.querySelector('[role=log]');
    for (const kind of ['dragenter', 'dragover', 'drop']) target.dispatchEvent(new DragEvent(kind, { dataTransfer: data, bubbles: true, cancelable: true }));"""


def files_holding(directory, texts):
    """(path, text) for each file under `directory` holding one of `texts`, in UTF-8 or UTF-16."""
    found = []
    for folder, _, files in os.walk(directory):
        for name in files:
            path = os.path.join(folder, name)
            try:
                with open(path, "rb") as f:
                    data = f.read()
            except OSError:  # a SQLite side file gone meanwhile
                continue
            found += [(path, t) for t in texts if t.encode() in data or t.encode("utf-16-le") in data]
    return found


def png(width, height):
    import struct
    import zlib

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    rows = b"".join(b"\x00" + bytes([30, 160, 60]) * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


class EncryptionTests(ServerTestCase):
    @classmethod
    def set_up(cls):
        cls.tokens = cls.server.register_friends(("alice", "bob", "carol"), [("alice", "bob"), ("alice", "carol")], PASSWORD)
        cls.ids = {name: cls.server.api("GET", "/v1/me", token=token)[1]["id"] for name, token in cls.tokens.items()}
        cls.alice = cls.open_browser("alice")
        cls.bob = cls.open_browser("bob")
        for browser in (cls.alice, cls.bob):
            browser.sign_in(browser.name, create=False)
            browser.find("button", "New message")
        for name, browser in (("alice", cls.alice), ("bob", cls.bob)):
            browser.wait(lambda n=name: len(cls.devices(n)) == 1, f"{name}'s browser registered as a device")
        cls.python = None

    @classmethod
    def devices(cls, user):
        status, body = cls.server.api("GET", f"/v1/users/{user}/devices", token=cls.tokens["alice"])
        assert status == 200, body
        return body

    def api(self, method, path, body=None, user="alice"):
        return self.server.api(method, path, body, token=self.tokens[user])

    def go(self, browser, hash_):
        browser.driver.execute_script("location.hash = arguments[0]", hash_)

    @staticmethod
    def row_text(browser, text):
        return browser.driver.execute_script(ROW_TEXT_SCRIPT, text)

    def conversation_id(self):
        from python_device import direct_conversation_id
        return direct_conversation_id(self.ids["alice"], self.ids["bob"])

    def stored(self, user="alice", peer="bob"):
        status, body = self.api("GET", f"/v1/conversations/{peer}/messages?limit=100", user=user)
        self.assertEqual(status, 200, body)
        return body["items"]

    def test_01_turn_on_send_read_reply(self):
        alice, bob = self.alice, self.bob
        # carol has no device: the switch is refused, and says why.
        self.go(alice, "#/c/carol")
        alice.click("button", "Turn on encryption")
        alice.driver.switch_to.alert.accept()
        alice.wait(lambda: "carol has no device" in alice.banner(), "the no_devices message")
        self.assertTrue(alice.absent("button", "Safety number"))
        alice.click("button", "Dismiss")

        self.go(alice, "#/c/bob")
        alice.click("button", "Turn on encryption")
        alice.driver.switch_to.alert.accept()
        alice.wait(lambda: "Encrypted" in alice.driver.execute_script("return document.querySelector('section.conversation .bar').innerText"), "the lock")
        alice.find("button", "Safety number")
        self.assertTrue(alice.absent("button", "Turn on encryption"))

        alice.send(SECRETS[0])
        alice.wait(lambda: alice.mark_of(SECRETS[0]) in ("sent", "delivered", "read"), "alice's message sent")
        self.go(bob, "#/c/alice")
        bob.find("textbox", "Message")
        bob.wait(lambda: (self.row_text(bob, SECRETS[0]) or [""])[0] == SECRETS[0], "alice's message opened in bob's browser")
        bob.find("button", "Safety number")
        bob.send(SECRETS[1])
        alice.wait(lambda: (self.row_text(alice, SECRETS[1]) or [""])[0] == SECRETS[1], "bob's reply opened in alice's browser")

        items = self.stored()
        self.assertEqual(len(items), 2)
        for m in items:
            self.assertIsNone(m["text"], "the server holds no text")
            self.assertEqual(sorted(m["envelope"]), ["ciphertext", "commitment", "keys", "nonce", "senderDevice", "signature", "v"])
            self.assertEqual(len(m["envelope"]["keys"]), 1, "sealed to the other browser's device alone")
        conversation = next(c for c in self.api("GET", "/v1/conversations?limit=10")[1]["items"] if c["peer"]["username"] == "bob")
        self.assertTrue(conversation["encrypted"])

        # The list: a lock after the name, the last message opened.
        alice.click("link", "Conversations")
        row = alice.wait(lambda: alice.driver.execute_script("""
            const row = [...document.querySelectorAll('[aria-label="Conversations"] li.row')].find((r) => r.querySelector('.name').textContent.startsWith('bob'));
            return row && [row.querySelector('.name').textContent, row.querySelector('.preview').textContent, row.querySelector('a').getAttribute('aria-label') || ''];"""),
            "bob's row")
        self.assertIn("🔒", row[0])
        self.assertIn(SECRETS[1][:20], row[1])

    def test_02_search_finds_opened_copies_and_a_reload_keeps_my_text(self):
        alice = self.alice
        # My own message is not sealed to the device that sent it: its text is the copy kept here.
        alice.driver.refresh()
        alice.find("button", "New message")
        self.go(alice, "#/c/bob")
        alice.wait(lambda: (self.row_text(alice, SECRETS[0]) or [""])[0] == SECRETS[0], "alice's own message after a reload")
        self.go(alice, "#/search/" + "quiet falcon")
        results = alice.wait(lambda: alice.driver.execute_script("""
            const list = document.querySelector('[aria-label="Results in encrypted conversations"]');
            return list && !list.hidden && list.innerText;"""), "results from this browser's copies")
        self.assertIn(SECRETS[0], results)

    def test_03_a_new_device_shows_a_notice_and_gets_the_next_message(self):
        from python_device import PythonDevice
        alice, bob = self.alice, self.bob
        self.go(alice, "#/c/bob")
        alice.find("textbox", "Message")
        device = PythonDevice("bob's Python")
        status, body = self.api("PUT", f"/v1/me/devices/{device.id}", device.registration(), user="bob")
        self.assertEqual(status, 201, body)
        type(self).python = device
        # bob's browser hears device.changed about bob himself.
        bob.wait(lambda: "Your devices changed: a device was added" in bob.text(), "the notice in bob's conversation")

        # alice's next message is sealed to it too: her browser learns it (409 devices_changed) and says so.
        alice.send(SECRETS[2])
        alice.wait(lambda: "bob's devices changed: a device was added" in alice.text(), "the notice in alice's conversation")
        message = alice.wait(lambda: next((m for m in self.stored() if m["envelope"]["keys"] and any(k["device"] == device.id for k in m["envelope"]["keys"])), None),
                             "alice's message sealed to the new device")
        self.assertEqual(device.open(message["envelope"], self.conversation_id(), message["clientMessageId"])["text"], SECRETS[2])
        bob.wait(lambda: (self.row_text(bob, SECRETS[2]) or [""])[0] == SECRETS[2], "and bob's browser opens it")

    def test_04_what_another_device_sends_opens_and_a_tampered_one_does_not(self):
        device = self.python
        self.assertIsNotNone(device, "test_03 registers the Python device")
        alice = self.alice
        self.go(alice, "#/c/bob")
        alice.find("textbox", "Message")
        recipients = [d for d in self.devices("alice") + self.devices("bob") if d["id"] != device.id]
        cid = self.conversation_id()

        def send(client_id, envelope):
            status, body = self.api("PUT", f"/v1/conversations/alice/messages/{client_id}", {"envelope": envelope}, user="bob")
            self.assertEqual(status, 201, body)

        send("py-good", device.seal({"text": "hello from python", "media": []}, cid, "py-good", recipients))
        bad_signature = device.seal({"text": "forged words one", "media": []}, cid, "py-bad-1", recipients)
        bad_signature["ciphertext"] = bad_signature["ciphertext"][:-4] + ("AAAA" if not bad_signature["ciphertext"].endswith("AAAA") else "BBBB")
        send("py-bad-1", bad_signature)
        # Signed after the change: the signature verifies, the ciphertext does not open.
        import json as json_
        from check_vectors import canonical_json, enc64
        bad_cipher = device.seal({"text": "forged words two", "media": []}, cid, "py-bad-2", recipients)
        raw = bytearray(base64.urlsafe_b64decode(bad_cipher["ciphertext"] + "=" * (-len(bad_cipher["ciphertext"]) % 4)))
        raw[0] ^= 1
        bad_cipher["ciphertext"] = enc64(bytes(raw))
        del bad_cipher["signature"]
        bad_cipher["signature"] = enc64(device.identity.sign(f"{canonical_json(bad_cipher)}\n{cid}\npy-bad-2".encode()))
        send("py-bad-2", bad_cipher)
        del json_

        alice.wait(lambda: (self.row_text(alice, "hello from python") or [""])[0] == "hello from python", "the Python device's message opened")
        alice.wait(lambda: alice.driver.execute_script(
            "return [...document.querySelectorAll('[role=log] .text.unverifiable')].length") == 2, "two messages that could not be verified")
        texts = alice.log_text()
        self.assertEqual(texts.count("This message could not be verified."), 2)
        self.assertNotIn("forged words", texts)

    def test_05_the_safety_number_is_the_same_on_both_sides(self):
        from check_vectors import safety_digits
        numbers = []
        for browser, peer in ((self.alice, "bob"), (self.bob, "alice")):
            self.go(browser, f"#/c/{peer}")
            browser.click("button", "Safety number")
            numbers.append(browser.wait(lambda b=browser: (lambda t: t if t and t[0].isdigit() else None)(
                b.driver.execute_script("return document.querySelector('.safety-number')?.textContent")), "the safety number"))
            browser.click("button", "Close")
        self.assertEqual(numbers[0], numbers[1])
        self.assertRegex(numbers[0], r"^(\d{5} ){11}\d{5}$")
        expected = safety_digits("alice", [d["identityKey"] for d in self.devices("alice")]) + safety_digits("bob", [d["identityKey"] for d in self.devices("bob")])
        self.assertEqual(numbers[0].replace(" ", ""), expected)

    def test_06_an_attachment_goes_up_encrypted(self):
        alice, bob = self.alice, self.bob
        self.go(alice, "#/c/bob")
        alice.find("textbox", "Message")
        picture = png(12, 9)
        alice.driver.execute_script(DROP_SCRIPT, PICTURE_NAME, "image/png", base64.b64encode(picture).decode())
        alice.send("a picture for you")
        message = alice.wait(lambda: next((m for m in self.stored() if m["media"]), None), "the message with its attachment on the server", timeout=20)
        media = message["media"][0]
        self.assertEqual(media["contentType"], "application/octet-stream")
        self.assertIsNone(media["filename"])
        request = urllib.request.Request(f"{self.server.url}/v1/media/{media['id']}", headers={"Authorization": f"Bearer {self.tokens['bob']}"})
        with urllib.request.urlopen(request, timeout=10) as response:
            uploaded = response.read()
        self.assertEqual(len(uploaded), len(picture) + 16)
        self.assertNotIn(b"PNG", uploaded[:16])
        self.go(bob, "#/c/alice")
        bob.wait(lambda: bob.driver.execute_script("const row = (() => {" + ROW_SCRIPT + """})();
            const img = row && row.querySelector('img'); return !!img && img.complete && img.naturalWidth === 12 && img.alt;""", "a picture for you") == PICTURE_NAME,
                 "the picture decrypted in bob's browser", timeout=20)

    # Hovers the row containing a text and clicks one of its buttons, as the message suites do.
    on_row = TwoUsersTestCase.on_row

    def test_07_a_group_edit_and_reply(self):
        from selenium.webdriver.common.keys import Keys
        alice, bob = self.alice, self.bob
        status, group = self.api("PUT", "/v1/groups/secret-club", {"title": "Secret club", "members": ["bob"]})
        self.assertEqual(status, 201, group)
        key = f"g:{group['id']}"
        self.go(bob, f"#/c/{key}")
        bob.find("button", "Members")
        self.assertTrue(bob.absent("button", "Turn on encryption"), "a member who is not an admin is not offered the switch")
        self.go(alice, f"#/c/{key}")
        alice.click("button", "Turn on encryption")
        alice.driver.switch_to.alert.accept()
        alice.wait(lambda: self.api("GET", f"/v1/groups/{group['id']}")[1]["encrypted"], "the group encrypted on the server")
        alice.send(GROUP[0])
        bob.wait(lambda: (self.row_text(bob, GROUP[0]) or [""])[0] == GROUP[0], "alice's group message opened in bob's browser")

        self.on_row(alice, GROUP[0], "Edit")
        editor = alice.find("textbox", "Edit message")
        editor.send_keys(Keys.CONTROL, "a")
        editor.send_keys(GROUP[1], Keys.ENTER)
        bob.wait(lambda: (self.row_text(bob, GROUP[1]) or [""])[0] == GROUP[1], "the edit opened in bob's browser")

        self.on_row(bob, GROUP[1], "Reply")
        bob.send(GROUP[2])
        alice.wait(lambda: alice.driver.execute_script("const row = (() => {" + ROW_SCRIPT + """})();
            return row && row.querySelector('.quote')?.textContent;""", GROUP[2]) == f"In reply to You: {GROUP[1]}", "bob's reply quoting alice's edited message")
        items = self.api("GET", f"/v1/groups/{group['id']}/messages?limit=10")[1]["items"]
        self.assertEqual([(m["text"], m["replyTo"], m["editedAt"] is not None) for m in items], [(None, None, True), (None, None, False)],
                         "no text, no reply link on the server: both are sealed")

    def test_08_a_rotated_key_is_put_announced_and_used(self):
        alice, bob = self.alice, self.bob
        before = {d["id"]: d["encryptionKey"] for d in self.devices("bob")}
        rotated = bob.driver.execute_async_script("""const done = arguments[0];
            import('/web/device-keys.js').then((m) => m.rotateDevice('bob', { force: true }))
              .then((d) => done(d.encryption.public), (e) => done('error ' + e));""")
        self.assertNotIn(rotated, before.values())
        bob.driver.refresh()  # a start PUTs the device again: with its new key
        bob.find("button", "New message")
        bob.wait(lambda: rotated in [d["encryptionKey"] for d in self.devices("bob")], "the new key on the server")
        self.assertEqual(sorted(before), sorted(d["id"] for d in self.devices("bob")), "the same devices")
        # The rotation reaches alice's browser as `device.changed`, so it seals to bob's new key
        # (the retired key opening what was sealed to it is test_web_crypto.py's rotation test).
        self.go(alice, "#/c/bob")
        alice.wait(lambda: rotated in alice.driver.execute_async_script("""const done = arguments[0];
            const open = indexedDB.open('chirp-alice');
            open.onsuccess = () => { const r = open.result.transaction('values').objectStore('values').get('devices:bob');
              r.onsuccess = () => { done((r.result || []).map((d) => d.encryptionKey)); open.result.close(); }; };"""),
            "alice's browser heard of bob's new key")
        alice.send(ROTATED)
        alice.wait(lambda: alice.mark_of(ROTATED) in ("sent", "delivered", "read"), "sent")
        self.go(bob, "#/c/alice")
        bob.wait(lambda: (self.row_text(bob, ROTATED) or [""])[0] == ROTATED, "a message sealed to the retired key, opened")

    def test_09_a_device_added_later_reads_what_follows(self):
        alice, bob = self.alice, self.bob
        second = self.open_browser("alice")
        second.sign_in("alice", create=False)
        second.find("button", "New message")
        second.wait(lambda: len(self.devices("alice")) == 2, "alice's second browser registered")
        alice.wait(lambda: "Your devices changed: a device was added" in alice.text(), "the notice in alice's first browser")
        self.go(second, "#/c/bob")
        second.wait(lambda: second.driver.execute_script("return document.querySelectorAll('[role=log] .text.not-sealed').length") >= 3,
                    "older messages, not sealed to the new device")
        self.assertIn("Sent before this device was added: it cannot be read here.", second.log_text())
        for secret in SECRETS:
            self.assertNotIn(secret, second.log_text())
        # bob's browser holds alice's older list: the server's 409 names the new device.
        self.go(bob, "#/c/alice")
        bob.send(LATER)
        second.wait(lambda: (self.row_text(second, LATER) or [""])[0] == LATER, "a later message, opened on the new device")
        alice.wait(lambda: (self.row_text(alice, LATER) or [""])[0] == LATER, "and on the first")
        second.quit()
        type(self).browsers.remove(second)

    def test_10_no_plaintext_in_the_data_directory(self):
        texts = SECRETS + GROUP + [ROTATED, LATER, "hello from python", PICTURE_NAME, "a picture for you"]
        self.assertEqual(files_holding(self.server.data_dir, texts), [], "plaintext in the server's files")

    def test_11_log_out_removes_the_device_and_its_keys(self):
        bob = self.bob
        browser_device = next(d["id"] for d in self.devices("bob") if d["id"] != self.python.id)
        self.go(bob, "#/settings")
        bob.click("button", "Log out")
        bob.find("button", "Log in")
        bob.wait(lambda: browser_device not in [d["id"] for d in self.devices("bob")], "bob's browser device removed on the server")
        names = bob.driver.execute_async_script("const done = arguments[0]; indexedDB.databases().then((ds) => done(ds.map((d) => d.name)));")
        self.assertNotIn("chirp-keys-bob", names)
        self.assertNotIn("chirp-bob", names)


if __name__ == "__main__":
    main()
