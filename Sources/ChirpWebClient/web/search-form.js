// The search box (on the conversations screen and the results screen): Enter opens the
// results for what was typed.
import { h, field } from './dom.js';

export function searchForm(navigate, value = '') {
  const input = h('input', { maxlength: 200, autocapitalize: 'none', enterkeyhint: 'search', value });
  const form = h('form', { role: 'search', class: 'search', onsubmit: (event) => {
    event.preventDefault();
    const q = input.value.trim();
    if (q) navigate(`#/search/${encodeURIComponent(q)}`);
  } }, field('Search messages', input), h('button', { type: 'submit', class: 'secondary' }, 'Search'));
  return { form, input };
}
