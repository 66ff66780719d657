"""A unittest base class for browser tests: one `chirp serve` of its own per test class
(`cls.server`, fresh data) and the browsers it opened (`cls.open_browser`), all ended and the
data removed after the class's tests, even when its set-up failed. Skipped with a reason when
Chromium, chromedriver or Selenium is missing, unless CI=true (then that is a failure).
"""
import os
import shutil
import unittest

import test_web_client
from chirp_server import ChirpServer
from test_web_client import Browser, missing_requirement


class ServerTestCase(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        # Checked here, not in a decorator: the binary named on the command line is known only
        # once main() has read it, after this module was imported.
        reason = missing_requirement()
        if reason and os.environ.get("CI") != "true":
            raise unittest.SkipTest(f"skipped: {reason}")
        if reason:
            raise AssertionError(f"CI=true requires the browser tests to run: {reason}")
        cls.browsers = []
        cls.server = ChirpServer(test_web_client.BINARY)
        cls.server.start()
        try:
            cls.set_up()
        except BaseException:
            cls.tearDownClass()
            raise

    @classmethod
    def set_up(cls):
        """The class's own set-up, once its server runs."""

    @classmethod
    def open_browser(cls, username, **options):
        browser = Browser(cls.server.url, username, **options)
        cls.browsers.append(browser)
        return browser

    @classmethod
    def tearDownClass(cls):
        for browser in cls.browsers:
            browser.quit()
        cls.server.stop()
        shutil.rmtree(cls.server.data_dir, ignore_errors=True)
