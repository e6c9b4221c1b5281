import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, ConsoleClient, type TestApp } from '../helper.ts';
import { type GatewayNode, startNode } from '../scale/scale-support.ts';
import { createUser, expectOk, ROOT_PASSWORD } from './console-support.ts';

/**
 * Console sessions end on the server: a copied cookie stops working after logout, on this node
 * and on another node of the same database; disabling or deleting a user ends their sessions,
 * also after the user is enabled again; a password change ends every other session.
 */
describe('session revocation', () => {
  let t: TestApp;
  let second: GatewayNode;
  let root: ConsoleClient;

  beforeAll(async () => {
    t = await buildTestApp();
    // A second node on the same database (no migrations), with the same session secret.
    second = await startNode('second', t.database.target, {
      NODE_TYPE: 'slave',
      SESSION_SECRET: 'switchyard-test-session-secret',
    });
    root = await t.login('root', ROOT_PASSWORD);
  });
  afterAll(async () => {
    await second.close();
    await t.close();
  });

  /** The same cookie, sent to the second node. */
  const onSecond = (client: ConsoleClient) => new ConsoleClient(second.app!, client.cookie, client.userId);
  const status = async (client: ConsoleClient) => (await client.get('/api/user/self')).statusCode;

  it('refuses a copied cookie after logout, on both nodes; other sessions live on', async () => {
    await createUser(root, 'leaver', 'password123');
    const session = await t.login('leaver', 'password123');
    const otherBrowser = await t.login('leaver', 'password123');
    const copied = new ConsoleClient(t.app, session.cookie, session.userId);
    expect(await status(copied)).toBe(200);
    expect(await status(onSecond(copied))).toBe(200);

    const logout = await session.get('/api/user/logout');
    expect(logout.json()).toMatchObject({ success: true });
    expect(String(logout.headers['set-cookie'])).toMatch(/session=;/);

    expect(await status(copied)).toBe(401);
    expect(await status(onSecond(copied))).toBe(401);
    expect(await status(otherBrowser)).toBe(200);
    // Logging out twice (two tabs) is fine.
    expect((await copied.get('/api/user/logout')).json()).toMatchObject({ success: true });
  });

  it('logs out through the second node, and the first refuses the cookie', async () => {
    await createUser(root, 'roamer', 'password123');
    const session = await t.login('roamer', 'password123');
    expect((await onSecond(session).get('/api/user/logout')).json()).toMatchObject({ success: true });
    expect(await status(session)).toBe(401);
  });

  it('ends the sessions of a disabled user for good, even once enabled again', async () => {
    const id = await createUser(root, 'banned', 'password123');
    const session = await t.login('banned', 'password123');
    expect(await status(session)).toBe(200);
    expectOk(await root.post('/api/user/manage', { id, action: 'disable' }));
    expect(await status(session)).toBe(401);
    expectOk(await root.post('/api/user/manage', { id, action: 'enable' }));
    expect(await status(session)).toBe(401);
    expect(await status(onSecond(session))).toBe(401);
    const fresh = await t.login('banned', 'password123');
    expect(await status(fresh)).toBe(200);
    expect(await status(onSecond(fresh))).toBe(200);
  });

  it('ends the sessions of a deleted user', async () => {
    const id = await createUser(root, 'deleted', 'password123');
    const session = await t.login('deleted', 'password123');
    expectOk(await root.post('/api/user/manage', { id, action: 'delete' }));
    expect(await status(session)).toBe(401);
    expect(await status(onSecond(session))).toBe(401);
  });

  it('keeps the changing browser signed in after a password change and ends every other session', async () => {
    await createUser(root, 'changer', 'password123');
    const session = await t.login('changer', 'password123');
    const other = await t.login('changer', 'password123');
    const changed = await session.put('/api/user/self', { password: 'password456' });
    expect(changed.json()).toMatchObject({ success: true });
    const renewed = String(changed.headers['set-cookie']).split(';')[0]!;
    const stillIn = new ConsoleClient(t.app, renewed, session.userId);
    expect(await status(stillIn)).toBe(200);
    expect(await status(onSecond(stillIn))).toBe(200);
    expect(await status(other)).toBe(401);
    expect(await status(onSecond(other))).toBe(401);
  });
});
