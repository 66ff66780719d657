"""A device of an encrypted conversation in Python, for the browser tests: its keys (Ed25519
identity, X25519 encryption, with `cryptography`), its registration body, and envelopes sealed
and opened as the e2ee spec says (HPKE composed by Tests/Fixtures/encryption/check_vectors.py,
which checks that composition against RFC 9180's vectors). A test uses it to be a member the
server cannot tell from a browser, and to store an envelope a browser must refuse."""
import json
import os
import sys

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives import hashes, hmac
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "Tests", "Fixtures", "encryption"))
from check_vectors import b64url, canonical_json, enc64, hpke_open, labeled_expand, labeled_extract  # noqa: E402

KEM_SUITE = b"KEM" + (0x0020).to_bytes(2, "big")
HPKE_SUITE = b"HPKE" + (0x0020).to_bytes(2, "big") + (0x0001).to_bytes(2, "big") + (0x0002).to_bytes(2, "big")


def raw(public_key):
    return public_key.public_bytes(Encoding.Raw, PublicFormat.Raw)


def hpke_seal(recipient_public, info, plaintext):
    """RFC 9180 base mode single-shot seal (DHKEM(X25519, HKDF-SHA256), HKDF-SHA256,
    AES-256-GCM, empty aad): (enc, ciphertext with its tag)."""
    ephemeral = X25519PrivateKey.generate()
    enc = raw(ephemeral.public_key())
    dh = ephemeral.exchange(X25519PublicKey.from_public_bytes(recipient_public))
    eae_prk = labeled_extract(KEM_SUITE, b"", b"eae_prk", dh)
    shared_secret = labeled_expand(KEM_SUITE, eae_prk, b"shared_secret", enc + recipient_public, 32)
    context = bytes([0]) + labeled_extract(HPKE_SUITE, b"", b"psk_id_hash", b"") + labeled_extract(HPKE_SUITE, b"", b"info_hash", info)
    secret = labeled_extract(HPKE_SUITE, shared_secret, b"secret", b"")
    key = labeled_expand(HPKE_SUITE, secret, b"key", context, 32)
    nonce = labeled_expand(HPKE_SUITE, secret, b"base_nonce", context, 12)
    return enc, AESGCM(key).encrypt(nonce, plaintext, b"")


class PythonDevice:
    def __init__(self, name="Python"):
        self.id = enc64(os.urandom(16))
        self.name = name
        self.identity = Ed25519PrivateKey.generate()
        self.encryption = X25519PrivateKey.generate()

    def registration(self):
        encryption = raw(self.encryption.public_key())
        return {"name": self.name, "identityKey": enc64(raw(self.identity.public_key())),
                "encryptionKey": enc64(encryption), "keySignature": enc64(self.identity.sign(encryption))}

    def seal(self, message, conversation_id, client_message_id, recipients):
        """An envelope of `message` (a dict, sealed as compact JSON) to `recipients`, API Devices."""
        plaintext = json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode()
        content_key, nonce = os.urandom(32), os.urandom(12)
        ciphertext = AESGCM(content_key).encrypt(nonce, plaintext, f"{conversation_id}\n{client_message_id}".encode())
        mac = hmac.HMAC(content_key, hashes.SHA256())
        mac.update(plaintext)
        keys = []
        for device in recipients:
            if device["id"] == self.id:
                continue
            enc, wrapped = hpke_seal(b64url(device["encryptionKey"], 32), f"chirp-v1{conversation_id}".encode(), content_key)
            keys.append({"device": device["id"], "enc": enc64(enc), "wrappedKey": enc64(wrapped)})
        envelope = {"v": 1, "senderDevice": self.id, "nonce": enc64(nonce), "ciphertext": enc64(ciphertext),
                    "commitment": enc64(mac.finalize()), "keys": keys}
        signed = f"{canonical_json(envelope)}\n{conversation_id}\n{client_message_id}".encode()
        envelope["signature"] = enc64(self.identity.sign(signed))
        return envelope

    def open(self, envelope, conversation_id, client_message_id):
        """The plaintext (a dict) of an envelope sealed to this device (no signature check: the
        tests check what the browser sealed to it by opening it)."""
        entry = next(k for k in envelope["keys"] if k["device"] == self.id)
        content_key = hpke_open(self.encryption, b64url(entry["enc"], 32), f"chirp-v1{conversation_id}".encode(),
                                b64url(entry["wrappedKey"], 48))
        plaintext = AESGCM(content_key).decrypt(b64url(envelope["nonce"], 12), b64url(envelope["ciphertext"]),
                                                f"{conversation_id}\n{client_message_id}".encode())
        return json.loads(plaintext)


def direct_conversation_id(a, b):
    first, second = sorted([str(a), str(b)])
    return f"d:{first}:{second}"
