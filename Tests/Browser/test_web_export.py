"""Browser test of "Download my data" (issue 39): in the web client's settings the button asks
the server for an export, waits while it is written and saves the archive, which the test finds
in the browser's download directory (Chrome's download preference) and opens as a tar file
holding the user's messages. Headless Chromium against a real `chirp serve`.

Run: python3 Tests/Browser/test_web_export.py [path/to/chirp]   (default .build/debug/chirp)
"""
import json
import os
import shutil
import sys
import tarfile
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import test_web_client  # noqa: E402
from browser_messages import main  # noqa: E402
from server_test_case import ServerTestCase  # noqa: E402
from test_web_client import PASSWORD  # noqa: E402


class DataExportTests(ServerTestCase):
    @classmethod
    def set_up(cls):
        tokens = cls.server.register_friends(("alice", "bob"), [("alice", "bob")], PASSWORD)
        status, body = cls.server.api("PUT", "/v1/conversations/alice/messages/hello-1", {"text": "hello alice"}, token=tokens["bob"])
        assert status == 201, body
        cls.downloads = tempfile.mkdtemp(prefix="chirp-downloads-")
        cls.alice = cls.open_browser("alice", download_dir=cls.downloads)

    @classmethod
    def tearDownClass(cls):
        super().tearDownClass()
        shutil.rmtree(cls.downloads, ignore_errors=True)

    def test_download_my_data_saves_the_archive(self):
        alice = self.alice
        alice.sign_in("alice", create=False)
        alice.find("button", "New message")  # the first screen is up: navigating now sticks
        alice.click("link", "Settings")
        alice.click("button", "Download my data")
        archive = os.path.join(self.downloads, "chirp-export-alice.tar")
        alice.wait(lambda: os.path.exists(archive) and not any(n.endswith(".crdownload") for n in os.listdir(self.downloads)),
                   "the archive in the download directory", timeout=30)
        alice.wait(lambda: "Your data was downloaded" in alice.text(), "the status line")
        time.sleep(0.2)
        with tarfile.open(archive) as tar:
            names = tar.getnames()
            self.assertIn("chirp-export/profile.json", names)
            messages = json.load(tar.extractfile("chirp-export/messages/bob.json"))
            profile = json.load(tar.extractfile("chirp-export/profile.json"))
        self.assertEqual([m["text"] for m in messages], ["hello alice"])
        self.assertEqual(profile["username"], "alice")


if __name__ == "__main__":
    main()
