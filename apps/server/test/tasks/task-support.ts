import { TaskPoller, taskPollerOf } from '../../src/tasks/task-poller.ts';
import { type RawReply, type RelayFixture, relayPost } from '../relay/relay-support.ts';

/** Runs one poll round of the app's task poller. */
export function pollTasks(fixture: RelayFixture): Promise<void> {
  return taskPollerOf(fixture.t.app.services, fixture.t.app.log).pollOnce();
}

/** A second, independent poller (another node) on the same app services. */
export function otherPoller(fixture: RelayFixture): TaskPoller {
  return new TaskPoller(fixture.t.app.services, fixture.t.app.log);
}

/** GETs a relay path with a token key. */
export async function relayGet(fixture: RelayFixture, key: string, path: string): Promise<RawReply> {
  const response = await fetch(`${fixture.baseUrl}${path}`, { headers: { authorization: `Bearer ${key}` } });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

/** POSTs a Midjourney submit. */
export function submitDrawing(fixture: RelayFixture, key: string, kind: string, body: unknown) {
  return relayPost(fixture, key, body, { path: `/mj/submit/${kind}` });
}

/** Waits the given milliseconds. */
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Reads the system log rows (type 4) of a user. */
export async function systemLogs(fixture: RelayFixture, userId: number) {
  await fixture.t.app.services.relay.drain();
  return fixture.t.app.services.logDatabase.db
    .selectFrom('logs')
    .selectAll()
    .where('type', '=', 4)
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
}
