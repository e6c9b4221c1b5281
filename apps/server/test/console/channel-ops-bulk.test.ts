import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { envelope } from '../helper.ts';
import {
  createCommonUser,
  eventually,
  type RelayFixture,
  startRelayFixture,
} from '../relay/relay-support.ts';
import { mockChannel, readChannel, resetState } from './channel-ops-support.ts';
import { abilitiesOf, expectedAbilities } from './channels-support.ts';

describe('bulk channel operations: delete, fix, tags, batch tag, copy (console §7)', () => {
  let f: RelayFixture;
  const db = () => f.t.app.services.database.db;
  const exists = async (id: number) => (await f.t.app.services.channels.findById(id)) !== undefined;
  const abilityCount = async (id: number) =>
    (await db().selectFrom('abilities').select('model').where('channel_id', '=', id).execute()).length;

  beforeAll(async () => {
    f = await startRelayFixture();
  });
  afterEach(async () => resetState(f));
  afterAll(async () => f.close());

  it('DELETE /api/channel/disabled deletes manual and automatic disables with their abilities', async () => {
    const enabled = await mockChannel(f);
    const manual = await mockChannel(f, { status: 2 });
    const auto = await mockChannel(f, { status: 3 });
    expect(envelope(await f.root.delete('/api/channel/disabled'))).toMatchObject({ success: true, data: 2 });
    expect([await exists(enabled), await exists(manual), await exists(auto)]).toEqual([true, false, false]);
    expect(await abilityCount(manual)).toBe(0);
    expect(await abilityCount(auto)).toBe(0);
    expect(await abilityCount(enabled)).toBeGreaterThan(0);
    expect(envelope(await f.root.delete('/api/channel/disabled')).data).toBe(0);
  });

  it('POST /api/channel/batch deletes the channels named and counts the ones that existed', async () => {
    const [a, b, c] = [await mockChannel(f), await mockChannel(f), await mockChannel(f)];
    expect(envelope(await f.root.post('/api/channel/batch', { ids: [a, b, 999_999] }))).toMatchObject({
      success: true,
      data: 2,
    });
    expect([await exists(a), await exists(b), await exists(c)]).toEqual([false, false, true]);
    expect(await abilityCount(a)).toBe(0);
    for (const body of [{ ids: [] }, {}]) {
      expect(envelope(await f.root.post('/api/channel/batch', body))).toMatchObject({
        success: false,
        message: '请先选择要删除的通道！',
      });
    }
    await eventually(
      async () => f.t.app.services.relay.channelIndex.get(a),
      (target) => target === undefined,
    );
  });

  it('POST /api/channel/fix rebuilds every channel and removes orphan rows', async () => {
    const a = await mockChannel(f, { models: 'gpt-4o,gpt-4o-mini', group: 'default,vip' });
    const b = await mockChannel(f, { models: 'gpt-4o' });
    await db().deleteFrom('abilities').where('channel_id', '=', a).execute();
    await db().updateTable('abilities').set({ priority: 77 }).where('channel_id', '=', b).execute();
    await db()
      .insertInto('abilities')
      .values({
        group: 'default',
        model: 'ghost',
        channel_id: 999_999,
        enabled: 1,
        priority: 0,
        weight: 0,
        tag: null,
      })
      .execute();
    expect(envelope(await f.root.post('/api/channel/fix'))).toMatchObject({ success: true, data: 2 });
    expect(await abilitiesOf(f.t, a)).toEqual(
      expectedAbilities(['default', 'vip'], ['gpt-4o', 'gpt-4o-mini']),
    );
    expect(await abilitiesOf(f.t, b)).toEqual(expectedAbilities(['default'], ['gpt-4o']));
    expect(await abilityCount(999_999)).toBe(0);
  });

  it('PUT /api/channel/tag validates with the console messages', async () => {
    await mockChannel(f, { tag: 't1' });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ tag: 't1' }, '没有任何修改！'],
      [{ tag: 't1', new_tag: 't1', models: '', groups: null, model_mapping: '' }, '没有任何修改！'],
      [{ tag: '', priority: 1 }, '标签不能为空！'],
      [{ priority: 1 }, '标签不能为空！'],
      [{ tag: 't1', priority: 'abc' }, '优先级必须是整数！'],
      [{ tag: 't1', priority: 1.5 }, '优先级必须是整数！'],
      [{ tag: 't1', priority: -1000 }, '优先级不能小于 -999'],
      [{ tag: 't1', weight: -1 }, '权重必须是非负整数！'],
      [{ tag: 't1', weight: '2.5' }, '权重必须是非负整数！'],
      [{ tag: 't1', model_mapping: 'not json' }, '模型映射必须是合法的 JSON 格式！'],
      [{ tag: 't1', models: ' , ' }, '请至少选择一个模型！'],
      [{ tag: 'nobody', priority: 1 }, '没有使用该标签的渠道'],
    ];
    for (const [body, message] of cases) {
      expect(envelope(await f.root.put('/api/channel/tag', body)), JSON.stringify(body)).toEqual({
        success: false,
        message,
      });
    }
  });

  it('PUT /api/channel/tag overwrites the given fields of every tagged channel and rebuilds abilities', async () => {
    const a = await mockChannel(f, { tag: 't1' });
    const b = await mockChannel(f, { tag: 't1', priority: 3 });
    const other = await mockChannel(f, { tag: 'other' });
    const reply = envelope(
      await f.root.put('/api/channel/tag', {
        tag: 't1',
        new_tag: 't1',
        models: 'm1, m2,m1',
        groups: 'default,vip',
        model_mapping: '{"m1":"gpt-4o-mini"}',
        priority: '5',
        weight: 3,
      }),
    );
    expect(reply).toMatchObject({ success: true, data: 2 });
    for (const id of [a, b]) {
      const row = await readChannel(f, id);
      expect(row).toMatchObject({
        models: 'm1,m2',
        group: 'default,vip',
        model_mapping: '{"m1":"gpt-4o-mini"}',
        tag: 't1',
      });
      expect([Number(row.priority), Number(row.weight)]).toEqual([5, 3]);
      expect(await abilitiesOf(f.t, id)).toEqual(
        expectedAbilities(['default', 'vip'], ['m1', 'm2'], { priority: 5, weight: 3, tag: 't1' }),
      );
    }
    expect((await readChannel(f, other)).models).toBe('gpt-4o-mini,gpt-4o,text-embedding-3-small');
    await eventually(
      async () => f.t.app.services.relay.channelIndex.candidates('vip', 'm1').map((target) => target.id),
      (ids) => ids.length === 2,
    );

    // Only the priority: the other fields stay.
    expect(envelope(await f.root.put('/api/channel/tag', { tag: 't1', priority: 0 })).success).toBe(true);
    expect(Number((await readChannel(f, a)).priority)).toBe(0);
    expect((await readChannel(f, a)).models).toBe('m1,m2');

    // Rename, then dissolve.
    expect(envelope(await f.root.put('/api/channel/tag', { tag: 't1', new_tag: ' t2 ' })).data).toBe(2);
    expect((await readChannel(f, a)).tag).toBe('t2');
    expect((await abilitiesOf(f.t, b)).every((row) => row.tag === 't2')).toBe(true);
    expect(envelope(await f.root.put('/api/channel/tag', { tag: 't2', new_tag: '' })).data).toBe(2);
    expect((await readChannel(f, a)).tag).toBeNull();
    expect((await abilitiesOf(f.t, b)).every((row) => row.tag === null)).toBe(true);
    expect((await readChannel(f, other)).tag).toBe('other');
  });

  it('POST /api/channel/tag/disabled|enabled switch every channel of a tag, abilities and routing included', async () => {
    const a = await mockChannel(f, { tag: 'team' });
    const b = await mockChannel(f, { tag: 'team', status: 3 });
    const other = await mockChannel(f);
    expect(envelope(await f.root.post('/api/channel/tag/disabled', { tag: 'team' }))).toMatchObject({
      success: true,
      data: 2,
    });
    for (const id of [a, b]) {
      expect((await readChannel(f, id)).status).toBe(2);
      expect((await abilitiesOf(f.t, id)).every((row) => row.enabled === 0)).toBe(true);
    }
    expect((await readChannel(f, other)).status).toBe(1);
    await eventually(
      async () => f.t.app.services.relay.channelIndex.get(a),
      (target) => target === undefined,
    );
    expect(envelope(await f.root.post('/api/channel/tag/enabled', { tag: 'team' })).data).toBe(2);
    for (const id of [a, b]) {
      expect((await readChannel(f, id)).status).toBe(1);
      expect((await abilitiesOf(f.t, id)).every((row) => row.enabled === 1)).toBe(true);
    }
    await eventually(
      async () => f.t.app.services.relay.channelIndex.get(b),
      (target) => target !== undefined,
    );
    for (const body of [{ tag: '' }, {}, { tag: null }]) {
      expect(envelope(await f.root.post('/api/channel/tag/enabled', body))).toEqual({
        success: false,
        message: '标签不能为空！',
      });
    }
    expect(envelope(await f.root.post('/api/channel/tag/disabled', { tag: 'nobody' })).success).toBe(false);
  });

  it('POST /api/channel/batch/tag sets one tag on the channels named', async () => {
    const a = await mockChannel(f);
    const b = await mockChannel(f, { tag: 'old' });
    const c = await mockChannel(f);
    expect(
      envelope(await f.root.post('/api/channel/batch/tag', { ids: [a, b, 999_999], tag: ' bt ' })),
    ).toMatchObject({
      success: true,
      data: 2,
    });
    for (const id of [a, b]) {
      expect((await readChannel(f, id)).tag).toBe('bt');
      expect((await abilitiesOf(f.t, id)).every((row) => row.tag === 'bt')).toBe(true);
    }
    expect((await readChannel(f, c)).tag).toBeNull();
    const refusals: Array<[Record<string, unknown>, string]> = [
      [{ ids: [], tag: 'x' }, '请先选择要设置标签的渠道！'],
      [{ tag: 'x' }, '请先选择要设置标签的渠道！'],
      [{ ids: [a], tag: '' }, '标签不能为空！'],
      [{ ids: [a], tag: '   ' }, '标签不能为空！'],
      [{ ids: [a] }, '标签不能为空！'],
    ];
    for (const [body, message] of refusals) {
      expect(envelope(await f.root.post('/api/channel/batch/tag', body))).toEqual({
        success: false,
        message,
      });
    }
  });

  it('POST /api/channel/copy/:id creates an enabled copy named <name>_复制 with counters reset', async () => {
    const origin = await mockChannel(f, { name: 'origin', key: 'sk-copied-key', tag: 'team', status: 2 });
    await db()
      .updateTable('channels')
      .set({ used_quota: 1234, balance: 9.5, balance_updated_time: 100, response_time: 300, test_time: 50 })
      .where('id', '=', origin)
      .execute();
    const reply = envelope(await f.root.post(`/api/channel/copy/${origin}`));
    expect(reply.success).toBe(true);
    const copy = await readChannel(f, reply.data.id);
    const source = await readChannel(f, origin);
    expect(copy.id).not.toBe(origin);
    expect(copy).toMatchObject({
      name: 'origin_复制',
      key: 'sk-copied-key',
      status: 1,
      tag: 'team',
      models: source.models,
    });
    expect([copy.used_quota, copy.balance, copy.response_time, copy.test_time].map(Number)).toEqual([
      0, 0, 0, 0,
    ]);
    expect(Number(copy.created_time)).toBeGreaterThan(0);
    expect(await abilitiesOf(f.t, copy.id)).toEqual(
      (await abilitiesOf(f.t, origin)).map((row) => ({ ...row, enabled: 1 })),
    );
    await eventually(
      async () => f.t.app.services.relay.channelIndex.get(copy.id),
      (target) => target !== undefined,
    );

    const kept = envelope(await f.root.post(`/api/channel/copy/${origin}?suffix=-b&reset_balance=false`));
    const keptRow = await readChannel(f, kept.data.id);
    expect(keptRow.name).toBe('origin-b');
    expect([Number(keptRow.used_quota), Number(keptRow.balance)]).toEqual([1234, 9.5]);
    expect(envelope(await f.root.post('/api/channel/copy/999999'))).toEqual({
      success: false,
      message: '渠道不存在',
    });
  });

  it('refuses non-admins and answers bad input without a 500', async () => {
    const id = await mockChannel(f, { tag: 'guarded' });
    const { client } = await createCommonUser(f, 'bulk-user', 0);
    const calls: Array<[string, string, unknown?]> = [
      ['DELETE', '/api/channel/disabled'],
      ['POST', '/api/channel/batch', { ids: [id] }],
      ['POST', '/api/channel/fix'],
      ['PUT', '/api/channel/tag', { tag: 'guarded', priority: 1 }],
      ['POST', '/api/channel/tag/enabled', { tag: 'guarded' }],
      ['POST', '/api/channel/tag/disabled', { tag: 'guarded' }],
      ['POST', '/api/channel/batch/tag', { ids: [id], tag: 'x' }],
      ['POST', `/api/channel/copy/${id}`],
    ];
    for (const [method, url, body] of calls) {
      const response = await client.request(method as 'POST', url, body as never);
      expect(response.statusCode, url).toBeLessThan(500);
      expect(response.json().success, url).toBe(false);
      const anonymous = await f.t.anonymous().request(method as 'POST', url, body as never);
      expect(anonymous.statusCode, url).toBe(401);
    }
    expect(await exists(id)).toBe(true);
    expect((await readChannel(f, id)).tag).toBe('guarded');
    expect((await readChannel(f, id)).status).toBe(1);

    const bad: Array<[string, string, unknown?]> = [
      ['POST', '/api/channel/batch', { ids: 'all' }],
      ['POST', '/api/channel/batch', { ids: [0, -1] }],
      ['POST', '/api/channel/batch', { ids: [1e20] }],
      ['POST', '/api/channel/batch', '[1,2'],
      ['POST', '/api/channel/batch', [1, 2]],
      ['PUT', '/api/channel/tag', { tag: 5 }],
      ['PUT', '/api/channel/tag', { tag: 'guarded', priority: { n: 1 } }],
      ['PUT', '/api/channel/tag', { tag: 'guarded', weight: 1e300 }],
      ['PUT', '/api/channel/tag', { tag: 'guarded', groups: 'x'.repeat(300) }],
      ['PUT', '/api/channel/tag', { tag: 'guarded', new_tag: 'y'.repeat(300) }],
      ['POST', '/api/channel/tag/enabled', { tag: ['a'] }],
      ['POST', '/api/channel/batch/tag', { ids: ['1'], tag: 'x' }],
      ['POST', '/api/channel/batch/tag', { ids: [id], tag: 'z'.repeat(256) }],
      ['POST', '/api/channel/copy/abc'],
      ['POST', '/api/channel/copy/99999999999'],
      ['POST', `/api/channel/copy/${id}?suffix=${'s'.repeat(65)}`],
      ['GET', '/api/channel/test/0'],
      ['GET', `/api/channel/test/${id}?model=${'m'.repeat(300)}`],
      ['GET', '/api/channel/update_balance/-3'],
    ];
    for (const [method, url, body] of bad) {
      const response = await f.root.request(
        method as 'POST',
        url,
        body as never,
        typeof body === 'string' ? { 'content-type': 'application/json' } : {},
      );
      expect(response.statusCode, `${method} ${url} ${JSON.stringify(body)}`).toBeLessThan(500);
      expect(response.json().success, url).toBe(false);
    }
    expect((await readChannel(f, id)).tag).toBe('guarded');
  });
});
