import { describe, expect, it } from 'vitest';
import { chatEntryAt, chatLinkWithSettings, fillChatTemplate } from './chat-links';

describe('chat links', () => {
  const chats = [
    { 'ChatGPT Next Web': 'https://chat.test/#/?settings={"key":"{key}","url":"{address}"}' },
    { Lobe: 'https://lobe.test/?k={key}' },
  ];

  it('picks the configured entry by index', () => {
    expect(chatEntryAt(chats, 1)).toEqual({ entry: { name: 'Lobe', url: 'https://lobe.test/?k={key}' } });
    expect(chatEntryAt(JSON.stringify(chats), 0)).toMatchObject({ entry: { name: 'ChatGPT Next Web' } });
  });

  it('reports a missing list, a bad index and unparseable data', () => {
    expect(chatEntryAt([], 0)).toEqual({ error: 'missing' });
    expect(chatEntryAt(chats, 5)).toEqual({ error: 'invalid' });
    expect(chatEntryAt(chats, Number.NaN)).toEqual({ error: 'invalid' });
    expect(chatEntryAt('{not json', 0)).toEqual({ error: 'invalid' });
  });

  it('fills the key and the encoded server address', () => {
    expect(fillChatTemplate('https://c.test/?k={key}&u={address}', 'sk-abc', 'https://api.test')).toBe(
      'https://c.test/?k=sk-abc&u=https%3A%2F%2Fapi.test',
    );
  });

  it('builds the settings link of the chat link', () => {
    expect(chatLinkWithSettings('https://chat.test/', 'sk-abc', 'https://api.test')).toBe(
      `https://chat.test/#/?settings=${encodeURIComponent('{"key":"sk-abc","url":"https://api.test"}')}`,
    );
  });
});
