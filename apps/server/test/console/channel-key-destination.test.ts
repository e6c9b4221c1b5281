import { type MockUpstream, startMockUpstream } from '@switchyard/mock-upstream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsoleClient, envelope } from '../helper.ts';
import { createChannel, type RelayFixture, startRelayFixture } from '../relay/relay-support.ts';
import { channelRow } from './channels-support.ts';
import { createUser, expectOk, expectRefused } from './console-support.ts';

const SECRET = 'sk-root-only-channel-key-0001';
const NEW_ADDRESS_NEEDS_KEY = /请重新填写渠道密钥/;
const KEYLESS = '该渠道没有密钥，请先编辑渠道并填写密钥';

/**
 * A non-root admin never reads a channel's key, so must not be able to send it to a server of
 * their own: changing where the key goes (type, base URL, other, proxy) needs the key entered
 * again, and an admin's copy carries no key. The "attacker" is a second mock upstream that
 * records every request it gets.
 */
describe('a channel key follows its destination', () => {
  let f: RelayFixture;
  let attacker: MockUpstream;
  let admin: ConsoleClient;
  let channelId: number;

  beforeAll(async () => {
    f = await startRelayFixture();
    attacker = await startMockUpstream();
    await createUser(f.root, 'keyadmin', 'password123', 10);
    admin = await f.t.login('keyadmin', 'password123');
    channelId = await createChannel(f, { key: SECRET, models: 'gpt-4o-mini' });
  });
  afterAll(async () => {
    await f.close();
    await attacker.close();
  });

  const sentTheSecret = () => attacker.requests.some((request) => JSON.stringify(request).includes(SECRET));
  const update = (client: ConsoleClient, fields: Record<string, unknown>) =>
    client.put('/api/channel/', { id: channelId, ...fields });

  it.each([
    ['base_url', { base_url: 'ATTACKER' }],
    ['type', { type: 3 }],
    ['other (region, API version)', { other: 'europe-west4' }],
    ['proxy in setting', { setting: '{"proxy":"ATTACKER"}' }],
  ])('refuses an admin who changes %s without the key', async (_name, fields) => {
    const body = JSON.parse(JSON.stringify(fields).replaceAll('ATTACKER', attacker.url));
    expectRefused(await update(admin, body), NEW_ADDRESS_NEEDS_KEY);
    const row = await channelRow(f.t, channelId);
    expect(row).toMatchObject({ key: SECRET, base_url: f.mock.url, type: 1 });
  });

  it('lets an admin change other fields, and the destination with a key of their own', async () => {
    expectOk(
      await update(admin, { name: 'renamed', base_url: f.mock.url, setting: '{"force_format":true}' }),
    );
    expectOk(await update(admin, { base_url: attacker.url, key: 'sk-admin-own-key' }));
    expect(await channelRow(f.t, channelId)).toMatchObject({
      key: 'sk-admin-own-key',
      base_url: attacker.url,
    });
    // Back to the root user's key and address for the rest.
    expectOk(await update(f.root, { base_url: f.mock.url, key: SECRET }));
  });

  it("gives an admin's copy no key, disabled, and refuses to test or repoint it without one", async () => {
    const reply = envelope(await admin.post(`/api/channel/copy/${channelId}`));
    expect(reply.success).toBe(true);
    expect(reply.message).toMatch(/不含密钥/);
    const copyId = reply.data.id as number;
    expect(await channelRow(f.t, copyId)).toMatchObject({ key: '', status: 2 });
    expectRefused(await admin.get(`/api/channel/test/${copyId}`), KEYLESS);
    expectRefused(await admin.put('/api/channel/', { id: copyId, base_url: attacker.url }), KEYLESS);
    expectRefused(await admin.put('/api/channel/', { id: copyId, status: 1 }), KEYLESS);
    expectOk(
      await admin.put('/api/channel/', { id: copyId, base_url: attacker.url, key: 'sk-copy-key', status: 1 }),
    );
    expect(await channelRow(f.t, copyId)).toMatchObject({ key: 'sk-copy-key', status: 1 });
    expect(sentTheSecret()).toBe(false);
  });

  it('lets the root user keep the key when repointing or copying', async () => {
    expectOk(await update(f.root, { base_url: attacker.url }));
    expect(await channelRow(f.t, channelId)).toMatchObject({ key: SECRET, base_url: attacker.url });
    const copy = expectOk(await f.root.post(`/api/channel/copy/${channelId}`));
    expect(await channelRow(f.t, copy.id)).toMatchObject({ key: SECRET, status: 1 });
    // Root chose to send it there: the test call reaches that address with the key.
    envelope(await f.root.get(`/api/channel/test/${channelId}?model=gpt-4o-mini`));
    expect(sentTheSecret()).toBe(true);
  });
});
