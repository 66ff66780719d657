"""Browser test of the web client's cryptography for encrypted conversations (issue 55; the byte
decisions in the e2ee spec): hpke.js against the RFC 9180 vectors (DHKEM(X25519, HKDF-SHA256),
HKDF-SHA256, AES-128-GCM and AES-256-GCM, base mode), envelope.js among devices with every
tampering, a device not sealed to, rotation in device-keys.js (older envelopes open until the
retired key is dropped), keys that survive a reload non-extractable, attachment-cipher.js, and
safety-number.js against a value computed here with hashlib. Interop: the checked-in
Tests/Fixtures/encryption/web-sealed.json opens in the browser and, independently, in Python
(HPKE open composed from the `cryptography` package's X25519, HKDF, AES-GCM and HMAC); the Swift
kit's swift-sealed.json opens too when it is there.

It needs no chirp server: Python's http.server on 127.0.0.1 (a secure context) serves
Sources/ChirpWebClient/web/ at /web/ and the test page Tests/Browser/crypto/ at /crypto/, to
one headless Chromium.

Run: python3 Tests/Browser/test_web_crypto.py
     CHIRP_WRITE_WEB_SEALED=1 python3 Tests/Browser/test_web_crypto.py   (writes web-sealed.json anew)
Skipped with a reason when Chromium, chromedriver, Selenium or cryptography is missing, unless CI=true.
"""
import base64
import hashlib
import hmac
import json
import os
import re
import shutil
import sys
import threading
import unittest
import urllib.parse
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
WEB = os.path.join(ROOT, "Sources", "ChirpWebClient", "web")
PAGE = os.path.join(HERE, "crypto")
FIXTURES = os.path.join(ROOT, "Tests", "Fixtures", "encryption")
sys.path.insert(0, HERE)

# Two users for the safety number: alice's three identity keys listed in neither their
# base64url order ("-…" < "A…" < "_…", the spec's) nor their byte order (0x00…, 0xf8…, 0xff…).
SAFETY_USERS = [
    {"username": "bob", "identityKeys": ["qrvM3e7_ABEiM0RVZneImaq7zN3u_wARIjNEVWZ3iJk"]},
    {"username": "alice", "identityKeys": ["_-7dzLuqmYh3ZlVEMyIRAP_u3cy7qpmId2ZVRDMiEQA",
                                           "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8",
                                           "-AECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8"]},
]


def missing_requirement():
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install selenium==4.51.0)"
    try:
        import cryptography  # noqa: F401
    except ImportError:
        return "cryptography is not installed (pip install cryptography)"
    if not (shutil.which("chromium") or shutil.which("chromium-browser")):
        return "chromium is not installed (apt-get install chromium chromium-driver)"
    if not shutil.which("chromedriver"):
        return "chromedriver is not installed (apt-get install chromium-driver)"
    return None


# Bytes and the spec, computed here without the browser.

def b64d(text):
    assert re.fullmatch(r"[A-Za-z0-9_-]*", text), f"not unpadded base64url: {text!r}"
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64e(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def user_digits(username, identity_keys):
    keys = sorted(identity_keys, key=lambda k: k.encode())
    digest = hashlib.sha512(b"chirp-safety-v1\x00" + username.encode() + b"\x00" + b"".join(b64d(k) for k in keys)).digest()
    return "".join(f"{int.from_bytes(digest[i * 5:i * 5 + 5], 'big') % 100000:05d}" for i in range(6))


def safety_number(a, b):
    first, second = sorted((a, b), key=lambda u: u["username"].encode())
    digits = user_digits(first["username"], first["identityKeys"]) + user_digits(second["username"], second["identityKeys"])
    return " ".join(digits[i:i + 5] for i in range(0, 60, 5))


# Their safety number by the functions above (hashlib), pinned: the Swift kit's tests can check
# the same value (Tests/Fixtures/encryption/safety-number.json).
SAFETY_NUMBER = "67706 57301 79018 15443 58379 15448 18916 64943 96321 12080 65764 20577"


class PythonHPKE:
    """RFC 9180 base mode, DHKEM(X25519, HKDF-SHA256), HKDF-SHA256, AES-GCM: the recipient's
    side, from the `cryptography` package's primitives."""
    KEM_SUITE = b"KEM" + (0x20).to_bytes(2, "big")

    @staticmethod
    def extract(salt, ikm):
        from cryptography.hazmat.primitives import hashes
        from cryptography.hazmat.primitives.hmac import HMAC
        h = HMAC(salt or bytes(32), hashes.SHA256())  # RFC 5869: no salt is 32 zero bytes
        h.update(ikm)
        return h.finalize()

    @staticmethod
    def expand(prk, info, length):
        from cryptography.hazmat.primitives import hashes
        from cryptography.hazmat.primitives.kdf.hkdf import HKDFExpand
        return HKDFExpand(algorithm=hashes.SHA256(), length=length, info=info).derive(prk)

    @classmethod
    def labeled_extract(cls, suite, salt, label, ikm):
        return cls.extract(salt, b"HPKE-v1" + suite + label + ikm)

    @classmethod
    def labeled_expand(cls, suite, prk, label, info, length):
        return cls.expand(prk, length.to_bytes(2, "big") + b"HPKE-v1" + suite + label + info, length)

    @classmethod
    def decap(cls, sk_r, enc):
        from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
        private = X25519PrivateKey.from_private_bytes(sk_r)
        dh = private.exchange(X25519PublicKey.from_public_bytes(enc))
        pk_r = private.public_key().public_bytes_raw()
        prk = cls.labeled_extract(cls.KEM_SUITE, b"", b"eae_prk", dh)
        return cls.labeled_expand(cls.KEM_SUITE, prk, b"shared_secret", enc + pk_r, 32)

    @classmethod
    def key_schedule(cls, shared_secret, info, aead_id):
        suite = b"HPKE" + (0x20).to_bytes(2, "big") + (1).to_bytes(2, "big") + aead_id.to_bytes(2, "big")
        context = b"\x00" + cls.labeled_extract(suite, b"", b"psk_id_hash", b"") + cls.labeled_extract(suite, b"", b"info_hash", info)
        secret = cls.labeled_extract(suite, shared_secret, b"secret", b"")
        key = cls.labeled_expand(suite, secret, b"key", context, {1: 16, 2: 32}[aead_id])
        return key, cls.labeled_expand(suite, secret, b"base_nonce", context, 12)

    @classmethod
    def open(cls, sk_r, enc, info, aad, ct, aead_id=2, seq=0):
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM
        key, base_nonce = cls.key_schedule(cls.decap(sk_r, enc), info, aead_id)
        nonce = bytes(a ^ b for a, b in zip(base_nonce, seq.to_bytes(12, "big")))
        return AESGCM(key).decrypt(nonce, ct, aad)


def verify_sealed_in_python(test, fixture):
    """Opens a sealed fixture by the spec with Python's own code; returns the plaintext bytes."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM
    envelope, cid, mid = fixture["envelope"], fixture["conversationId"], fixture["clientMessageId"]
    test.assertEqual(sorted(envelope), ["ciphertext", "commitment", "keys", "nonce", "senderDevice", "signature", "v"])
    test.assertEqual(envelope["v"], 1)
    if "senderDeviceId" in fixture:  # web-sealed.json names it; swift-sealed.json has only the envelope's
        test.assertEqual(envelope["senderDevice"], fixture["senderDeviceId"])
    for name, size in (("nonce", 12), ("commitment", 32), ("signature", 64)):
        test.assertEqual(len(b64d(envelope[name])), size, name)
    for entry in envelope["keys"]:
        test.assertEqual(sorted(entry), ["device", "enc", "wrappedKey"])
        test.assertEqual((len(b64d(entry["enc"])), len(b64d(entry["wrappedKey"]))), (32, 48))
    # 1. the signature over the canonical JSON (sorted keys, no whitespace), the ids
    unsigned = {k: v for k, v in envelope.items() if k != "signature"}
    signed = json.dumps(unsigned, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n" + cid + "\n" + mid
    Ed25519PublicKey.from_public_bytes(b64d(fixture["senderIdentityKey"])).verify(b64d(envelope["signature"]), signed.encode())
    # 2.–3. this device's entry, the content key by HPKE
    entry = next(e for e in envelope["keys"] if e["device"] == fixture["recipientDeviceId"])
    key = PythonHPKE.open(b64d(fixture["recipientPrivateKey"]), b64d(entry["enc"]), b"chirp-v1" + cid.encode(), b"", b64d(entry["wrappedKey"]))
    test.assertEqual(b64e(key), fixture["contentKey"])
    # 4. the plaintext, 5. the commitment, 6. JSON
    plaintext = AESGCM(key).decrypt(b64d(envelope["nonce"]), b64d(envelope["ciphertext"]), (cid + "\n" + mid).encode())
    test.assertTrue(hmac.compare_digest(hmac.new(key, plaintext, hashlib.sha256).digest(), b64d(envelope["commitment"])))
    test.assertEqual(plaintext, fixture["plaintext"].encode())
    test.assertIsInstance(json.loads(plaintext), dict)
    return plaintext


class _Handler(SimpleHTTPRequestHandler):
    """/web/… from the web client's folder, /crypto/… from the test page's; nothing else."""
    extensions_map = {".js": "text/javascript", ".html": "text/html", ".json": "application/json", "": "application/octet-stream"}
    ROOTS = {"/web/": WEB, "/crypto/": PAGE}

    def translate_path(self, path):
        path = urllib.parse.unquote(urllib.parse.urlsplit(path).path)
        for prefix, folder in self.ROOTS.items():
            if path.startswith(prefix):
                full = os.path.realpath(os.path.join(folder, path[len(prefix):]))
                if full.startswith(os.path.realpath(folder) + os.sep):
                    return full
        return os.path.join(PAGE, "no-such-file")

    def end_headers(self):
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def log_message(self, *args):
        pass


CALL_SCRIPT = """
    const done = arguments[arguments.length - 1];
    const [name, args] = [arguments[0], arguments[1]];
    Promise.resolve().then(() => window.cryptoTests[name](...args))
      .then((value) => done({value}), (error) => done({error: String(error && error.stack || error)}));"""


@unittest.skipIf(missing_requirement() and os.environ.get("CI") != "true", f"skipped: {missing_requirement()}")
class WebCryptoTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        reason = missing_requirement()
        if reason:
            raise AssertionError(f"CI=true requires the browser tests to run: {reason}")
        from test_web_client import Browser
        cls.httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        cls.http_thread = threading.Thread(target=cls.httpd.serve_forever, daemon=True)
        cls.http_thread.start()
        cls.url = f"http://127.0.0.1:{cls.httpd.server_address[1]}/crypto/index.html"
        cls.browser = None
        try:
            cls.browser = Browser(cls.url, "crypto")
            cls.load()
        except BaseException:
            cls.tearDownClass()
            raise

    @classmethod
    def tearDownClass(cls):
        try:
            if cls.browser:
                cls.browser.quit()
        finally:
            cls.httpd.shutdown()
            cls.httpd.server_close()
            cls.http_thread.join(timeout=10)

    @classmethod
    def load(cls, reload=False):
        driver = cls.browser.driver
        driver.refresh() if reload else driver.get(cls.url)
        cls.browser.wait(lambda: driver.execute_script("return !!window.cryptoTests || !!window.cryptoTestsError"), "the test page's module")
        error = driver.execute_script("return window.cryptoTestsError || null")
        assert not error, f"the test page failed to load: {error}"

    def call(self, name, *args):
        reply = self.browser.driver.execute_async_script(CALL_SCRIPT, name, list(args))
        self.assertNotIn("error", reply, reply.get("error"))
        return reply.get("value")

    def test_base64url(self):
        r = self.call("base64url")
        self.assertEqual(r["all"], b64e(bytes(range(256))))
        self.assertTrue(r["back"])
        self.assertEqual(r["lengths"], [b64e(bytes(range(250, 250 + n))) for n in range(6)])
        self.assertEqual((r["padded"], r["unpadded"]), ("ff", "ff"))
        for bad in ("plus", "slash", "space", "badLength", "badPadding"):
            self.assertEqual(r[bad], "TypeError", bad)

    def test_rfc9180_vectors(self):
        with open(os.path.join(FIXTURES, "hpke-vectors-x25519.json")) as f:
            vectors = json.load(f)
        self.assertEqual(sorted(v["aead_id"] for v in vectors), [1, 2])
        results = self.call("rfcVectors", vectors)
        self.assertEqual(len(results), len(vectors))
        for v, r in zip(vectors, results):
            with self.subTest(aead=v["aead_id"]):
                self.assertEqual(r["enc"], v["enc"])
                self.assertEqual(r["sharedSecret"], v["shared_secret"])
                self.assertEqual(r["recipientSharedSecret"], v["shared_secret"])
                self.assertEqual(r["key"], v["key"])
                self.assertEqual(r["baseNonce"], v["base_nonce"])
                self.assertEqual(r["cts"], [e["ct"] for e in v["encryptions"]])
                self.assertEqual(r["pts"], [e["pt"] for e in v["encryptions"]])
                self.assertEqual((r["singleEnc"], r["singleCt"], r["singleOpen"]), (v["enc"], v["encryptions"][0]["ct"], v["encryptions"][0]["pt"]))
                self.assertEqual(r["wrongAad"], "OperationError")
                # The Python side (used for the interop checks) by the same vectors.
                for seq, e in enumerate(v["encryptions"]):
                    pt = PythonHPKE.open(bytes.fromhex(v["skRm"]), bytes.fromhex(v["enc"]), bytes.fromhex(v["info"]),
                                         bytes.fromhex(e["aad"]), bytes.fromhex(e["ct"]), v["aead_id"], seq)
                    self.assertEqual(pt.hex(), e["pt"])

    def test_envelopes_among_devices_and_tampering(self):
        r = self.call("envelopes")
        self.assertEqual(r["conversationIds"], ["d:10:9", "d:10:9", "d:20:3", "g:42"])
        self.assertEqual(r["shape"]["keys"], r["shape"]["expected"])
        self.assertEqual(r["shape"]["fields"], ["ciphertext", "commitment", "keys", "nonce", "senderDevice", "signature", "v"])
        self.assertEqual(r["canonical"], '{"a":[{"y":"\\"\\\\","z":"x"}],"b":1,"c":"é"}')
        message = {"text": "Meet at 6 — ça va? 🐦", "media": []}
        self.assertEqual(json.loads(r["plaintextString"]), message)
        for device in ("alice2", "bob1"):
            self.assertEqual(r[device], {"status": "opened", "plaintext": message, "sameBytes": True, "contentKey": True}, device)
        self.assertEqual(r["alice1"], "not-sealed-to-this-device", "the sender's own device is not in keys")
        self.assertEqual(r["bob2"], "not-sealed-to-this-device", "a device added later")
        self.assertEqual(r["senderAmongRecipients"], "TypeError")
        self.assertEqual(r["extraField"], "opened", "fields outside the spec are not signed and not read")
        self.assertEqual(r["group"], ["group"] * 3)
        expected = {
            "ciphertext": "signature", "ciphertext re-signed": "decryption",
            "commitment": "signature", "commitment re-signed": "commitment",
            "wrappedKey": "signature", "wrappedKey re-signed": "content key",
            "enc": "signature", "enc re-signed": "content key",
            "nonce": "signature", "nonce re-signed": "decryption",
            "conversation id": "signature", "conversation id re-signed": "content key",
            "clientMessageId": "signature", "clientMessageId re-signed": "decryption",
            "signature": "signature", "senderDevice": "signature", "another sender key": "signature",
            "short wrappedKey": "malformed: wrappedKey is not 48 bytes", "version 2": "malformed: not version 1",
            "other alphabet": "malformed: not base64url",
            "plaintext not JSON": "plaintext", "plaintext JSON array": "plaintext", "plaintext bad UTF-8": "plaintext",
        }
        self.assertEqual(r["cases"], {k: f"unverifiable: {v}" for k, v in expected.items()})

    def test_rotation_keeps_older_keys_until_dropped(self):
        r = self.call("rotation", "carol")
        self.assertEqual(r, {
            "created": True, "sameDevice": True, "notDueUnchanged": True, "dueBefore": True, "dueAfter": False,
            "rotatedKeyChanged": True, "sameIdentity": True, "retired": [{"public": True, "retiredAt": True}],
            "registrationVerifies": True, "registrationKey": True, "forgedVerifies": False,
            "oldOpens": "m1", "newOpens": "m2", "oldWithCurrentOnly": "unverifiable: content key",
            "keptCount": 1, "droppedCount": 0, "storedRetired": 0,
            "oldAfterDrop": "unverifiable: content key", "newAfterDrop": "m2", "wiped": True,
        })

    def test_keys_survive_a_reload_non_extractable(self):
        stored = self.call("storeDevice", "dora")
        self.assertTrue(stored["created"])
        self.assertRegex(stored["id"], r"^[A-Za-z0-9_-]{22}$")
        self.assertEqual((len(b64d(stored["identity"])), len(b64d(stored["encryption"]))), (32, 32))
        self.load(reload=True)
        r = self.call("reloadedDevice", "dora")
        self.assertEqual((r["id"], r["identity"], r["encryption"], r["retired"]),
                         (stored["id"], stored["identity"], stored["encryption"], [stored["retired"]]))
        self.assertNotEqual(stored["encryption"], stored["retired"])
        self.assertEqual(r["isCryptoKey"], [True] * 3)
        self.assertEqual(r["extractable"], [False] * 3, "identity, encryption and retired private keys")
        self.assertEqual(r["algorithms"], ["Ed25519 private sign", "X25519 private deriveBits", "X25519 private deriveBits"])
        self.assertEqual(r["exports"], ["InvalidAccessError"] * 6)
        self.assertEqual(r["opened"], "secret")
        self.assertTrue(r["signs"])

    def test_attachments(self):
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM
        r = self.call("attachments")
        media = r["media"]
        self.assertEqual(sorted(media), ["byteCount", "contentType", "id", "key", "name", "nonce", "sha256"])
        self.assertEqual((media["contentType"], media["name"], media["byteCount"]), ("image/png", "photo.png", 70000))
        upload, plain = b64d(r["upload"]), b64d(r["plain"])
        self.assertEqual((r["uploadType"], r["uploadSize"], len(upload)), ("application/octet-stream", 70016, 70016))
        self.assertEqual(b64e(hashlib.sha256(upload).digest()), media["sha256"], "sha256 of the uploaded (encrypted) bytes")
        self.assertEqual(AESGCM(b64d(media["key"])).decrypt(b64d(media["nonce"]), upload, None), plain)
        self.assertTrue(r["roundTrip"])
        self.assertEqual(r["flippedByte"], "unverifiable: sha256")
        self.assertEqual(r["flippedByteWithItsDigest"], "unverifiable: decryption")
        self.assertEqual(r["otherKey"], "unverifiable: decryption")
        self.assertEqual(r["otherByteCount"], "unverifiable: byteCount")
        self.assertEqual((r["fromBytes"]["contentType"], r["fromBytes"]["byteCount"], "name" in r["fromBytes"]), ("text/plain", 10, False))

    def test_safety_number(self):
        bob, alice = SAFETY_USERS
        self.assertEqual(safety_number(alice, bob), SAFETY_NUMBER)
        r = self.call("safety", bob, alice)
        self.assertEqual(r["ab"], SAFETY_NUMBER)
        self.assertEqual(r["ba"], SAFETY_NUMBER)
        self.assertEqual((r["digitsA"], r["digitsB"]), (user_digits("bob", bob["identityKeys"]), user_digits("alice", alice["identityKeys"])))
        self.assertRegex(r["ab"], r"^\d{5}( \d{5}){11}$")
        with open(os.path.join(FIXTURES, "safety-number.json")) as f:
            self.assertEqual(json.load(f), {"users": SAFETY_USERS, "safetyNumber": SAFETY_NUMBER})
        changed = {"username": "bob", "identityKeys": bob["identityKeys"] + [b64e(bytes(32))]}
        self.assertNotEqual(self.call("safety", changed, alice)["ab"], SAFETY_NUMBER)

    def test_web_sealed_fixture_opens_in_the_browser_and_in_python(self):
        path = os.path.join(FIXTURES, "web-sealed.json")
        if os.environ.get("CHIRP_WRITE_WEB_SEALED") == "1":
            fixture = self.call("makeFixture")
            with open(path, "w") as f:
                json.dump(fixture, f, indent=1, ensure_ascii=False)
                f.write("\n")
        self.assertTrue(os.path.exists(path), f"{path} is missing: CHIRP_WRITE_WEB_SEALED=1 writes it")
        with open(path) as f:
            fixture = json.load(f)
        self.assertEqual(sorted(fixture), sorted(["recipientDeviceId", "recipientPrivateKey", "senderDeviceId", "senderIdentityKey",
                                                  "conversationId", "clientMessageId", "envelope", "plaintext", "contentKey"]))
        self.assertEqual(verify_sealed_in_python(self, fixture), fixture["plaintext"].encode())
        r = self.call("openFixture", fixture)
        self.assertEqual(r, {"status": "opened", "sameSender": True, "plaintext": fixture["plaintext"],
                             "parsed": json.loads(fixture["plaintext"]), "contentKey": fixture["contentKey"]})

    def test_fresh_seal_verifies_in_python(self):
        fixture = self.call("makeFixture")
        verify_sealed_in_python(self, fixture)
        self.assertEqual(self.call("openFixture", fixture)["status"], "opened")

    def test_swift_sealed_fixture(self):
        path = os.path.join(FIXTURES, "swift-sealed.json")
        if not os.path.exists(path):
            self.skipTest("no Tests/Fixtures/encryption/swift-sealed.json yet (the Swift kit writes it)")
        with open(path) as f:
            fixture = json.load(f)
        verify_sealed_in_python(self, fixture)
        r = self.call("openFixture", fixture)
        self.assertEqual((r["status"], r.get("plaintext"), r.get("contentKey")), ("opened", fixture["plaintext"], fixture["contentKey"]))


if __name__ == "__main__":
    # The CI runs browser tests with the chirp binary's path: not needed here.
    if len(sys.argv) > 1 and not sys.argv[1].startswith("-"):
        sys.argv.pop(1)
    reason = missing_requirement()
    if reason and os.environ.get("CI") != "true":
        print(f"browser tests skipped: {reason}")
        sys.exit(0)
    unittest.main(verbosity=2)
