// The page side of Tests/Browser/test_web_crypto.py: each function runs the web client's
// cryptography modules (served at /web/) and answers plain JSON (bytes as hex or base64url)
// for the Python test to check, often against its own computation.
import { encode, decode } from '/web/base64url.js';
import { seal, open, setupSender, setupRecipient, importX25519PrivateKey, exportX25519PrivateKey } from '/web/hpke.js';
import { sealEnvelope, openEnvelope, signingInput, directConversationId, groupConversationId, canonicalJSON } from '/web/envelope.js';
import { encryptAttachment, decryptAttachment } from '/web/attachment-cipher.js';
import { safetyNumber, userDigits } from '/web/safety-number.js';
import {
  createDevice, registration, verifyKeySignature, openingKeys, loadDevice, loadOrCreateDevice, rotateDevice,
  dropRetiredKeys, wipeDeviceKeys, needsRotation, ROTATION_MS,
} from '/web/device-keys.js';

const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
const unhex = (text) => Uint8Array.from(text.match(/../g) || [], (h) => parseInt(h, 16));
const utf8 = (text) => new TextEncoder().encode(text);
const flip = (b64, at = 0) => { const bytes = decode(b64); bytes[at] ^= 1; return encode(bytes); };

/** An X25519 public key (raw) from its private key's raw bytes: exported as a JWK, which
 * carries `x` (test-only: the key must be extractable). */
async function x25519PublicOf(privateRaw) {
  const jwk = await crypto.subtle.exportKey('jwk', await importX25519PrivateKey(privateRaw, true));
  return decode(jwk.x);
}

/** The device as envelope.js recipients name it. */
const recipientOf = (device) => ({ id: device.id, encryptionKey: device.encryption.public });
const openOn = (device, envelope, conversationId, clientMessageId, senderIdentityKey, keys = openingKeys(device)) =>
  openEnvelope({ envelope, conversationId, clientMessageId, deviceId: device.id, encryptionKeys: keys, senderIdentityKey });

/** The RFC 9180 vectors (mode 0, DHKEM(X25519), HKDF-SHA256, AES-GCM): what the sender with
 * the vector's ephemeral key and the recipient compute. */
async function rfcVectors(vectors) {
  const results = [];
  for (const v of vectors) {
    const info = unhex(v.info);
    const ephemeral = { privateKey: await importX25519PrivateKey(unhex(v.skEm)), publicKey: unhex(v.pkEm) };
    const recipient = { privateKey: await importX25519PrivateKey(unhex(v.skRm)), publicKey: unhex(v.pkRm) };
    const options = { aead: v.aead_id, ephemeral, reveal: true };
    const { enc, context } = await setupSender(unhex(v.pkRm), info, options);
    const cts = [];
    for (const e of v.encryptions) cts.push(hex(await context.seal(unhex(e.aad), unhex(e.pt))));
    const receiver = await setupRecipient(recipient, enc, info, { aead: v.aead_id, reveal: true });
    const pts = [];
    for (const e of v.encryptions) pts.push(hex(await receiver.open(unhex(e.aad), unhex(e.ct))));
    const single = await seal(unhex(v.pkRm), info, unhex(v.encryptions[0].aad), unhex(v.encryptions[0].pt), options);
    const singleOpen = await open(recipient, unhex(v.enc), info, unhex(v.encryptions[0].aad), unhex(v.encryptions[0].ct), { aead: v.aead_id });
    let wrongAad = 'opened';
    try { await open(recipient, unhex(v.enc), info, utf8('other'), unhex(v.encryptions[0].ct), { aead: v.aead_id }); } catch (error) { wrongAad = error.name; }
    results.push({
      enc: hex(enc), sharedSecret: hex(context.secrets.sharedSecret), key: hex(context.secrets.key), baseNonce: hex(context.secrets.baseNonce),
      recipientSharedSecret: hex(receiver.secrets.sharedSecret), cts, pts, singleEnc: hex(single.enc), singleCt: hex(single.ct),
      singleOpen: hex(singleOpen), wrongAad,
    });
  }
  return results;
}

/** alice1 seals to alice2 and bob1; bob2 comes later. Every outcome, tampered or not. */
async function envelopes() {
  const [alice1, alice2, bob1, bob2] = await Promise.all([createDevice(), createDevice(), createDevice(), createDevice()]);
  const conversationId = directConversationId(10, 9);
  const clientMessageId = 'c0ffee00c0ffee00c0ffee00c0ffee00';
  const message = { text: 'Meet at 6 — ça va? 🐦', media: [] };
  const sealed = await sealEnvelope({
    plaintext: message, conversationId, clientMessageId, senderDeviceId: alice1.id,
    senderIdentityPrivateKey: alice1.identity.privateKey, recipients: [alice2, bob1].map(recipientOf),
  });
  const e = sealed.envelope;
  const sender = alice1.identity.public;
  const out = { conversationIds: [conversationId, directConversationId('9', '10'), directConversationId(3, 20), groupConversationId(42)] };
  out.shape = { keys: e.keys.map((k) => k.device), expected: [alice2.id, bob1.id], fields: Object.keys(e).sort(), v: e.v };
  out.canonical = canonicalJSON({ b: 1, a: [{ z: 'x', y: '"\\' }], c: 'é' });
  for (const [name, device] of [['alice2', alice2], ['bob1', bob1]]) {
    const r = await openOn(device, e, conversationId, clientMessageId, sender);
    out[name] = { status: r.status, plaintext: r.plaintext, sameBytes: r.bytes && hex(r.bytes) === hex(sealed.bytes), contentKey: r.contentKey === sealed.contentKey };
  }
  out.alice1 = (await openOn(alice1, e, conversationId, clientMessageId, sender)).status;
  out.bob2 = (await openOn(bob2, e, conversationId, clientMessageId, sender)).status;
  out.plaintextString = sealed.plaintext;
  out.senderAmongRecipients = await sealEnvelope({ plaintext: message, conversationId, clientMessageId, senderDeviceId: alice1.id,
    senderIdentityPrivateKey: alice1.identity.privateKey, recipients: [alice1, bob1].map(recipientOf) }).then(() => 'sealed', (error) => error.name);

  /** `changed` (a copy of e), re-signed by alice1 when `resign`, as bob1 opens it. */
  const resigned = async (changed, resign, cid = conversationId, mid = clientMessageId) => {
    if (resign) changed.signature = encode(await crypto.subtle.sign({ name: 'Ed25519' }, alice1.identity.privateKey, signingInput(changed, cid, mid)));
    return changed;
  };
  const copy = () => JSON.parse(JSON.stringify(e));
  const bobOpens = async (changed, cid = conversationId, mid = clientMessageId, key = sender) => openOn(bob1, changed, cid, mid, key);
  const cases = {};
  for (const resign of [false, true]) {
    const tag = resign ? ' re-signed' : '';
    let c = copy(); c.ciphertext = flip(c.ciphertext, 3); cases[`ciphertext${tag}`] = await bobOpens(await resigned(c, resign));
    c = copy(); c.commitment = flip(c.commitment); cases[`commitment${tag}`] = await bobOpens(await resigned(c, resign));
    c = copy(); c.keys[1].wrappedKey = flip(c.keys[1].wrappedKey, 5); cases[`wrappedKey${tag}`] = await bobOpens(await resigned(c, resign));
    c = copy(); c.keys[1].enc = flip(c.keys[1].enc, 7); cases[`enc${tag}`] = await bobOpens(await resigned(c, resign));
    c = copy(); c.nonce = flip(c.nonce); cases[`nonce${tag}`] = await bobOpens(await resigned(c, resign));
    c = copy(); cases[`conversation id${tag}`] = await bobOpens(await resigned(c, resign, 'd:10:8'), 'd:10:8');
    c = copy(); cases[`clientMessageId${tag}`] = await bobOpens(await resigned(c, resign, conversationId, 'c0ffee'), conversationId, 'c0ffee');
  }
  let c = copy(); c.signature = flip(c.signature, 9); cases.signature = await bobOpens(c);
  c = copy(); c.senderDevice = alice2.id; cases.senderDevice = await bobOpens(c);
  cases['another sender key'] = await bobOpens(copy(), conversationId, clientMessageId, alice2.identity.public);
  c = copy(); c.keys[1].wrappedKey = encode(decode(c.keys[1].wrappedKey).slice(1)); cases['short wrappedKey'] = await bobOpens(c);
  c = copy(); c.v = 2; cases['version 2'] = await bobOpens(c);
  c = copy(); c.nonce = `${c.nonce}+`; cases['other alphabet'] = await bobOpens(c);
  c = copy(); c.extra = 'not signed'; out.extraField = (await bobOpens(c)).status;
  for (const [name, bytes] of [['not JSON', utf8('hello')], ['JSON array', utf8('[1]')], ['bad UTF-8', Uint8Array.of(0x22, 0xff, 0x22)]]) {
    const s = await sealEnvelope({ plaintextBytes: bytes, conversationId, clientMessageId, senderDeviceId: alice1.id, senderIdentityPrivateKey: alice1.identity.privateKey, recipients: [recipientOf(bob1)] });
    cases[`plaintext ${name}`] = await bobOpens(s.envelope);
  }
  // A group conversation: the sender's other device and two members.
  const group = groupConversationId(7);
  const g = await sealEnvelope({ plaintext: { text: 'group', media: [] }, conversationId: group, clientMessageId: 'g1', senderDeviceId: bob1.id, senderIdentityPrivateKey: bob1.identity.privateKey, recipients: [bob2, alice1, alice2].map(recipientOf) });
  out.group = await Promise.all([bob2, alice1, alice2].map(async (d) => (await openOn(d, g.envelope, group, 'g1', bob1.identity.public)).plaintext?.text));
  out.cases = Object.fromEntries(Object.entries(cases).map(([k, r]) => [k, r.status === 'opened' ? 'opened' : `${r.status}: ${r.reason}`]));
  return out;
}

/** A device kept in IndexedDB, rotated: older envelopes open until the retired key is dropped. */
async function rotation(username) {
  await wipeDeviceKeys(username);
  const sender = await createDevice();
  const t0 = Date.now();
  const { device: first, created } = await loadOrCreateDevice(username, t0);
  const again = await loadOrCreateDevice(username, t0);
  const conversationId = groupConversationId(5);
  const sealTo = async (device, id) => (await sealEnvelope({ plaintext: { text: id, media: [] }, conversationId, clientMessageId: id,
    senderDeviceId: sender.id, senderIdentityPrivateKey: sender.identity.privateKey, recipients: [recipientOf(device)] })).envelope;
  const opens = async (device, envelope, id, keys) => {
    const r = await openOn(device, envelope, conversationId, id, sender.identity.public, keys);
    return r.status === 'opened' ? r.plaintext.text : `${r.status}: ${r.reason}`;
  };
  const old = await sealTo(first, 'm1');
  const notDue = await rotateDevice(username, { now: t0 + 1000 });
  const rotated = await rotateDevice(username, { now: t0 + ROTATION_MS });
  const registered = await registration(rotated, 'Test browser');
  const newer = await sealTo(rotated, 'm2');
  const reloaded = await loadDevice(username);
  const result = {
    created, sameDevice: again.device.id === first.id && !again.created,
    notDueUnchanged: notDue.encryption.public === first.encryption.public,
    dueBefore: needsRotation(first, t0 + ROTATION_MS), dueAfter: needsRotation(rotated, t0 + ROTATION_MS),
    rotatedKeyChanged: rotated.encryption.public !== first.encryption.public,
    sameIdentity: rotated.identity.public === first.identity.public && rotated.id === first.id,
    retired: reloaded.retired.map((k) => ({ public: k.public === first.encryption.public, retiredAt: k.retiredAt === t0 + ROTATION_MS })),
    registrationVerifies: await verifyKeySignature(registered),
    registrationKey: registered.encryptionKey === rotated.encryption.public,
    forgedVerifies: await verifyKeySignature({ ...registered, encryptionKey: first.encryption.public }),
    oldOpens: await opens(reloaded, old, 'm1'),
    newOpens: await opens(reloaded, newer, 'm2'),
    oldWithCurrentOnly: await opens(reloaded, old, 'm1', openingKeys(reloaded).slice(0, 1)),
  };
  const kept = await dropRetiredKeys(username, t0 + ROTATION_MS); // retired at that time: kept
  const dropped = await dropRetiredKeys(username, t0 + ROTATION_MS + 1);
  const after = await loadDevice(username);
  Object.assign(result, {
    keptCount: kept.retired.length, droppedCount: dropped.retired.length, storedRetired: after.retired.length,
    oldAfterDrop: await opens(after, old, 'm1'), newAfterDrop: await opens(after, newer, 'm2'),
  });
  await wipeDeviceKeys(username);
  result.wiped = (await loadDevice(username)) === null;
  await wipeDeviceKeys(username);
  return result;
}

/** An attachment's round trip; the upload returned for the Python test to check. */
async function attachments() {
  const plain = new Uint8Array(70000);
  for (let at = 0; at < plain.length; at += 65536) crypto.getRandomValues(plain.subarray(at, at + 65536));
  const file = new File([plain], 'photo.png', { type: 'image/png' });
  const { upload, bytes, media } = await encryptAttachment(file);
  media.id = 'm123';
  const back = await decryptAttachment(upload, media);
  const tampered = bytes.slice(); tampered[100] ^= 1;
  const reDigested = { ...media, sha256: encode(await crypto.subtle.digest('SHA-256', tampered)) };
  const otherKey = { ...media, key: encode(crypto.getRandomValues(new Uint8Array(32))) };
  const status = (r) => (r.status === 'opened' ? 'opened' : `${r.status}: ${r.reason}`);
  return {
    media, uploadType: upload.type, uploadSize: upload.size, upload: encode(bytes), plain: encode(plain),
    roundTrip: back.status === 'opened' && hex(back.bytes) === hex(plain) && back.blob.type === 'image/png',
    flippedByte: status(await decryptAttachment(tampered, media)),
    flippedByteWithItsDigest: status(await decryptAttachment(tampered, reDigested)),
    otherKey: status(await decryptAttachment(bytes, otherKey)),
    otherByteCount: status(await decryptAttachment(bytes, { ...media, byteCount: 69999 })),
    fromBytes: (await encryptAttachment(plain.subarray(0, 10), { contentType: 'text/plain' })).media,
  };
}

async function safety(a, b) {
  return {
    ab: await safetyNumber(a, b), ba: await safetyNumber(b, a),
    digitsA: await userDigits(a.username, a.identityKeys), digitsB: await userDigits(b.username, b.identityKeys),
  };
}

/** The stored device of `username` (made now if none): its id and public keys. */
async function storeDevice(username) {
  await wipeDeviceKeys(username);
  const { device: first, created } = await loadOrCreateDevice(username);
  const device = await rotateDevice(username, { force: true }); // a retired key too
  return { created, id: device.id, identity: device.identity.public, encryption: device.encryption.public, retired: first.encryption.public };
}

/** After a reload: the stored device's keys (identity, encryption, retired), their
 * extractability and that they still work. */
async function reloadedDevice(username) {
  const device = await loadDevice(username);
  const privateKeys = [device.identity.privateKey, device.encryption.privateKey, device.retired[0].privateKey];
  const exports = [];
  for (const key of privateKeys) {
    for (const format of ['pkcs8', 'jwk']) {
      try { await crypto.subtle.exportKey(format, key); exports.push('exported'); } catch (error) { exports.push(error.name); }
    }
  }
  const { enc, ct } = await seal(decode(device.encryption.public), utf8('info'), new Uint8Array(0), utf8('secret'));
  const opened = new TextDecoder().decode(await open(openingKeys(device)[0], enc, utf8('info'), new Uint8Array(0), ct));
  const result = {
    id: device.id, identity: device.identity.public, encryption: device.encryption.public, retired: device.retired.map((k) => k.public),
    isCryptoKey: privateKeys.map((k) => k instanceof CryptoKey),
    extractable: privateKeys.map((k) => k.extractable),
    algorithms: privateKeys.map((k) => `${k.algorithm.name} ${k.type} ${k.usages.join(',')}`),
    exports, opened, signs: await verifyKeySignature(await registration(device, 'x')),
  };
  await wipeDeviceKeys(username);
  return result;
}

/** Opens a sealed fixture (web-sealed.json, swift-sealed.json) as its recipient device. */
async function openFixture(f) {
  const privateRaw = decode(f.recipientPrivateKey);
  const keys = [{ privateKey: await importX25519PrivateKey(privateRaw), publicKey: await x25519PublicOf(privateRaw) }];
  const r = await openEnvelope({ envelope: f.envelope, conversationId: f.conversationId, clientMessageId: f.clientMessageId,
    deviceId: f.recipientDeviceId, encryptionKeys: keys, senderIdentityKey: f.senderIdentityKey });
  const sameSender = f.envelope.senderDevice === f.senderDeviceId;
  if (r.status !== 'opened') return { status: r.status, reason: r.reason, sameSender };
  return { status: r.status, sameSender, plaintext: new TextDecoder().decode(r.bytes), parsed: r.plaintext, contentKey: r.contentKey };
}

/** A new web-sealed.json: fixed test-only keys (their private parts exported from extractable
 * keys), alice's device sealing to two of bob's, the fixture's recipient second. */
async function makeFixture() {
  const recipient = await crypto.subtle.generateKey({ name: 'X25519' }, true, ['deriveBits']);
  const sender = await crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify']);
  const other = await createDevice();
  const id = () => encode(crypto.getRandomValues(new Uint8Array(16)));
  const recipientDeviceId = id();
  const senderDeviceId = id();
  const conversationId = directConversationId(10, 9);
  const clientMessageId = '6f1d2c3b4a5968778695a4b3c2d1e0f0';
  const plaintext = {
    text: 'Sealed by the web client: "quoted", \\ back-slashed, ünïcödé, 🐦 and a\nnew line',
    replyTo: '41',
    media: [{ id: '17', key: encode(crypto.getRandomValues(new Uint8Array(32))), nonce: encode(crypto.getRandomValues(new Uint8Array(12))),
      sha256: encode(crypto.getRandomValues(new Uint8Array(32))), contentType: 'image/png', name: 'sunset.png', byteCount: 12345 }],
  };
  const sealed = await sealEnvelope({
    plaintext, conversationId, clientMessageId, senderDeviceId, senderIdentityPrivateKey: sender.privateKey,
    recipients: [recipientOf(other), { id: recipientDeviceId, encryptionKey: encode(await crypto.subtle.exportKey('raw', recipient.publicKey)) }],
  });
  return {
    recipientDeviceId, recipientPrivateKey: encode(await exportX25519PrivateKey(recipient.privateKey)),
    senderDeviceId, senderIdentityKey: encode(await crypto.subtle.exportKey('raw', sender.publicKey)),
    conversationId, clientMessageId, envelope: sealed.envelope, plaintext: sealed.plaintext, contentKey: sealed.contentKey,
  };
}

/** base64url edge cases. */
function base64url() {
  const attempt = (text) => { try { return hex(decode(text)); } catch (error) { return error.name; } };
  const all = Uint8Array.from({ length: 256 }, (_, i) => i);
  return {
    all: encode(all), back: hex(decode(encode(all))) === hex(all),
    lengths: [0, 1, 2, 3, 4, 5].map((n) => encode(all.subarray(250, 250 + n))),
    padded: attempt('_w=='), unpadded: attempt('_w'), plus: attempt('+w'), slash: attempt('/w'), space: attempt('_w '),
    badLength: attempt('abcde'), badPadding: attempt('_w='),
  };
}

window.cryptoTests = { rfcVectors, envelopes, rotation, attachments, safety, storeDevice, reloadedDevice, openFixture, makeFixture, base64url };
