import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { channelHealthOf } from '../../src/channels/channel-health-service.ts';
import {
  chatBody,
  createToken,
  eventually,
  type RelayFixture,
  relayPost,
  startRelayFixture,
} from '../relay/relay-support.ts';
import {
  mockChannel,
  otherInfoOf,
  readChannel,
  resetState,
  setOptions,
  settle,
  systemLogs,
} from './channel-ops-support.ts';

const hello = chatBody('gpt-4o-mini', 'hello health');

describe('relay-path auto-disable: N channel faults within a window (reference §8.2, §14.9)', () => {
  let f: RelayFixture;
  let key: string;

  /** Sends one chat call and returns the channel keys the mock saw for it, in order. */
  const call = async () => {
    const start = f.mock.requests.length;
    const reply = await relayPost(f, key, hello);
    await settle(f);
    return {
      status: reply.status,
      keys: f.mock.requests.slice(start).map((request) => String(request.headers.authorization).slice(7)),
    };
  };

  beforeAll(async () => {
    f = await startRelayFixture();
    key = (await createToken(f.root)).key;
  });
  afterEach(async () => resetState(f));
  afterAll(async () => f.close());

  it('disables a channel after 3 faults, drops it from routing at once, and calls keep succeeding', async () => {
    await setOptions(f, { AutomaticDisableChannelEnabled: 'true', RetryTimes: '1' });
    const bad = await mockChannel(f, { name: 'flaky', key: 'sk-bad', priority: 10, scenario: 'error-401' });
    const good = await mockChannel(f, { name: 'good', key: 'sk-good', priority: 0 });
    for (let attempt = 1; attempt <= 2; attempt++) {
      expect(await call()).toEqual({ status: 200, keys: ['sk-bad', 'sk-good'] });
      expect((await readChannel(f, bad)).status).toBe(1);
    }
    expect(await call()).toEqual({ status: 200, keys: ['sk-bad', 'sk-good'] });
    // The third fault takes the channel out of this node's routing before the status is written.
    expect(f.t.app.services.relay.channelIndex.get(bad)).toBeUndefined();
    await eventually(
      () => readChannel(f, bad),
      (row) => row.status === 3,
    );
    expect(await call()).toEqual({ status: 200, keys: ['sk-good'] });
    const info = await otherInfoOf(f, bad);
    expect(info.status_reason).toContain('status code 401');
    expect(info.status_reason).toContain('连续失败 3 次');
    const logs = await systemLogs(f);
    expect(logs.at(-1)!.content).toContain(`通道「flaky」（#${bad}）已被自动禁用`);
    expect((await readChannel(f, good)).status).toBe(1);
  });

  it('counts only channel faults: server errors and client errors never disable', async () => {
    await setOptions(f, { AutomaticDisableChannelEnabled: 'true', RetryTimes: '1' });
    const flaky = await mockChannel(f, { key: 'sk-500', priority: 10, scenario: 'error-500' });
    await mockChannel(f, { key: 'sk-good', priority: 0 });
    for (let attempt = 0; attempt < 4; attempt++) expect((await call()).status).toBe(200);
    expect((await readChannel(f, flaky)).status).toBe(1);
  });

  it('leaves channels alone with the option off or auto_ban 0', async () => {
    await setOptions(f, { RetryTimes: '1' });
    const off = await mockChannel(f, { key: 'sk-off', priority: 10, scenario: 'error-401' });
    await mockChannel(f, { key: 'sk-good', priority: 0 });
    for (let attempt = 0; attempt < 3; attempt++) await call();
    expect((await readChannel(f, off)).status).toBe(1);

    await setOptions(f, { AutomaticDisableChannelEnabled: 'true' });
    await f.root.put('/api/channel/', { id: off, auto_ban: 0 });
    await eventually(
      async () => f.t.app.services.relay.channelIndex.get(off),
      (target) => target?.autoBan === false,
    );
    for (let attempt = 0; attempt < 3; attempt++) await call();
    expect((await readChannel(f, off)).status).toBe(1);
    expect(channelHealthOf(f.t.app.services, f.t.app.log).window.size).toBe(0);
  });

  it('disables on a keyword in the upstream message on the relay path too', async () => {
    await setOptions(f, {
      AutomaticDisableChannelEnabled: 'true',
      AutomaticDisableKeywords: 'engine is currently overloaded',
      RetryTimes: '1',
    });
    const overloaded = await mockChannel(f, { key: 'sk-503', priority: 10, scenario: 'error-503' });
    await mockChannel(f, { key: 'sk-good', priority: 0 });
    for (let attempt = 0; attempt < 3; attempt++) expect((await call()).status).toBe(200);
    await eventually(
      () => readChannel(f, overloaded),
      (row) => row.status === 3,
    );
  });

  it('a passing test clears the fault count', async () => {
    await setOptions(f, { AutomaticDisableChannelEnabled: 'true', RetryTimes: '1' });
    const bad = await mockChannel(f, { key: 'sk-bad', priority: 10, scenario: 'error-401' });
    await mockChannel(f, { key: 'sk-good', priority: 0 });
    await call();
    await call();
    const health = channelHealthOf(f.t.app.services, f.t.app.log);
    expect(health.window.size).toBe(1);
    await f.root.put('/api/channel/', { id: bad, base_url: f.mock.url });
    expect((await f.root.get(`/api/channel/test/${bad}`)).json().success).toBe(true);
    expect(health.window.size).toBe(0);
  });
});
