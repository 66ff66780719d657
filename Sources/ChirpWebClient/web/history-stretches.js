// Which stretches of a conversation's server history this browser holds whole, as the Swift
// kit's HistoryStretches does, by the same rules: inside a stretch (server ids low..high, low 0
// when it starts at the conversation's first message) every message is stored; between
// stretches lies a gap never read here. A page read from the server is whole by itself (one
// read `before` a stored message reaches up to it; one that came back short reaches the
// first message); a message from the event stream joins the one the stream brought before it
// (`eventEdge`: the stream is gap-free and applied in order). Nothing else joins: a newest page
// read after time away leaves a gap below it. Values are never changed in place.

/** No history known. */
export const emptyHistory = () => ({ stretches: [], eventEdge: null });

/** `history` with `low..high` added, joined to every stretch it overlaps or touches. */
function inserted(history, low, high) {
  if (low > high) return history;
  let joined = { low, high };
  const kept = [];
  for (const s of history.stretches) {
    if (s.high + 1 < joined.low || joined.high + 1 < s.low) kept.push(s);
    else joined = { low: Math.min(s.low, joined.low), high: Math.max(s.high, joined.high) };
  }
  kept.push(joined);
  kept.sort((a, b) => a.low - b.low);
  return { ...history, stretches: kept };
}

/** A page of server `ids` read at `bound` (`{}` the newest, `{before: id}` or `{after: id}`)
 * with `limit`: a page shorter than `limit` says the server had no more that way. */
export function addPage(history, ids, bound, limit) {
  const short = ids.length < limit;
  const low = Math.min(...ids);
  const high = Math.max(...ids);
  if (bound.before != null) return inserted(history, short ? 0 : (ids.length ? low : 0), Number(bound.before) - 1);
  if (!ids.length) return history;
  if (bound.after != null) return inserted(history, Number(bound.after) + 1, high);
  return inserted(history, short ? 0 : low, high);
}

/** A message applied from the event stream: it joins the one the stream brought before it. */
export function addStreamed(history, id) {
  const edge = history.eventEdge;
  const next = edge != null && edge < id ? inserted(history, edge, id) : inserted(history, id, id);
  return { ...next, eventEdge: Math.max(edge ?? id, id) };
}

/** The newest stretch (the one a conversation opens at), or null. */
export const newest = (history) => (history?.stretches.length ? history.stretches[history.stretches.length - 1] : null);

/** Whether a stretch starts at the conversation's first message. */
export const reachesFirst = (stretch) => stretch.low === 0;
