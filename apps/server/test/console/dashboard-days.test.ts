import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type ConsoleClient, type TestApp } from '../helper.ts';
import { createUser, expectOk, ROOT_PASSWORD } from './console-support.ts';

// The dashboard summed into local days: `default_time=day|week` with `utc_offset` answers one row
// per model (and user) and local day, equal to the hourly rows summed by their local date, with
// the node's unflushed increments in the right day; without `utc_offset` the answer stays hourly.

const HOUR = 3600;
interface Row {
  id: number;
  user_id: number;
  username: string;
  model_name: string;
  created_at: number;
  count: number;
  quota: number;
  token_used: number;
}

/** Hourly rows summed per user, model and the local date of `offsetMinutes` (an independent fold). */
function foldByLocalDate(rows: Row[], offsetMinutes: number): Row[] {
  const byKey = new Map<string, Row>();
  for (const row of rows) {
    const local = new Date((row.created_at + offsetMinutes * 60) * 1000);
    const dayStart =
      Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate()) / 1000 - offsetMinutes * 60;
    const key = `${row.user_id}/${row.model_name}/${dayStart}`;
    const sum = byKey.get(key) ?? { ...row, id: 0, created_at: dayStart, count: 0, quota: 0, token_used: 0 };
    sum.count += row.count;
    sum.quota += row.quota;
    sum.token_used += row.token_used;
    byKey.set(key, sum);
  }
  return [...byKey.values()].sort(
    (a, b) =>
      a.created_at - b.created_at || a.model_name.localeCompare(b.model_name) || a.user_id - b.user_id,
  );
}

describe('dashboard data by local day', () => {
  let t: TestApp;
  let root: ConsoleClient;
  let dora: ConsoleClient;
  let doraId: number;
  // 2025-03-09T00:00Z: the fixture's hours run from 12:00Z on the 8th to 12:00Z on the 10th.
  const midnight = Date.UTC(2025, 2, 9) / 1000;
  const first = midnight - 12 * HOUR;
  const last = midnight + 36 * HOUR;

  beforeAll(async () => {
    t = await buildTestApp();
    root = await t.login('root', ROOT_PASSWORD);
    doraId = await createUser(root, 'dora');
    dora = await t.login('dora', 'password123');
    const recorder = t.app.services.quotaData;
    for (let hour = first; hour <= last; hour += HOUR) {
      const step = (hour - first) / HOUR;
      for (const [modelName, quota] of [
        ['day-a', 10 + step],
        ['day-b', 3],
      ] as const) {
        recorder.record({
          userId: doraId,
          username: 'dora',
          modelName,
          quota,
          tokenUsed: step % 5,
          at: hour + 60,
        });
      }
      // Another user's calls count in the all-user sums only.
      recorder.record({
        userId: 9700,
        username: 'erin',
        modelName: 'day-a',
        quota: 1,
        tokenUsed: 1,
        at: hour,
      });
    }
    await recorder.flush();
    // Not yet flushed: one more call in the last hour, which must land in its local day.
    recorder.record({
      userId: doraId,
      username: 'dora',
      modelName: 'day-b',
      quota: 100,
      tokenUsed: 7,
      at: last + 5,
    });
  });
  afterAll(async () => {
    await t.close();
  });

  const range = `start_timestamp=${first}&end_timestamp=${last}`;
  const ours = (rows: Row[]) => rows.filter((row) => row.model_name.startsWith('day-'));

  it.each([480, -300, 330, 0])(
    'sums the own and per-user hours into local days at %i minutes',
    async (offset) => {
      const hourly: Row[] = ours(expectOk(await dora.get(`/api/data/self?${range}&default_time=hour`)));
      expect(hourly).toHaveLength(49 * 2);
      const expected = foldByLocalDate(hourly, offset);
      for (const defaultTime of ['day', 'week']) {
        const own: Row[] = ours(
          expectOk(
            await dora.get(`/api/data/self?${range}&default_time=${defaultTime}&utc_offset=${offset}`),
          ),
        );
        expect(own).toEqual(expected);
        const byName: Row[] = ours(
          expectOk(
            await root.get(
              `/api/data/?${range}&username=dora&default_time=${defaultTime}&utc_offset=${offset}`,
            ),
          ),
        );
        expect(byName).toEqual(expected);
      }
      // 49 hours touch three local dates at each of these offsets.
      expect(new Set(expected.map((row) => row.created_at)).size).toBe(3);
    },
  );

  it('sums every user per model and local day', async () => {
    const hourly: Row[] = ours(expectOk(await root.get(`/api/data/?${range}&default_time=hour`)));
    const days: Row[] = ours(expectOk(await root.get(`/api/data/?${range}&default_time=day&utc_offset=480`)));
    expect(days).toEqual(foldByLocalDate(hourly, 480));
    const total = (rows: Row[]) => rows.reduce((n, row) => n + row.quota, 0);
    expect(total(days)).toBe(total(hourly));
    // Dora's day-a and day-b hours, erin's day-a hours, and the unflushed call.
    expect(days.reduce((n, row) => n + row.count, 0)).toBe(49 * 3 + 1);
  });

  it('stays hourly without a valid offset, as new-api’s console expects', async () => {
    const hourly: Row[] = ours(expectOk(await dora.get(`/api/data/self?${range}&default_time=hour`)));
    for (const query of [
      'default_time=day',
      'default_time=week&utc_offset=abc',
      'default_time=day&utc_offset=900',
    ]) {
      expect(ours(expectOk(await dora.get(`/api/data/self?${range}&${query}`)))).toEqual(hourly);
    }
    expect(ours(expectOk(await dora.get(`/api/data/self?${range}&utc_offset=480`)))).toEqual(hourly);
  });
});
