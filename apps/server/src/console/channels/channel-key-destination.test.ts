import { describe, expect, it } from 'vitest';
import type { ChannelRow } from '../../db/repositories/channel-repository.ts';
import { changedDestinationFields } from './channel-key-destination.ts';

const current = {
  type: 1,
  base_url: 'https://api.example.com',
  other: 'us-central1',
  setting: '{"proxy":"http://proxy.example:8080","force_format":true}',
} as ChannelRow;

describe('changedDestinationFields', () => {
  it('finds nothing when the destination fields are absent or equal', () => {
    expect(changedDestinationFields({}, current)).toEqual([]);
    expect(
      changedDestinationFields(
        {
          type: 1,
          base_url: 'https://api.example.com',
          other: 'us-central1',
          setting: '{"force_format":false,"proxy":"http://proxy.example:8080"}',
          name: 'renamed',
          models: 'gpt-4o',
        },
        current,
      ),
    ).toEqual([]);
  });

  it('names every changed destination field', () => {
    expect(
      changedDestinationFields(
        { type: 3, base_url: 'https://evil.example', other: 'europe-west4', setting: '{}' },
        current,
      ),
    ).toEqual(['type', 'base_url', 'other', 'proxy']);
    expect(changedDestinationFields({ base_url: '' }, current)).toEqual(['base_url']);
    expect(changedDestinationFields({ setting: '{"proxy":"socks5://me:1080"}' }, current)).toEqual(['proxy']);
  });

  it('treats an unset column and an empty value alike', () => {
    const bare = { type: 1, base_url: null, other: null, setting: null } as unknown as ChannelRow;
    expect(changedDestinationFields({ base_url: '', other: '', setting: '' }, bare)).toEqual([]);
  });
});
