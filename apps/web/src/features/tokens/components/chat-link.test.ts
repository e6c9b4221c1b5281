import { describe, expect, it } from 'vitest';
import { buildChatUrl, chatTargets } from './chat-link';

describe('chat link', () => {
  it('puts key and server address into the chat_link settings fragment', () => {
    const result = buildChatUrl(
      { name: 'Next', url: 'https://chat.example.com/' },
      'sk-abc',
      'https://gw.example.com/',
    );
    expect(result).toEqual({
      url: `https://chat.example.com/#/?settings=${encodeURIComponent('{"key":"sk-abc","url":"https://gw.example.com"}')}`,
    });
  });

  it('fills {key} and {address} placeholders of a chats entry', () => {
    const result = buildChatUrl(
      { name: 'Cat', url: 'opencat://team/join?token={key}&domain={address}' },
      'sk-1',
      'http://h',
    );
    expect(result).toEqual({ url: 'opencat://team/join?token=sk-1&domain=http%3A%2F%2Fh' });
  });

  it('reports a configuration that is not a usable URL', () => {
    expect(buildChatUrl({ name: 'Bad', url: 'not a url {key}' }, 'sk-1', 'http://h')).toEqual({
      error: 'invalid',
    });
    expect(buildChatUrl({ name: 'Js', url: 'javascript:alert({key})' }, 'sk-1', 'http://h')).toEqual({
      error: 'invalid',
    });
  });

  it('lists chat_link first, then the chats, and flags unparseable chats', () => {
    expect(
      chatTargets({ chat_link: 'https://a', chats: [{ B: 'https://b' }] }).targets.map((t) => t.url),
    ).toEqual(['https://a', 'https://b']);
    expect(chatTargets({}).targets).toEqual([]);
    expect(chatTargets({ chats: '{oops' }).invalid).toBe(true);
  });
});
