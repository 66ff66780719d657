// A new group (loaded when first opened): its title, and its members picked from the people I
// may message (my followers and the people I write to, each a checkbox named by username), or
// typed by username. Creating it opens the group's conversation.
import { h, field } from './dom.js';
import { candidates, createGroup, groupKey } from './groups.js';

export function newGroupView(session, navigate) {
  const title = h('input', { required: true, maxlength: 80 });
  const others = h('input', { autocapitalize: 'none', spellcheck: false, 'aria-describedby': 'other-members-hint' });
  const people = h('fieldset', { class: 'people' });
  const picked = new Set();
  let shown = null;

  const el = h('form', { class: 'screen card', onsubmit: async (event) => {
    event.preventDefault();
    const name = title.value.trim();
    const typed = others.value.split(/[\s,]+/).map((u) => u.replace(/^@/, '')).filter(Boolean);
    const members = [...new Set([...picked, ...typed].map((u) => u.toLowerCase()))];
    if (!name) { session.dispatch({ type: 'banner', banner: 'Give the group a title.' }); return; }
    if (!members.length) { session.dispatch({ type: 'banner', banner: 'Pick at least one member.' }); return; }
    const group = await createGroup(session, name, members);
    if (group) navigate(`#/c/${encodeURIComponent(groupKey(group.id))}`);
  } },
  h('h1', { tabindex: -1 }, 'New group'), field('Group title', title), people,
  field('Other members', others),
  h('p', { id: 'other-members-hint', class: 'hint' }, 'Usernames, separated by commas or spaces.'),
  h('button', { type: 'submit' }, 'Create group'));

  function update(state) {
    if (shown && state.followers === shown.followers && state.conversations === shown.conversations) return;
    shown = state;
    const names = candidates(state);
    people.replaceChildren(h('legend', {}, 'Members'), ...names.map((name) => {
      const box = h('input', { type: 'checkbox', id: `member-${name}`, checked: picked.has(name),
        onchange: () => { if (box.checked) picked.add(name); else picked.delete(name); } });
      return h('div', { class: 'field check' }, box, h('label', { for: box.id }, name));
    }));
    if (!names.length) people.append(h('p', { class: 'hint' }, 'No one to pick yet: type usernames below.'));
  }
  session.refresh();
  return { el, update, focus: () => title.focus() };
}
