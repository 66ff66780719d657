// Log in / create account.
import { h, field } from './dom.js';

export function loginView({ onSignIn }) {
  const username = h('input', { autocomplete: 'username', autocapitalize: 'none', spellcheck: false, required: true, maxlength: 15 });
  const password = h('input', { type: 'password', autocomplete: 'current-password', required: true });
  const submit = (create) => (event) => {
    event.preventDefault();
    onSignIn(username.value.trim(), password.value, create);
  };
  const form = h('form', { class: 'card', onsubmit: submit(false) },
    h('h1', { tabindex: -1 }, 'Chirp'),
    field('Username', username), field('Password', password),
    h('div', { class: 'row' },
      h('button', { type: 'submit' }, 'Log in'),
      h('button', { type: 'button', class: 'secondary', onclick: submit(true) }, 'Create account')));
  return { el: form, focus: () => username.focus() };
}
