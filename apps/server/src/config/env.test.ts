import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './env.ts';

describe('loadConfig: task polling', () => {
  it('polls every 15 s by default, as the reference does', () => {
    expect(loadConfig({}).taskPolling).toEqual({ enabled: true, intervalSeconds: 15 });
  });

  it('reads UPDATE_TASK and TASK_POLL_INTERVAL', () => {
    expect(loadConfig({ UPDATE_TASK: 'false', TASK_POLL_INTERVAL: '1' }).taskPolling).toEqual({
      enabled: false,
      intervalSeconds: 1,
    });
    expect(loadConfig({ UPDATE_TASK: 'TRUE', TASK_POLL_INTERVAL: ' 3600 ' }).taskPolling).toEqual({
      enabled: true,
      intervalSeconds: 3600,
    });
  });

  it('refuses values it cannot honour instead of silently polling at another rate', () => {
    expect(() => loadConfig({ TASK_POLL_INTERVAL: '0' })).toThrow(ConfigError);
    expect(() => loadConfig({ TASK_POLL_INTERVAL: '3601' })).toThrow(/between 1 and 3600/);
    expect(() => loadConfig({ TASK_POLL_INTERVAL: '1.5' })).toThrow(/integer/);
    expect(() => loadConfig({ UPDATE_TASK: 'sometimes' })).toThrow(/true or false/);
  });
});

describe('loadConfig: SQLite checkpoints', () => {
  it('checkpoints the WAL from the worker every 250 ms by default (ADR-39)', () => {
    expect(loadConfig({}).sqliteCheckpointMs).toBe(250);
  });

  it('takes SQLITE_CHECKPOINT_MS, 0 leaving checkpoints to SQLite, and refuses a value out of range', () => {
    expect(loadConfig({ SQLITE_CHECKPOINT_MS: '50' }).sqliteCheckpointMs).toBe(50);
    expect(loadConfig({ SQLITE_CHECKPOINT_MS: '0' }).sqliteCheckpointMs).toBe(0);
    expect(() => loadConfig({ SQLITE_CHECKPOINT_MS: '-1' })).toThrow(ConfigError);
  });
});

describe('loadConfig: TRUSTED_PROXIES', () => {
  it('trusts loopback only by default, and reads a list, true or false', () => {
    expect(loadConfig({}).trustProxy).toBe('loopback');
    expect(loadConfig({ TRUSTED_PROXIES: 'loopback, 172.16.0.0/12' }).trustProxy).toBe(
      'loopback, 172.16.0.0/12',
    );
    expect(loadConfig({ TRUSTED_PROXIES: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUSTED_PROXIES: 'false' }).trustProxy).toBe(false);
  });
});
