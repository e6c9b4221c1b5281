import { describe, expect, it } from 'vitest';
import { deadInstanceIds, nextDeathCheck } from './instance-liveness.ts';

const NOW = 1_000_000;
const DEAD_AFTER = 30_000;

describe('deadInstanceIds', () => {
  const beats = [
    { id: 'fresh', heartbeat_at: NOW - 4_000 },
    { id: 'just-killed', heartbeat_at: NOW - 12_000 },
    { id: 'at-limit', heartbeat_at: NOW - DEAD_AFTER },
    { id: 'stale', heartbeat_at: NOW - DEAD_AFTER - 1 },
    { id: 'me', heartbeat_at: NOW - 90_000 },
  ];

  it('counts a missing row, a legacy empty id and a heartbeat older than the limit as dead', () => {
    const owners = ['fresh', 'just-killed', 'at-limit', 'stale', 'deregistered', ''];
    expect(deadInstanceIds(owners, beats, NOW, DEAD_AFTER, 'me').sort()).toEqual([
      '',
      'deregistered',
      'stale',
    ]);
  });

  it('never counts the caller dead, even with an old heartbeat of its own', () => {
    expect(deadInstanceIds(['me', 'me'], beats, NOW, DEAD_AFTER, 'me')).toEqual([]);
  });

  it('reports each owner once and ignores heartbeats of processes holding no rows', () => {
    expect(deadInstanceIds(['stale', 'stale'], beats, NOW, DEAD_AFTER, 'me')).toEqual(['stale']);
    expect(deadInstanceIds([], beats, NOW, DEAD_AFTER, 'me')).toEqual([]);
  });

  it('reads heartbeats stored as strings (BIGINT from some drivers)', () => {
    const stored = [{ id: 'x', heartbeat_at: String(NOW - 1_000) as unknown as number }];
    expect(deadInstanceIds(['x'], stored, NOW, DEAD_AFTER, 'me')).toEqual([]);
  });
});

describe('nextDeathCheck', () => {
  it('is the earliest moment a live-looking owner crosses the limit (plus a margin)', () => {
    const beats = [
      { id: 'a', heartbeat_at: NOW - 10_000 },
      { id: 'b', heartbeat_at: NOW - 20_000 },
      { id: 'idle', heartbeat_at: NOW - 29_000 },
      { id: 'me', heartbeat_at: NOW - 29_500 },
    ];
    expect(nextDeathCheck(['a', 'b', 'me'], beats, NOW, DEAD_AFTER, 'me', 100)).toBe(NOW + 10_100);
  });

  it('is undefined when no other process holds rows', () => {
    expect(nextDeathCheck(['me'], [{ id: 'me', heartbeat_at: NOW }], NOW, DEAD_AFTER, 'me')).toBeUndefined();
  });
});
