import { channelHealthOf } from '../../src/channels/channel-health-service.ts';
import { channelTestRunnerOf } from '../../src/channels/channel-tester-runner.ts';
import { envelope } from '../helper.ts';
import {
  type ChannelInput,
  createChannel,
  type RelayFixture,
  updateChannel,
} from '../relay/relay-support.ts';

/** The default AutomaticDisableKeywords (reference §8.2), to restore after a test changed them. */
export const DEFAULT_KEYWORDS = [
  'Your credit balance is too low',
  'This organization has been disabled.',
  'You exceeded your current quota',
  'Permission denied',
  'The security token included in the request is invalid',
  'Operation not allowed',
  'Your account is not authorized',
].join('\n');

/** Options the channel operation tests change; `resetOptions` puts them back. */
export const OPTION_DEFAULTS: Record<string, string> = {
  AutomaticDisableChannelEnabled: 'false',
  AutomaticEnableChannelEnabled: 'false',
  ChannelDisableThreshold: '5',
  AutomaticDisableKeywords: DEFAULT_KEYWORDS,
  RetryTimes: '0',
};

/** Creates a channel on the mock upstream; `scenario` makes every call to it use that mock scenario. */
export async function mockChannel(
  f: RelayFixture,
  input: ChannelInput & { scenario?: string; status?: number; tag?: string; auto_ban?: number } = {},
): Promise<number> {
  const { scenario, status, tag, auto_ban, ...rest } = input;
  const base_url = scenario ? `${f.mock.url}/__mock/${scenario}` : rest.base_url;
  const id = await createChannel(f, { ...rest, base_url });
  const changes: Record<string, unknown> = {};
  if (status !== undefined) changes.status = status;
  if (tag !== undefined) changes.tag = tag;
  if (auto_ban !== undefined) changes.auto_ban = auto_ban;
  if (Object.keys(changes).length > 0) await updateChannel(f, id, changes);
  return id;
}

/** The stored channel row (key included). */
export async function readChannel(f: RelayFixture, id: number) {
  const row = await f.t.app.services.channels.findById(id);
  if (!row) throw new Error(`channel ${id} is gone`);
  return row;
}

/** other_info of a channel, parsed. */
export async function otherInfoOf(
  f: RelayFixture,
  id: number,
): Promise<{ status_reason?: string; status_time?: number }> {
  const row = await readChannel(f, id);
  return row.other_info ? JSON.parse(row.other_info) : {};
}

/** Calls GET /api/channel/test/:id as root and returns the raw reply body. */
export async function testChannel(f: RelayFixture, id: number, model?: string) {
  const query = model === undefined ? '' : `?model=${encodeURIComponent(model)}`;
  const response = await f.root.get(`/api/channel/test/${id}${query}`);
  if (response.statusCode !== 200) throw new Error(`test answered ${response.statusCode}: ${response.body}`);
  return response.json() as {
    success: boolean;
    message: string;
    time: number;
    data: { time: number; model: string; status_change: string | null };
  };
}

/** Waits for test-all runs, scheduled health changes, settlements and queued log rows. */
export async function settle(f: RelayFixture): Promise<void> {
  const { services, log } = f.t.app;
  await channelTestRunnerOf(services, log).idle();
  await channelHealthOf(services, log).drain();
  await services.relay.drain();
}

/** System log rows (type 4), oldest first. */
export async function systemLogs(f: RelayFixture) {
  await settle(f);
  return f.t.app.services.logDatabase.db
    .selectFrom('logs')
    .selectAll()
    .where('type', '=', 4)
    .orderBy('id')
    .execute();
}

/** Sets options as root (through the API, so validation applies). */
export async function setOptions(f: RelayFixture, values: Record<string, string>): Promise<void> {
  for (const [key, value] of Object.entries(values)) {
    const reply = envelope(await f.root.put('/api/option/', { key, value }));
    if (!reply.success) throw new Error(`option ${key}: ${reply.message}`);
  }
}

/** Deletes every channel (through the repository) and puts the options back. */
export async function resetState(f: RelayFixture): Promise<void> {
  await settle(f);
  const { channels, database } = f.t.app.services;
  const rows = await database.db.selectFrom('channels').select('id').execute();
  await channels.deleteMany(rows.map((row) => row.id));
  f.t.app.services.bus.publish('channels', '');
  await setOptions(f, OPTION_DEFAULTS);
}
