// What a message's delivery state and a tombstone are, once for the web client (the Swift
// side has them once too, in ChirpModels: `DeliveryState` and `Tombstonable`).

/** Where an outgoing message stands (`sending` is the kit's `pending`); it only ever moves
 * forward (failed → sending by retry). Incoming messages are `received`. */
const RANK = { failed: 0, sending: 1, sent: 2, delivered: 3, read: 4, received: 5 };
export const advanced = (old, next) => (!old || (old === 'failed' && next === 'sending') || RANK[next] > RANK[old] ? next : old);

/** Whether `m` is a tombstone already, and one the operators made when `removed`: making it
 * one again changes nothing. */
export const isTombstone = (m, removed = false) => m.deleted && (m.removedByOperators || !removed);

/** A message as unsent (or, `removed`, taken down by the operators): it keeps its place, its
 * sender and its time, nothing of its content. The operators' mark stays once set. */
export const tombstone = (m, removed = false) => (isTombstone(m, removed) ? m
  : { ...m, text: '', media: [], reactions: [], deleted: true, removedByOperators: removed || !!m.removedByOperators });

/** What an unsent message shows instead of its text. */
export const UNSENT_NOTE = 'message unsent';

/** What tombstone `m` shows instead of its text: the operators' mark for a take-down. */
export const tombstoneNote = (m) => (m.removedByOperators ? 'removed by the operators' : UNSENT_NOTE);

/** What a message of an encrypted conversation that was not opened shows instead of its text
 * (never any of it); null for one that was, or that is not encrypted. */
export function sealedNote(m) {
  switch (m.sealed) {
    case 'unverifiable': return 'This message could not be verified.';
    case 'not-sealed': return 'Sent before this device was added: it cannot be read here.';
    case 'pending': return 'Encrypted message: it shows once this device can open it.';
    default: return null;
  }
}
