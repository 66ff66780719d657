// A virtual list for a conversation's log: only the rows in or near the viewport are in the
// DOM (a 10,000-message conversation keeps a few dozen nodes). Row heights are measured once
// rendered and estimated before; two spacers stand for the rows outside the window. A row is
// drawn from its message and from `around(row, previous row)` (its place in a run, a date line
// above it: message-runs.js), and drawn again when either changes.

const ESTIMATE = 60;
const OVERSCAN = 600;

export class MessageList {
  constructor(el, renderRow, onNearTop, around = () => ({ key: '' })) {
    Object.assign(this, { el, renderRow, onNearTop, around });
    this.rows = [];
    this.heights = new Map();
    this.top = document.createElement('div');
    this.bottom = document.createElement('div');
    this.window = document.createElement('div');
    el.append(this.top, this.window, this.bottom);
    el.addEventListener('scroll', () => this.schedule(true));
    new ResizeObserver(() => this.schedule(false)).observe(el);
  }

  height(row) { return this.heights.get(row.key) ?? ESTIMATE; }
  atBottom() { return this.el.scrollHeight - this.el.scrollTop - this.el.clientHeight < 40; }

  /** Replaces the rows; keeps the view at the bottom if it was, or on the same rows. */
  set(rows) {
    const stick = this.rows.length === 0 || this.atBottom();
    // Rows read into the gap above keep the view on the same messages: the first message row
    // (below the gap marker, if any) is where it was.
    const anchorAt = this.rows.findIndex((r) => !r.gap);
    const anchor = this.rows[anchorAt]?.key;
    const at = anchor ? rows.findIndex((r) => r.key === anchor) : -1;
    let shift = 0;
    for (let i = 0; i < at; i++) shift += this.height(rows[i]);
    for (let i = 0; i < anchorAt && at > 0; i++) shift -= this.height(this.rows[i]);
    this.rows = rows;
    this.render();
    if (stick) this.el.scrollTop = this.el.scrollHeight;
    else if (shift) this.el.scrollTop += shift;
    this.render();
    if (stick) this.el.scrollTop = this.el.scrollHeight;
    // A gap marker in view is read at once, as if scrolled to.
    if (rows[0]?.gap && this.el.scrollTop < 300) this.onNearTop();
  }

  /** Draws the row `key` again (what is open on it changed, not its message). */
  redraw(key) { this.nodes?.delete(key); this.render(); }

  /** Scrolls so that the row `key` is a third of the way down; false when it is not a row. */
  scrollTo(key) {
    const at = this.rows.findIndex((r) => r.key === key);
    if (at < 0) return false;
    for (let pass = 0; pass < 2; pass++) { // the second with the heights the first measured
      let offset = 0;
      for (let i = 0; i < at; i++) offset += this.height(this.rows[i]);
      this.el.scrollTop = Math.max(0, offset - this.el.clientHeight / 3);
      this.render();
    }
    return true;
  }

  /** Renders on the next frame; after the user scrolled near the top, asks for older rows. */
  schedule(scrolled) {
    this.scrolled ||= scrolled;
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = null;
      const stick = !this.scrolled && this.atBottom();
      this.render();
      if (stick) this.el.scrollTop = this.el.scrollHeight;
      if (this.scrolled && this.el.scrollTop < 300 && this.rows.length) this.onNearTop();
      this.scrolled = false;
    });
  }

  render() {
    const { scrollTop, clientHeight } = this.el;
    let offset = 0, first = 0;
    while (first < this.rows.length && offset + this.height(this.rows[first]) < scrollTop - OVERSCAN) offset += this.height(this.rows[first++]);
    let last = first, end = offset;
    while (last < this.rows.length && end < scrollTop + clientHeight + OVERSCAN) end += this.height(this.rows[last++]);
    let rest = 0;
    for (let i = last; i < this.rows.length; i++) rest += this.height(this.rows[i]);
    this.top.style.height = `${offset}px`;
    this.bottom.style.height = `${rest}px`;
    const cache = new Map();
    const nodes = this.rows.slice(first, last).map((row, i) => {
      const around = this.around(row, this.rows[first + i - 1]);
      const known = this.nodes?.get(row.key);
      const node = known && known.row === row && known.around.key === around.key ? known.node : this.renderRow(row, around);
      node.dataset.key = row.key;
      cache.set(row.key, { row, node, around });
      return node;
    });
    const current = this.window.children;
    if (nodes.length !== current.length || nodes.some((n, i) => current[i] !== n)) this.window.replaceChildren(...nodes);
    this.nodes = cache;
    for (const node of this.window.children) {
      const h = node.getBoundingClientRect().height;
      if (h) this.heights.set(node.dataset.key, h);
    }
  }
}
