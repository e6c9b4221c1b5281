import { describe, expect, it } from 'vitest';
import { translateChannelConfig } from './channel-config.ts';

const channel = (type: number, config: string | null, key = 'k', other: string | null = null) => ({
  type,
  config,
  key,
  other,
});

describe('translateChannelConfig', () => {
  it("puts an Azure channel's api_version where the API version is read", () => {
    expect(translateChannelConfig(channel(3, '{"api_version":"2024-06-01"}', 'k', '2023-05-15'))).toEqual({
      other: '2024-06-01',
    });
    expect(translateChannelConfig(channel(3, '{"api_version":"2024-06-01"}', 'k', '2024-06-01'))).toBeNull();
    expect(translateChannelConfig(channel(3, '{}', 'k', '2023-05-15'))).toBeNull();
  });

  it("builds an AWS channel's AK|SK|region key from the config", () => {
    expect(
      translateChannelConfig(channel(33, '{"ak":"AKIA1","sk":"secret","region":"us-east-1"}', 'x')),
    ).toEqual({
      key: 'AKIA1|secret|us-east-1',
    });
    expect(
      translateChannelConfig(
        channel(33, '{"ak":"AKIA1","sk":"secret","region":"us-east-1"}', 'AKIA1|secret|us-east-1'),
      ),
    ).toBeNull();
    expect(translateChannelConfig(channel(33, '{"ak":"AKIA1","region":"us-east-1"}', 'x'))).toBeNull();
  });

  it('leaves other types, empty and malformed configs alone', () => {
    expect(translateChannelConfig(channel(1, '{"api_version":"2024-06-01"}'))).toBeNull();
    expect(translateChannelConfig(channel(3, ''))).toBeNull();
    expect(translateChannelConfig(channel(3, null))).toBeNull();
    expect(translateChannelConfig(channel(3, 'not json'))).toBeNull();
    expect(translateChannelConfig(channel(33, '["ak"]'))).toBeNull();
  });
});
