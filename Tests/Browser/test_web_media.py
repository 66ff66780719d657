"""Browser tests of attachments in the web client (issue 22): an image chosen with the Attach
button uploads and shows inline for the recipient in a frame of fixed size; a file dropped on
the conversation arrives as a download link; an upload waiting in the outbox survives a
reload. Two headless Chromium windows against a real `chirp serve`.

Run: python3 Tests/Browser/test_web_media.py [path/to/chirp]   (default .build/debug/chirp)
"""
import os
import shutil
import struct
import sys
import tempfile
import unittest
import urllib.request
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser_messages import TwoUsersTestCase, main  # noqa: E402
from test_web_client import missing_requirement  # noqa: E402


def png(width, height):
    """A valid RGB PNG of `width` × `height` pixels."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    rows = b"".join(b"\x00" + bytes([200, 30, 30]) * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


DROP_SCRIPT = """
    const [name, type, text] = arguments;
    const data = new DataTransfer();
    data.items.add(new File([text], name, { type }));
    const target = document.querySelector('[role=log]');
    for (const kind of ['dragenter', 'dragover', 'drop']) target.dispatchEvent(new DragEvent(kind, { dataTransfer: data, bubbles: true, cancelable: true }));"""


@unittest.skipIf(missing_requirement() and os.environ.get("CI") != "true", f"skipped: {missing_requirement()}")
class AttachmentTests(TwoUsersTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.files = tempfile.mkdtemp(prefix="chirp-browser-files-")

    @classmethod
    def tearDownClass(cls):
        super().tearDownClass()
        shutil.rmtree(cls.files, ignore_errors=True)

    def attach(self, browser, path):
        from selenium.webdriver.common.by import By
        browser.driver.find_element(By.CSS_SELECTOR, "input[type=file]").send_keys(path)

    def download(self, media_id, user):
        request = urllib.request.Request(f"{self.server.url}/v1/media/{media_id}", headers={"Authorization": f"Bearer {self.tokens[user]}"})
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.read()

    def media_of(self, user, peer, text):
        status, body = self.api("GET", f"/v1/conversations/{peer}/messages?limit=100", user=user)
        self.assertEqual(status, 200)
        return next(m["media"] for m in body["items"] if m["text"] == text)

    def test_01_an_image_shows_inline_for_the_recipient(self):
        alice, bob = self.alice, self.bob
        path = os.path.join(self.files, "red.png")
        with open(path, "wb") as f:
            f.write(png(30, 20))
        self.attach(alice, path)
        alice.wait(lambda: "red.png" in alice.text(), "the file in the tray")
        alice.send("a red picture")
        alice.wait(lambda: alice.mark_of("a red picture") in ("delivered", "read"), "the message delivered")
        image = """
            const row = [...document.querySelectorAll('[role=log] .msg')].find((r) => r.innerText.includes('a red picture'));
            const img = row && row.querySelector('img');
            if (!img) return null;
            const box = img.getBoundingClientRect();
            return [img.complete ? img.naturalWidth : 0, img.naturalHeight, Math.round(box.width), Math.round(box.height), img.alt, img.getAttribute('loading')];"""
        shown = bob.wait(lambda: (lambda r: r if r and r[0] else None)(bob.driver.execute_script(image)), "the image loaded at bob")
        self.assertEqual(shown, [30, 20, 240, 180, "red.png", "lazy"], "the image, in its reserved frame")
        alice.wait(lambda: (alice.driver.execute_script(image) or [0])[0] == 30, "the image at alice")
        media = self.media_of("bob", "alice", "a red picture")
        self.assertEqual([(m["contentType"], m["filename"], m["size"]) for m in media], [("image/png", "red.png", len(png(30, 20)))])
        self.assertEqual(self.download(media[0]["id"], "bob"), png(30, 20))

    def test_02_a_dropped_file_is_a_download_link(self):
        alice, bob = self.alice, self.bob
        text = "plain notes, not an image\n"
        alice.driver.execute_script(DROP_SCRIPT, "notes.txt", "text/plain", text)
        alice.wait(lambda: "notes.txt" in alice.text(), "the dropped file in the tray")
        alice.click("button", "Send")
        link = bob.wait(lambda: bob.driver.execute_script(
            "return [...document.querySelectorAll('[role=log] a.file')].find((a) => a.textContent.includes('notes.txt'))"), "the file link at bob")
        self.assertEqual(link.text, f"📎 notes.txt ({len(text)} B)")
        self.assertEqual(link.get_attribute("download"), "notes.txt")
        self.assertEqual(bob.driver.execute_script("return document.querySelectorAll('[role=log] img').length"), 1, "only the earlier image is inline")
        link.click()
        bob.wait(lambda: link.get_attribute("href").startswith("blob:"), "the file fetched with the token")
        media = self.media_of("bob", "alice", "")
        self.assertEqual(self.download(media[0]["id"], "bob"), text.encode())

    def test_03_an_upload_in_the_outbox_survives_a_reload(self):
        alice, bob = self.alice, self.bob
        path = os.path.join(self.files, "later.png")
        with open(path, "wb") as f:
            f.write(png(12, 12))
        self.server.stop()
        try:
            alice.wait(lambda: "Can't reach the server" in alice.banner(), "the unreachable banner")
            self.attach(alice, path)
            alice.wait(lambda: "later.png" in alice.text(), "the file in the tray")
            alice.send("sent after a reload")
            alice.wait(lambda: alice.mark_of("sent after a reload") == "sending", "the sending mark")
            self.assertIn("later.png", self.row_text(alice, "sent after a reload"), "the upload shows in the waiting message")
            alice.driver.get("about:blank")
        finally:
            self.server.start()
        alice.driver.get(f"{self.server.url}/#/c/bob")
        alice.wait(lambda: alice.mark_of("sent after a reload") in ("delivered", "read"), "delivery after the reload", timeout=30)
        bob.wait(lambda: bob.driver.execute_script(
            "const row = [...document.querySelectorAll('[role=log] .msg')].find((r) => r.innerText.includes('sent after a reload'));"
            "const img = row && row.querySelector('img'); return !!img && img.complete && img.naturalWidth === 12"), "the image at bob", timeout=30)
        self.assertEqual(len(self.media_of("bob", "alice", "sent after a reload")), 1)


if __name__ == "__main__":
    main()
