// Turns a failure into a sentence that says what happened and what to do about it.

export const UNREACHABLE = "Can't reach the server. Check your connection; messages you send wait here and go out when it is back.";

export function explain(error, context = {}) {
  switch (error.code) {
    case 'unreachable': return UNREACHABLE;
    case 'unavailable': return 'The server is busy. Wait a moment and try again.';
    case 'invalid_credentials': return 'Wrong username or password. Check both and try again, or create an account.';
    case 'username_taken': return 'That username is taken. Choose another one.';
    case 'dm_not_allowed': return `You can't message ${context.peer || 'this user'} yet: they must follow you or write to you first. Choose someone else, or ask them to follow you.`;
    case 'not_found': return context.user ? `There is no user named ${context.user}. Check the spelling and try again.` : 'That no longer exists. Go back and try again.';
    case 'too_long': return `Too long: at most ${context.limit.toLocaleString('en')} characters. Shorten it and send again.`;
    case 'rate_limited': return 'Too many attempts in a short time. Wait a few minutes and try again.';
    default:
      if (error.status === 401) return 'Your session has ended. Log in again.';
      return `${error.message || 'Something went wrong.'} Fix it and try again.`;
  }
}
