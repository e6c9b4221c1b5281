import type { ConsoleClient, TestApp } from '../helper.ts';
import { envelope } from '../helper.ts';

/** A valid create body; override fields per test. */
export function channelBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { name: 'main', key: 'sk-secret-key-0001', models: 'gpt-4o,gpt-4o-mini', ...overrides };
}

/** Creates channels through the API and returns their ids (throws on refusal). */
export async function createChannels(
  client: ConsoleClient,
  body: Record<string, unknown>,
): Promise<number[]> {
  const reply = envelope(await client.post('/api/channel/', body));
  if (!reply.success) throw new Error(`create refused: ${reply.message}`);
  return (reply.data as Array<{ id: number }>).map((channel) => channel.id);
}

/** Creates one channel and returns its id. */
export async function createChannel(client: ConsoleClient, overrides: Record<string, unknown> = {}) {
  const [id] = await createChannels(client, channelBody(overrides));
  return id!;
}

/** The stored channel row, key included. */
export async function channelRow(t: TestApp, id: number) {
  return t.app.services.database.db
    .selectFrom('channels')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
}

/** A channel's abilities rows, as comparable plain objects sorted by group then model. */
export async function abilitiesOf(t: TestApp, id: number) {
  const rows = await t.app.services.database.db
    .selectFrom('abilities')
    .selectAll()
    .where('channel_id', '=', id)
    .execute();
  return rows
    .map((row) => ({
      group: row.group,
      model: row.model,
      enabled: Number(row.enabled),
      priority: Number(row.priority),
      weight: Number(row.weight),
      tag: row.tag,
    }))
    .sort((a, b) => (a.group + '\u0000' + a.model).localeCompare(b.group + '\u0000' + b.model));
}

/** The expected abilities rows: groups × models with the given flags. */
export function expectedAbilities(
  groups: string[],
  models: string[],
  fields: { enabled?: number; priority?: number; weight?: number; tag?: string | null } = {},
) {
  const { enabled = 1, priority = 0, weight = 0, tag = null } = fields;
  return groups
    .flatMap((group) => models.map((model) => ({ group, model, enabled, priority, weight, tag })))
    .sort((a, b) => (a.group + '\u0000' + a.model).localeCompare(b.group + '\u0000' + b.model));
}

/** Removes every channel and ability so each test starts empty. */
export async function clearChannels(t: TestApp): Promise<void> {
  const db = t.app.services.database.db;
  await db.deleteFrom('abilities').execute();
  await db.deleteFrom('channels').execute();
}

/** Creates a user with the given role through the API and logs in as them. */
export async function loginAs(t: TestApp, root: ConsoleClient, username: string, role: number) {
  const reply = envelope(await root.post('/api/user/', { username, password: 'password123', role }));
  if (!reply.success) throw new Error(`user create refused: ${reply.message}`);
  return t.login(username, 'password123');
}
