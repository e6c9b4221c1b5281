import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createChannel,
  createToken,
  type RelayFixture,
  setOption,
  startRelayFixture,
} from '../relay/relay-support.ts';
import { pollTasks, sleep, submitDrawing } from './task-support.ts';

/** A local webhook receiver that records every JSON body posted to it. */
function startHookReceiver(): Promise<{
  server: Server;
  url: string;
  received: Array<Record<string, unknown>>;
}> {
  const received: Array<Record<string, unknown>> = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      received.push(JSON.parse(body));
      response.writeHead(200).end('ok');
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received }),
    ),
  );
}

describe('Midjourney notify hooks (MjNotifyEnabled)', () => {
  let fixture: RelayFixture;
  let hook: Awaited<ReturnType<typeof startHookReceiver>>;
  let key: string;

  beforeAll(async () => {
    fixture = await startRelayFixture();
    hook = await startHookReceiver();
    await createChannel(fixture, { name: 'mj', type: 2, key: 'mj-secret', models: 'mj_imagine' });
    ({ key } = await createToken(fixture.root));
  });
  afterAll(async () => {
    await fixture.close();
    await new Promise<void>((resolve) => hook.server.close(() => resolve()));
  });

  it('never forwards the hook upstream, and posts the task to it when its state changes if enabled', async () => {
    await setOption(fixture, 'MjNotifyEnabled', 'true');
    const submitted = await submitDrawing(fixture, key, 'imagine', {
      prompt: 'notify me [[mock:task-step-100]]',
      notifyHook: hook.url,
    });
    expect(submitted.json.code).toBe(1);
    const id = submitted.json.result as string;
    expect(fixture.mock.lastRequest()!.body).not.toHaveProperty('notifyHook');
    await sleep(250);
    await pollTasks(fixture);
    for (let wait = 0; wait < 40 && !hook.received.some((task) => task.status === 'SUCCESS'); wait++) {
      await sleep(50);
      await pollTasks(fixture);
    }
    const success = hook.received.find((task) => task.status === 'SUCCESS');
    expect(success).toMatchObject({ id, action: 'IMAGINE', status: 'SUCCESS', progress: '100%' });
    expect(JSON.stringify(hook.received)).not.toContain('switchyard_notify_hook');
  });

  it('does not call the hook when notifications are off', async () => {
    await setOption(fixture, 'MjNotifyEnabled', 'false');
    const count = hook.received.length;
    const submitted = await submitDrawing(fixture, key, 'imagine', {
      prompt: 'quiet [[mock:task-step-0]]',
      notifyHook: hook.url,
    });
    expect(submitted.json.code).toBe(1);
    await pollTasks(fixture);
    await sleep(200);
    expect(hook.received.length).toBe(count);
  });
});
