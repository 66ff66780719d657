// The safety number of an encrypted direct conversation (encryption.js, safety-number.js):
// 60 digits made from both people's identity keys, the same on both sides. Compared in
// person or over a call they trust, they show that no one slipped a device into the
// conversation. Loaded when first asked for.
import { h } from './dom.js';

/** A panel for the conversation with `peer`; `onClose` when Close (or Escape) closes it. */
export function safetyPanel(session, peer, onClose) {
  const heading = h('h2', { id: 'safety-heading', tabindex: -1 }, `Safety number with ${peer}`);
  const digits = h('p', { class: 'safety-number', 'aria-live': 'polite' }, 'Working it out…');
  const el = h('section', { class: 'card safety', 'aria-labelledby': 'safety-heading',
    onkeydown: (event) => { if (event.key === 'Escape') { event.stopPropagation(); onClose(); } } },
  heading, digits,
  h('p', { class: 'hint' }, `Compare these digits with the ones ${peer} sees, in person or on a call you trust. If they match, only your devices and theirs can read this conversation. They change when either of you adds or removes a device.`),
  h('button', { type: 'button', class: 'small secondary', onclick: () => onClose() }, 'Close'));

  /** Works the number out again (the devices may have changed since). */
  async function show() {
    digits.textContent = 'Working it out…';
    try {
      // Twelve groups of five, four to a line (the spaces between them stay in the text).
      const groups = (await (await session.encryption()).safetyNumber(peer)).split(' ');
      digits.replaceChildren(...groups.flatMap((g, i) => (i ? [' ', h('span', {}, g)] : [h('span', {}, g)])));
    } catch (error) {
      digits.textContent = 'The safety number cannot be worked out now.';
      session.fail(error, { user: peer });
    }
  }
  return { el, show, focus: () => heading.focus() };
}
