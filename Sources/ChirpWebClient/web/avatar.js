// Initials avatars: a user's (or a group's) initials on a colour of its own, the same wherever
// it shows (its hue is a hash of the name; style.css sets the lightness of each theme so that
// the initials keep their contrast).
import { h } from './dom.js';

/** A stable hue (0-359) for `name`. */
export function hue(name) {
  let hash = 0;
  for (const ch of name.toLowerCase()) hash = (hash * 31 + ch.codePointAt(0)) >>> 0;
  return hash % 360;
}

/** One or two letters: the first of each of the first two words of `name`. */
export function initials(name) {
  const words = name.split(/[\s._-]+/).filter(Boolean);
  return words.slice(0, 2).map((w) => [...w][0]).join('').toUpperCase() || '?';
}

/** The avatar of `name`, hidden from assistive technology (the name is beside it). */
export function avatar(name) {
  const el = h('span', { class: 'avatar', 'aria-hidden': 'true' }, initials(name));
  el.style.setProperty('--hue', String(hue(name)));
  return el;
}
