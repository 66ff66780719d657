// How a conversation's log groups its rows: a date line where a day begins ("Today",
// "Yesterday", then the date) and a sender's consecutive messages as one run (the name and
// avatar once, for messages less than five minutes apart on the same day).
const RUN_MS = 5 * 60 * 1000;
const dayOf = (date) => new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime();

/** "Today", "Yesterday", the weekday within a week, else the date (with the year when not this one). */
export function dayLabel(iso, now = new Date()) {
  const date = new Date(iso);
  const days = Math.round((dayOf(now) - dayOf(date)) / 86400000);
  if (days === 0) return 'Today';
  if (days === 1) return 'Yesterday';
  return date.toLocaleDateString([], {
    weekday: days > 1 && days < 7 ? 'long' : undefined, day: 'numeric', month: 'long',
    year: date.getFullYear() === now.getFullYear() ? undefined : 'numeric',
  });
}

/** Where the row `m` stands after `prev` (a message, the gap marker or nothing): `day`, the
 * label of the day it begins (or null), and `continued`, whether it goes on its sender's run;
 * `key` tells the two apart for the list's cache. */
export function runOf(m, prev) {
  if (m.gap || !m.createdAt) return { day: null, continued: false, key: '' };
  const message = prev && !prev.gap && prev.createdAt ? prev : null;
  const sameDay = message && dayOf(new Date(message.createdAt)) === dayOf(new Date(m.createdAt));
  const day = sameDay ? null : dayLabel(m.createdAt);
  const continued = !!sameDay && message.sender?.toLowerCase() === m.sender?.toLowerCase()
    && Date.parse(m.createdAt) - Date.parse(message.createdAt) < RUN_MS;
  return { day, continued, key: `${day || ''}|${continued ? 1 : 0}` };
}
