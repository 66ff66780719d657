// A small element builder: h('button', {type: 'submit', onclick}, 'Send').

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on')) el.addEventListener(name.slice(2), value);
    else if (name === 'class') el.className = value;
    else if (name in el && typeof value !== 'string') el[name] = value;
    else el.setAttribute(name, value === true ? '' : value);
  }
  el.append(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  return el;
}

/** A labelled field: the label names the control (`for`/`id`). */
export function field(label, control) {
  control.id ||= 'f-' + label.toLowerCase().replace(/[^a-z]+/g, '-');
  return h('div', { class: 'field' }, h('label', { for: control.id }, label), control);
}

export const time = (iso) => new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
