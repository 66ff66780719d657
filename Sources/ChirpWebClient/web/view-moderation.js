// Moderation, for the server's operators (the link shows only for them): the server's figures,
// the reports queue (open or resolved, each with the reported message as it was), resolving a
// report with an action, suspending and unsuspending an account, and the audit log.
import { h, field } from './dom.js';

const ACTIONS = [['none', 'no action'], ['suspend', 'suspend'], ['remove-message', 'remove message']];

export function moderationView(session) {
  let status = 'open';
  const figures = h('p', { class: 'meta', 'aria-live': 'polite' });
  const reports = h('ul', { class: 'list', 'aria-label': 'Reports' });
  const audit = h('ul', { class: 'list', 'aria-label': 'Audit log' });
  const account = h('input', { autocapitalize: 'none', spellcheck: false, maxlength: 15 });
  const tabs = ['open', 'resolved'].map((which) => h('button', {
    type: 'button', class: 'secondary small', 'aria-label': `${which === 'open' ? 'Open' : 'Resolved'} reports`,
    onclick: () => { status = which; load(); },
  }, which === 'open' ? 'Open' : 'Resolved'));

  const act = async (work, done) => {
    try { await work(); session.dispatch({ type: 'banner', banner: done }); await load(); } catch (error) { session.fail(error); }
  };

  function reportRow(r) {
    const about = r.message
      ? h('blockquote', {}, `${r.message.sender}: ${r.message.text || '(attachments only)'}`)
      : h('p', { class: 'meta' }, 'About the account, no message.');
    const resolution = r.status === 'resolved'
      ? h('p', { class: 'meta' }, `Resolved (${r.action}) by ${r.resolvedBy} on ${new Date(r.resolvedAt).toLocaleString()}`)
      : h('div', { class: 'row', role: 'group', 'aria-label': `Resolve report ${r.id}` },
        ...ACTIONS.filter(([action]) => action !== 'remove-message' || r.message).map(([action, label]) => h('button', {
          type: 'button', class: action === 'none' ? 'secondary small' : 'small', 'aria-label': `Resolve report ${r.id}: ${label}`,
          onclick: () => act(() => session.api.resolveReport(r.id, action), `Report ${r.id} resolved.`),
        }, label)));
    return h('li', { class: 'card' },
      h('p', {}, `#${r.id} ${r.reporter} reported ${r.reported}${r.reportedSuspended ? ' (suspended)' : ''} for ${r.reason}`,
        h('span', { class: 'meta' }, ` · ${new Date(r.createdAt).toLocaleString()}`)),
      r.note ? h('p', {}, `Note: ${r.note}`) : null, about, resolution);
  }

  async function load() {
    tabs.forEach((tab, index) => tab.setAttribute('aria-pressed', String((index === 0) === (status === 'open'))));
    try {
      const [queue, log, stats] = await Promise.all([session.api.adminReports(status), session.api.adminAudit(), session.api.adminStats()]);
      reports.replaceChildren(...(queue.items.length ? queue.items.map(reportRow) : [h('li', {}, `No ${status} reports.`)]));
      audit.replaceChildren(...log.items.map((e) => h('li', {},
        `${new Date(e.createdAt).toLocaleString()} · ${e.operator ?? 'command line'} · ${e.action} ${e.target}${e.detail ? ` (${e.detail})` : ''}`)));
      figures.textContent = `${stats.users} users (${stats.suspendedUsers} suspended) · ${stats.messages} messages · ${stats.openReports} open reports · `
        + `database ${(stats.storageBytes / 1048576).toFixed(1)} MB · media ${(stats.mediaBytes / 1048576).toFixed(1)} MB`;
    } catch (error) { session.fail(error); }
  }

  const suspension = (on) => (event) => {
    event.preventDefault();
    const name = account.value.trim();
    if (name) act(() => session.api.suspend(name, on), `${name} is ${on ? 'suspended' : 'no longer suspended'}.`);
  };
  const el = h('section', { class: 'screen' },
    h('h1', { tabindex: -1 }, 'Moderation'), figures,
    h('h2', {}, 'Reports'), h('div', { class: 'row', role: 'group', 'aria-label': 'Which reports' }, ...tabs), reports,
    h('form', { class: 'card', onsubmit: suspension(true) }, h('h2', {}, 'Suspend an account'), field('Account', account),
      h('div', { class: 'row' }, h('button', { type: 'submit' }, 'Suspend'),
        h('button', { type: 'button', class: 'secondary', onclick: suspension(false) }, 'Unsuspend'))),
    h('h2', {}, 'Audit log'), audit);
  load();
  return { el, update() {} };
}
