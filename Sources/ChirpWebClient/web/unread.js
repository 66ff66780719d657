// What the unread messages show outside the page: the total (conversations not muted, message
// requests apart) in the title, "(3) Chirp", as a dot with the count on the favicon (drawn on
// a canvas) and on the installed app's badge; and a conversation whose count falls to zero
// (read here, in another tab or on another device) has its notifications closed.
import { conversationRead } from './app-shell.js';

const ICON = '/web/icon-192.png';
let total = -1;
let counts = {};
let image = null;

/** Shows the unread counts of `conversations` (the store's). */
export function showUnread(conversations) {
  const next = {};
  let sum = 0;
  for (const [key, c] of Object.entries(conversations)) {
    next[key] = c.unreadCount || 0;
    if (!c.muted && !c.request) sum += next[key];
    if (!next[key] && counts[key]) conversationRead(key);
  }
  counts = next;
  if (sum === total) return;
  total = sum;
  document.title = sum ? `(${sum}) Chirp` : 'Chirp';
  if ('setAppBadge' in navigator) (sum ? navigator.setAppBadge(sum) : navigator.clearAppBadge()).catch(() => {});
  drawIcon(sum);
}

/** The favicon: the app's icon, with a red dot holding `n` when there is something unread. */
async function drawIcon(n) {
  const link = document.querySelector('link[rel=icon]');
  if (!link) return;
  if (!n) { link.href = ICON; return; }
  image ||= new Promise((resolve) => {
    const img = new Image();
    img.onload = () => resolve(img);
    img.onerror = () => resolve(null);
    img.src = ICON;
  });
  const img = await image;
  if (total !== n) return; // changed again while the icon loaded
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 64;
  const g = canvas.getContext('2d');
  if (img) g.drawImage(img, 0, 0, 64, 64);
  g.fillStyle = '#c62828';
  g.beginPath();
  g.arc(42, 22, 22, 0, 2 * Math.PI);
  g.fill();
  g.fillStyle = '#ffffff';
  g.font = `bold ${n > 9 ? 22 : 30}px sans-serif`;
  g.textAlign = 'center';
  g.textBaseline = 'middle';
  g.fillText(n > 99 ? '99+' : String(n), 42, 24);
  link.href = canvas.toDataURL('image/png');
}
