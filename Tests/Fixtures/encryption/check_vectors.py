#!/usr/bin/env python3
"""Opens the encrypted-conversation fixtures independently of the Swift kit and the web client.

An implementation of issue 55's byte-level spec (API.md part 4, "Encrypted conversations") in
Python on the `cryptography` package's primitives (X25519, Ed25519, HKDF, HMAC, AES-GCM, SHA-2);
HPKE (RFC 9180, base mode, DHKEM(X25519, HKDF-SHA256), HKDF-SHA256, AES-256-GCM) is composed
here from them and first checked against RFC 9180's own test vectors.

    python3 Tests/Fixtures/encryption/check_vectors.py [fixture.json ...]

With no argument it checks swift-sealed.json, and web-sealed.json when present, next to this
script. Exits 1 on any mismatch.
"""

import base64
import hashlib
import hmac as std_hmac
import json
import pathlib
import re
import sys

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, hmac
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDFExpand
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

HERE = pathlib.Path(__file__).resolve().parent
RFC_VECTORS = HERE.parent.parent / "ChirpEncryptionTests" / "Fixtures" / "hpke-test-vectors.json"


class Mismatch(Exception):
    pass


def expect(condition, what):
    if not condition:
        raise Mismatch(what)


def b64url(text, length=None, what="value"):
    """Strict base64url without padding."""
    expect(isinstance(text, str) and re.fullmatch(r"[A-Za-z0-9_-]*", text) is not None,
           f"{what}: not unpadded base64url: {text!r}")
    expect(len(text) % 4 != 1, f"{what}: impossible length")
    data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    expect(base64.urlsafe_b64encode(data).rstrip(b"=").decode() == text, f"{what}: not canonical")
    if length is not None:
        expect(len(data) == length, f"{what}: {len(data)} bytes, expected {length}")
    return data


def enc64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


# --- HPKE (RFC 9180) from primitives -------------------------------------------------------

def hkdf_extract(salt, ikm):
    mac = hmac.HMAC(salt if salt else bytes(32), hashes.SHA256())
    mac.update(ikm)
    return mac.finalize()


def hkdf_expand(prk, info, length):
    return HKDFExpand(hashes.SHA256(), length, info).derive(prk)


def labeled_extract(suite_id, salt, label, ikm):
    return hkdf_extract(salt, b"HPKE-v1" + suite_id + label + ikm)


def labeled_expand(suite_id, prk, label, info, length):
    return hkdf_expand(prk, length.to_bytes(2, "big") + b"HPKE-v1" + suite_id + label + info, length)


def hpke_base_context(sk_r, enc, info, aead_id):
    """Decap and the base-mode key schedule: (shared_secret, key, base_nonce)."""
    kem_suite = b"KEM" + (0x0020).to_bytes(2, "big")
    pk_r = sk_r.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    dh = sk_r.exchange(X25519PublicKey.from_public_bytes(enc))
    eae_prk = labeled_extract(kem_suite, b"", b"eae_prk", dh)
    shared_secret = labeled_expand(kem_suite, eae_prk, b"shared_secret", enc + pk_r, 32)

    suite = b"HPKE" + (0x0020).to_bytes(2, "big") + (0x0001).to_bytes(2, "big") + aead_id.to_bytes(2, "big")
    psk_id_hash = labeled_extract(suite, b"", b"psk_id_hash", b"")
    info_hash = labeled_extract(suite, b"", b"info_hash", info)
    context = bytes([0]) + psk_id_hash + info_hash
    secret = labeled_extract(suite, shared_secret, b"secret", b"")
    key_length = {1: 16, 2: 32}[aead_id]
    key = labeled_expand(suite, secret, b"key", context, key_length)
    base_nonce = labeled_expand(suite, secret, b"base_nonce", context, 12)
    return shared_secret, key, base_nonce


def hpke_open(sk_r, enc, info, ct, aad=b"", aead_id=2):
    """Single-shot open (sequence number 0)."""
    _, key, base_nonce = hpke_base_context(sk_r, enc, info, aead_id)
    return AESGCM(key).decrypt(base_nonce, ct, aad)


def check_rfc_vectors():
    vectors = json.loads(RFC_VECTORS.read_text())
    expect({v["aead_id"] for v in vectors} == {1, 2}, "RFC 9180 vectors for AES-128-GCM and AES-256-GCM")
    for v in vectors:
        expect((v["mode"], v["kem_id"], v["kdf_id"]) == (0, 32, 1), "base mode, X25519, HKDF-SHA256")
        sk_r = X25519PrivateKey.from_private_bytes(bytes.fromhex(v["skRm"]))
        shared, key, nonce = hpke_base_context(sk_r, bytes.fromhex(v["enc"]), bytes.fromhex(v["info"]), v["aead_id"])
        expect(shared.hex() == v["shared_secret"], f"RFC 9180 aead {v['aead_id']}: shared_secret")
        expect(key.hex() == v["key"], f"RFC 9180 aead {v['aead_id']}: key")
        expect(nonce.hex() == v["base_nonce"], f"RFC 9180 aead {v['aead_id']}: base_nonce")
        first = v["encryptions"][0]
        opened = hpke_open(sk_r, bytes.fromhex(v["enc"]), bytes.fromhex(v["info"]), bytes.fromhex(first["ct"]),
                           bytes.fromhex(first["aad"]), v["aead_id"])
        expect(opened.hex() == first["pt"], f"RFC 9180 aead {v['aead_id']}: first encryption")
    print(f"ok   RFC 9180 test vectors ({len(vectors)}): this HPKE composition is right")


# --- The spec ------------------------------------------------------------------------------

def canonical_json(envelope):
    unsigned = {k: v for k, v in envelope.items() if k != "signature"}
    return json.dumps(unsigned, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def safety_digits(username, identity_keys):
    data = b"chirp-safety-v1\x00" + username.encode() + b"\x00"
    for key in sorted(identity_keys):  # base64url text is ASCII: code point order is byte order
        data += b64url(key, 32, "identity key")
    fingerprint = hashlib.sha512(data).digest()[:30]
    return "".join("%05d" % (int.from_bytes(fingerprint[5 * i:5 * i + 5], "big") % 100000) for i in range(6))


def check_fixture(path):
    f = json.loads(path.read_text())
    name = path.name
    envelope = f["envelope"]
    cid, cmid = f["conversationId"], f["clientMessageId"]
    expect(re.fullmatch(r"d:\d+:\d+|g:\d+", cid) is not None, f"{name}: conversation id {cid!r}")
    if cid.startswith("d:"):
        a, b = cid[2:].split(":")
        expect(a <= b, f"{name}: the user ids of {cid} are not sorted as strings")
    expect(set(envelope) == {"v", "senderDevice", "nonce", "ciphertext", "commitment", "keys", "signature"},
           f"{name}: envelope fields {sorted(envelope)}")
    expect(envelope["v"] == 1 and type(envelope["v"]) is int, f"{name}: v is not the integer 1")

    # Devices: key signatures, and keys names every device but the sender's.
    devices = f.get("devices")
    if devices is not None:
        for d in devices:
            identity = Ed25519PublicKey.from_public_bytes(b64url(d["identityKey"], 32, "identityKey"))
            encryption = b64url(d["encryptionKey"], 32, "encryptionKey")
            try:
                identity.verify(b64url(d["keySignature"], 64, "keySignature"), encryption)
            except InvalidSignature:
                raise Mismatch(f"{name}: device {d['id']}: keySignature does not verify")
        sender = [d for d in devices if d["id"] == envelope["senderDevice"]]
        expect(len(sender) == 1 and sender[0]["identityKey"] == f["senderIdentityKey"],
               f"{name}: senderDevice is not a listed device with senderIdentityKey")
        expect(sorted(k["device"] for k in envelope["keys"])
               == sorted(d["id"] for d in devices if d["id"] != envelope["senderDevice"]),
               f"{name}: keys does not name exactly the devices other than the sender's")

    # 1. The signature.
    signed = (canonical_json(envelope) + "\n" + cid + "\n" + cmid).encode()
    try:
        Ed25519PublicKey.from_public_bytes(b64url(f["senderIdentityKey"], 32, "senderIdentityKey")).verify(
            b64url(envelope["signature"], 64, "signature"), signed)
    except InvalidSignature:
        raise Mismatch(f"{name}: the signature does not verify over {signed!r}")

    # 2. This device's entry.
    entries = [k for k in envelope["keys"] if k["device"] == f["recipientDeviceId"]]
    expect(len(entries) == 1, f"{name}: no single entry for {f['recipientDeviceId']}")
    entry = entries[0]

    # 3. The content key (HPKE).
    sk_r = X25519PrivateKey.from_private_bytes(b64url(f["recipientPrivateKey"], 32, "recipientPrivateKey"))
    if devices is not None:
        listed = [d for d in devices if d["id"] == f["recipientDeviceId"]]
        pk = sk_r.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        expect(len(listed) == 1 and listed[0]["encryptionKey"] == enc64(pk),
               f"{name}: recipientPrivateKey is not the recipient device's encryption key")
    content_key = hpke_open(sk_r, b64url(entry["enc"], 32, "enc"), ("chirp-v1" + cid).encode(),
                            b64url(entry["wrappedKey"], 48, "wrappedKey"), b"")
    expect(content_key == b64url(f["contentKey"], 32, "contentKey"), f"{name}: unwrapped key != contentKey")

    # 4. The ciphertext.
    plaintext = AESGCM(content_key).decrypt(b64url(envelope["nonce"], 12, "nonce"),
                                           b64url(envelope["ciphertext"], what="ciphertext"),
                                           (cid + "\n" + cmid).encode())
    expect(plaintext == f["plaintext"].encode("utf-8"), f"{name}: plaintext bytes differ")

    # 5. The commitment.
    commitment = std_hmac.new(content_key, plaintext, hashlib.sha256).digest()
    expect(std_hmac.compare_digest(commitment, b64url(envelope["commitment"], 32, "commitment")),
           f"{name}: commitment")

    # 6. The plaintext JSON.
    message = json.loads(plaintext.decode("utf-8"))
    expect(isinstance(message.get("text"), str) and isinstance(message.get("media"), list),
           f"{name}: plaintext is not {{text, media}}")
    for media in message["media"]:
        expect({"id", "key", "nonce", "sha256", "contentType", "byteCount"} <= set(media)
               <= {"id", "key", "nonce", "sha256", "contentType", "name", "byteCount"},
               f"{name}: media entry fields {sorted(media)}")

    # Attachment.
    attachment = f.get("attachment")
    if attachment is not None:
        media = [m for m in message["media"] if m["id"] == attachment["mediaId"]]
        expect(len(media) == 1, f"{name}: no media entry {attachment['mediaId']}")
        media = media[0]
        uploaded = b64url(attachment["uploaded"], what="uploaded")
        expect(hashlib.sha256(uploaded).digest() == b64url(media["sha256"], 32, "sha256"), f"{name}: sha256")
        file = AESGCM(b64url(media["key"], 32, "media key")).decrypt(
            b64url(media["nonce"], 12, "media nonce"), uploaded, None)
        expect(file == b64url(attachment["file"], what="file"), f"{name}: attachment bytes")
        expect(len(file) == media["byteCount"], f"{name}: byteCount")

    # Safety number.
    vector = f.get("safetyNumber")
    if vector is not None:
        first, second = vector["first"], vector["second"]
        if second["username"].encode() < first["username"].encode():
            first, second = second, first
        digits = (safety_digits(first["username"], first["identityKeys"])
                  + safety_digits(second["username"], second["identityKeys"]))
        expect(digits == vector["digits"], f"{name}: safety number {digits} != {vector['digits']}")

    print(f"ok   {name}: signature, key unwrap, ciphertext, commitment, plaintext"
          + (", attachment" if attachment else "") + (", safety number" if vector else "")
          + (", key signatures" if devices else ""))


def main(arguments):
    paths = [pathlib.Path(a) for a in arguments]
    if not paths:
        paths = [HERE / "swift-sealed.json"]
        if (HERE / "web-sealed.json").exists():
            paths.append(HERE / "web-sealed.json")
    failed = False
    try:
        check_rfc_vectors()
    except Exception as error:  # noqa: BLE001 - every failure is a mismatch here
        print(f"FAIL RFC 9180 test vectors: {type(error).__name__}: {error}")
        failed = True
    for path in paths:
        try:
            check_fixture(path)
        except Exception as error:  # noqa: BLE001
            print(f"FAIL {path.name}: {type(error).__name__}: {error}")
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
