// Search in encrypted conversations, on this device: the server cannot read them (its search
// skips them), so the opened copies kept in the local database are searched here, by the
// server's rule (every word, in any case), newest first.
import { byId } from './store.js';

const MOST = 200;

/** My opened messages of encrypted conversations (local messages) holding every word of `query`. */
export async function searchOpened(session, query) {
  const words = query.toLocaleLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return [];
  const all = await session.db.all('messages');
  return all.filter((m) => m.sealed === 'opened' && !m.deleted && m.id && !m.fromBlocked
    && words.every((w) => m.text.toLocaleLowerCase().includes(w))).sort((a, b) => byId(b, a)).slice(0, MOST);
}
