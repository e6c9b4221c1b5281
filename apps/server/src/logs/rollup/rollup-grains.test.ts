import { describe, expect, it } from 'vitest';
import { grainFor } from './rollup-grains.ts';

describe('grainFor', () => {
  it('takes the smallest grain that keeps every column the filter names', () => {
    expect(grainFor({})?.id).toBe(1);
    expect(grainFor({ type: 2, start: 1, end: 2 })?.id).toBe(1);
    expect(grainFor({ modelName: 'gpt' })?.id).toBe(2);
    expect(grainFor({ channelId: 3 })?.id).toBe(3);
    expect(grainFor({ group: 'vip' })?.id).toBe(4);
    expect(grainFor({ modelName: 'gpt', channelId: 3 })?.id).toBe(7);
    expect(grainFor({ channelId: 3, group: 'vip' })?.id).toBe(7);
    expect(grainFor({ modelName: 'gpt', channelId: 3, group: 'vip' })?.id).toBe(7);
    expect(grainFor({ tokenName: 'default' })?.id).toBe(9);
    expect(grainFor({ username: 'ann' })?.id).toBe(8);
    expect(grainFor({ userId: 4 })?.id).toBe(8);
    expect(grainFor({ userId: 4, modelName: 'gpt' })?.id).toBe(8);
    expect(grainFor({ username: 'ann', modelName: 'gpt' })?.id).toBe(8);
    expect(grainFor({ userId: 4, tokenName: 'default' })?.id).toBe(5);
    expect(grainFor({ username: 'ann', tokenName: 'default' })?.id).toBe(5);
    expect(grainFor({ tokenName: 'default', modelName: 'gpt' })?.id).toBe(6);
    expect(grainFor({ userId: 4, channelId: 1 })?.id).toBe(6);
    expect(grainFor({ tokenName: 'default', group: 'vip', channelId: 1 })?.id).toBe(6);
  });

  it('answers null when a filter names a column no grain keeps (a token id)', () => {
    expect(grainFor({ tokenId: 9 })).toBeNull();
  });
});
