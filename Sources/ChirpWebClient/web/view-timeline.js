// The timeline: compose (a live count to 280), post, refresh, and the tweets as articles. Its
// calls live here, out of the first load.
import { h, field, time } from './dom.js';
import { ApiError, newClientId } from './api.js';

const MAX_TWEET = 280;

/** Reads the timeline into the store (and this browser's database); false on failure. */
async function refreshTimeline(session) {
  try {
    const page = await session.api.timeline();
    await session.db.put('values', page.items, 'timeline');
    session.dispatch({ type: 'timeline', items: page.items });
    return true;
  } catch (error) { session.fail(error); return false; }
}

/** Posts a tweet; false (with the banner) when it cannot be. */
async function postTweet(session, text) {
  const trimmed = text.trim();
  if ([...trimmed].length > MAX_TWEET) { session.fail(new ApiError(422, 'too_long', ''), { limit: MAX_TWEET }); return false; }
  try {
    const tweet = await session.api.tweet(newClientId(), trimmed);
    session.dispatch({ type: 'tweet', tweet });
    return true;
  } catch (error) { session.fail(error); return false; }
}

export function timelineView(session) {
  const text = h('textarea', { rows: 3, 'aria-describedby': 'tweet-count' });
  const count = h('p', { id: 'tweet-count', class: 'count', 'aria-live': 'polite' }, `0/${MAX_TWEET}`);
  const post = h('button', { type: 'submit' }, 'Post');
  const feed = h('div', { class: 'feed', 'aria-label': 'Tweets' });
  const counted = () => {
    const n = [...text.value.trim()].length;
    count.textContent = `${n}/${MAX_TWEET}`;
    count.classList.toggle('over', n > MAX_TWEET);
  };
  text.addEventListener('input', counted);
  const el = h('section', { class: 'screen' },
    h('div', { class: 'bar' }, h('h1', { tabindex: -1 }, 'Timeline'),
      h('button', { type: 'button', class: 'secondary', onclick: () => refreshTimeline(session) }, 'Refresh')),
    h('form', { class: 'card', onsubmit: async (event) => {
      event.preventDefault();
      if (!text.value.trim()) return;
      post.disabled = true;
      if (await postTweet(session, text.value)) { text.value = ''; counted(); }
      post.disabled = false;
    } }, field("What's happening?", text), h('div', { class: 'row' }, count, post)),
    feed);

  function update(state) {
    if (feed.tweets === state.timeline) return;
    feed.tweets = state.timeline;
    feed.replaceChildren(...state.timeline.map((t) => h('article', { role: 'article', class: 'tweet', 'aria-label': `${t.author.username}: ${t.text.slice(0, 40)}` },
      h('p', { class: 'meta' }, h('strong', {}, t.author.displayName || t.author.username), ` @${t.author.username} · `, h('time', { datetime: t.createdAt }, time(t.createdAt))),
      h('p', { class: 'text' }, t.text))));
    if (!state.timeline.length) feed.append(h('p', { class: 'empty' }, 'Nothing here yet. Post something, or follow people.'));
  }
  refreshTimeline(session);
  return { el, update, focus: () => text.focus() };
}
