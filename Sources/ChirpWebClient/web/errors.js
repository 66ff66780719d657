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
    case 'too_many_files': return 'At most 4 attachments in one message. Remove some and send again.';
    case 'media_too_large': return `${context.name || 'That file'} is too large: at most 25 MB a file. Choose a smaller one.`;
    case 'quota_exceeded': return 'Your storage for attachments is full. Unsend old messages with attachments, or send this without one.';
    case 'media_type_mismatch': return "A file's contents do not match its type (an image that is not one?). Attach it again, or another file.";
    case 'invalid_media': return `${error.message || 'An attachment cannot be sent.'} Remove it and send again.`;
    case 'invalid_reply': return 'The message you answered is not in this conversation any more. Send it without the reply.';
    case 'edit_window_closed': return 'Messages can be edited for 15 minutes after sending. Send a new message instead.';
    case 'not_sender': return 'Only your own messages can be edited or unsent.';
    case 'message_deleted': return 'That message was unsent, so it cannot be changed.';
    case 'invalid_reaction': return 'That reaction cannot be used. Choose one of the offered emoji.';
    case 'account_deleted': return 'This account was deleted. You can read the conversation, but nothing can be sent to it.';
    case 'account_suspended': return "This account is suspended by the server's operators. Ask them why.";
    case 'not_operator': return "Only the server's operators can do this.";
    case 'report_resolved': return 'Another operator resolved that report already. Reload the queue.';
    case 'too_many_pinned': return 'At most 10 conversations can be pinned. Unpin one first.';
    case 'rate_limited': return 'Too many attempts in a short time. Wait a few minutes and try again.';
    // Encrypted conversations (API.md part 4).
    case 'no_devices': return `${context.user || 'Someone in this conversation'} has no device that can read encrypted messages yet, so encryption stays off. Ask them to sign in again on the web or in an up-to-date app, then turn it on.`;
    case 'not_admin': return "Only the group's admins can do that.";
    case 'devices_changed': return 'The devices in this conversation kept changing while it was being sent. Retry in a moment.';
    case 'device_unverified': return `A device of ${error.field || 'a member'} does not prove its keys, so nothing was sealed to it and the message was not sent. Compare safety numbers, then retry.`;
    case 'encryption_unsupported': return 'This browser cannot encrypt messages (it lacks X25519 and Ed25519). Use an up-to-date browser for encrypted conversations.';
    case 'too_many_devices': return 'You are signed in on 20 devices, the most that can read encrypted conversations. End a session you no longer use in Settings, then reload.';
    case 'media_unverifiable': return 'This attachment could not be verified, so it is not shown.';
    default:
      if (error.status === 401) return 'Your session has ended. Log in again.';
      return `${error.message || 'Something went wrong.'} Fix it and try again.`;
  }
}
