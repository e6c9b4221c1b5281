import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type ConsoleClient, type TestApp } from '../helper.ts';
import {
  createUser,
  expectOk,
  expectRefused,
  NO_PERMISSION,
  ROOT_PASSWORD,
  readOption,
  uniqueName,
} from './console-support.ts';

/** Every role rule of the spec (§6) as tables: manage, read, update, create and delete. */

const SAME_LEVEL_UPDATE = '无权更新同权限等级或更高权限等级的用户信息';
const SAME_LEVEL_READ = '无权获取同级或更高等级用户的信息';
const CREATE_HIGHER = '无法创建权限大于等于自己的用户';

type Actor = 'root' | 'admin';
type Target = 'root' | 'self' | 'admin' | 'common' | 'disabled' | 'deleted' | 'unknown';
type Outcome = { role: number; status: number } | string;

let t: TestApp;
let root: ConsoleClient;
let admin: ConsoleClient;
const ROOT_ID = 1;

/** A fresh user in the wanted state, so each table row starts from a known target. */
async function makeTarget(actor: Actor, target: Target): Promise<number> {
  if (target === 'root') return ROOT_ID;
  if (target === 'self') return actor === 'root' ? ROOT_ID : (admin.userId as number);
  const id = await createUser(root, uniqueName('tg'), 'password123', target === 'admin' ? 10 : 1);
  if (target === 'disabled') expectOk(await root.post('/api/user/manage', { id, action: 'disable' }));
  if (target === 'deleted') expectOk(await root.post('/api/user/manage', { id, action: 'delete' }));
  if (target === 'unknown') await t.app.services.users.update(id, { status: 3 });
  return id;
}

const client = (actor: Actor) => (actor === 'root' ? root : admin);

beforeAll(async () => {
  t = await buildTestApp();
  root = await t.login('root', ROOT_PASSWORD);
  const adminName = uniqueName('adm');
  await createUser(root, adminName, 'password123', 10);
  admin = await t.login(adminName, 'password123');
});
afterAll(async () => t.close());

describe('POST /api/user/manage role rules', () => {
  const cases: Array<[Actor, Target, string, Outcome]> = [
    ['admin', 'admin', 'disable', SAME_LEVEL_UPDATE],
    ['admin', 'admin', 'demote', SAME_LEVEL_UPDATE],
    ['admin', 'admin', 'delete', SAME_LEVEL_UPDATE],
    ['admin', 'self', 'demote', SAME_LEVEL_UPDATE],
    ['admin', 'root', 'disable', SAME_LEVEL_UPDATE],
    ['admin', 'root', 'demote', SAME_LEVEL_UPDATE],
    ['admin', 'root', 'delete', SAME_LEVEL_UPDATE],
    ['admin', 'common', 'promote', '普通管理员用户无法提升其他用户为管理员'],
    ['admin', 'common', 'demote', '该用户已经是普通用户'],
    ['admin', 'common', 'disable', { role: 1, status: 2 }],
    ['admin', 'disabled', 'enable', { role: 1, status: 1 }],
    ['admin', 'common', 'delete', { role: 1, status: 1 }],
    ['admin', 'deleted', 'enable', '用户已注销'],
    ['root', 'root', 'disable', '无法禁用超级管理员用户'],
    ['root', 'root', 'delete', '无法删除超级管理员用户'],
    ['root', 'root', 'demote', '无法降级超级管理员用户'],
    ['root', 'admin', 'promote', '该用户已经是管理员'],
    ['root', 'common', 'promote', { role: 10, status: 1 }],
    ['root', 'admin', 'demote', { role: 1, status: 1 }],
    ['root', 'admin', 'disable', { role: 10, status: 2 }],
    ['root', 'unknown', 'enable', '该用户状态不可启用'],
    ['root', 'deleted', 'enable', '用户已注销'],
    ['root', 'deleted', 'promote', '用户已注销'],
    ['root', 'deleted', 'delete', '用户已注销'],
  ];

  it.each(cases)('%s → %s: %s', async (actor, target, action, outcome) => {
    const id = await makeTarget(actor, target);
    const before = expectOk(await root.get(`/api/user/${id}`));
    const response = await client(actor).post('/api/user/manage', { id, action });
    const after = expectOk(await root.get(`/api/user/${id}`));
    if (typeof outcome === 'string') {
      expectRefused(response, outcome);
      expect(after).toEqual(before);
      return;
    }
    expect(expectOk(response)).toEqual(outcome);
    expect({ role: after.role, status: after.status }).toEqual(outcome);
    if (action === 'delete') expect(after.deleted_at).toBeGreaterThan(0);
    else expect(after.deleted_at).toBeNull();
  });

  it('keeps the root account usable after every refused action', async () => {
    expect(expectOk(await root.get('/api/user/self'))).toMatchObject({ role: 100, status: 1 });
  });
});

describe('reading, updating, creating and deleting users by role', () => {
  const reads: Array<[Actor, Target, string | null]> = [
    ['admin', 'admin', SAME_LEVEL_READ],
    ['admin', 'self', SAME_LEVEL_READ],
    ['admin', 'root', SAME_LEVEL_READ],
    ['admin', 'common', null],
    ['root', 'admin', null],
    ['root', 'root', null],
  ];
  it.each(reads)('GET /api/user/:id %s → %s', async (actor, target, message) => {
    const id = await makeTarget(actor, target);
    const response = await client(actor).get(`/api/user/${id}`);
    if (message) expectRefused(response, message);
    else expect(expectOk(response).id).toBe(id);
  });

  const updates: Array<[Actor, Target, Record<string, unknown>, string | null]> = [
    ['admin', 'admin', {}, SAME_LEVEL_UPDATE],
    ['admin', 'self', {}, SAME_LEVEL_UPDATE],
    ['admin', 'root', {}, SAME_LEVEL_UPDATE],
    ['admin', 'common', { role: 10 }, '无权将其他用户权限等级提升到大于等于自己的权限等级'],
    ['admin', 'common', {}, null],
    ['root', 'admin', {}, null],
  ];
  it.each(updates)('PUT /api/user/ %s → %s %j', async (actor, target, extra, message) => {
    const id = await makeTarget(actor, target);
    const name = uniqueName('dn');
    const response = await client(actor).put('/api/user/', { id, display_name: name, ...extra });
    const after = expectOk(await root.get(`/api/user/${id}`));
    if (message) {
      expectRefused(response, message);
      expect(after.display_name).not.toBe(name);
    } else {
      expectOk(response);
      expect(after.display_name).toBe(name);
    }
  });

  const creates: Array<[Actor, number, string | null]> = [
    ['admin', 10, CREATE_HIGHER],
    ['admin', 100, CREATE_HIGHER],
    ['root', 100, CREATE_HIGHER],
    ['admin', 5, '无效的用户角色'],
    ['admin', 1, null],
    ['root', 10, null],
  ];
  it.each(creates)('POST /api/user/ by %s with role %i', async (actor, role, message) => {
    const username = uniqueName('cr');
    const response = await client(actor).post('/api/user/', { username, password: 'password123', role });
    const found = expectOk(await root.get(`/api/user/search?keyword=${username}`));
    if (message) {
      expectRefused(response, message);
      expect(found.total).toBe(0);
    } else {
      expectOk(response);
      expect(found.items).toMatchObject([{ username, role }]);
    }
  });

  const deletes: Array<[Actor, Target, string | null]> = [
    ['admin', 'admin', SAME_LEVEL_UPDATE],
    ['admin', 'root', SAME_LEVEL_UPDATE],
    ['root', 'root', '无法删除超级管理员用户'],
    ['admin', 'common', null],
    ['root', 'admin', null],
  ];
  it.each(deletes)('DELETE /api/user/:id %s → %s', async (actor, target, message) => {
    const id = await makeTarget(actor, target);
    const response = await client(actor).delete(`/api/user/${id}`);
    const after = expectOk(await root.get(`/api/user/${id}`));
    if (message) {
      expectRefused(response, message);
      expect(after.deleted_at).toBeNull();
    } else {
      expectOk(response);
      expect(after.deleted_at).toBeGreaterThan(0);
    }
  });
});

/** Admin and root routes with valid payloads, so only the role check can refuse them. */
const ADMIN_ROUTES: Array<[string, string, unknown?]> = [
  ['GET', '/api/user/'],
  ['GET', '/api/user/search?keyword=root'],
  ['GET', `/api/user/${ROOT_ID}`],
  ['POST', '/api/user/', { username: 'intruder', password: 'password123' }],
  ['PUT', '/api/user/', { id: ROOT_ID, display_name: 'hacked' }],
  ['POST', '/api/user/manage', { id: ROOT_ID, action: 'disable' }],
  ['DELETE', `/api/user/${ROOT_ID}`],
  ['GET', '/api/group/'],
  ['GET', '/api/channel/models_enabled'],
  ['DELETE', '/api/log/?target_timestamp=9999999999'],
  ['GET', '/api/status/test'],
];
const ROOT_ROUTES: Array<[string, string, unknown?]> = [
  ['GET', '/api/option/'],
  ['PUT', '/api/option/', { key: 'SystemName', value: 'hacked' }],
  ['POST', '/api/option/rest_model_ratio'],
];
const USER_ROUTES: Array<[string, string, unknown?]> = [
  ['GET', '/api/user/self'],
  ['PUT', '/api/user/self', { display_name: 'x' }],
  ['DELETE', '/api/user/self'],
  ['GET', '/api/user/token'],
  ['GET', '/api/user/aff'],
  ['POST', '/api/user/aff_transfer', { quota: 500000 }],
  ['PUT', '/api/user/setting', { notify_type: 'email', quota_warning_threshold: 1000 }],
  ['GET', '/api/user/self/groups'],
  ['GET', '/api/user/models'],
  ['GET', '/api/models'],
];

describe('route guards', () => {
  it('refuses a normal user on every admin and root route, and changes nothing', async () => {
    const name = uniqueName('nu');
    await createUser(root, name);
    const user = await t.login(name, 'password123');
    for (const [method, url, body] of [...ADMIN_ROUTES, ...ROOT_ROUTES]) {
      const response = await user.request(method as 'GET', url, body as never);
      expectRefused(response, NO_PERMISSION);
    }
    expect(await readOption(root, 'SystemName')).not.toBe('hacked');
    expect(expectOk(await root.get('/api/user/self'))).toMatchObject({
      status: 1,
      display_name: 'Root User',
    });
    expect(expectOk(await root.get('/api/user/search?keyword=intruder')).total).toBe(0);
  });

  it('refuses an admin on every root route', async () => {
    for (const [method, url, body] of ROOT_ROUTES) {
      expectRefused(await admin.request(method as 'GET', url, body as never), NO_PERMISSION);
    }
    expect(await readOption(root, 'SystemName')).not.toBe('hacked');
  });

  it('lets an admin use every admin route', async () => {
    for (const [method, url] of [
      ['GET', '/api/user/'],
      ['GET', '/api/group/'],
      ['GET', '/api/channel/models_enabled'],
      ['GET', '/api/status/test'],
    ] as const) {
      expectOk(await admin.request(method, url));
    }
  });

  it('answers 401 to anonymous callers on every user, admin and root route, before reading the body', async () => {
    const anonymous = t.anonymous();
    for (const [method, url, body] of [...USER_ROUTES, ...ADMIN_ROUTES, ...ROOT_ROUTES]) {
      expectRefused(await anonymous.request(method as 'GET', url, body as never), undefined, 401);
      if (method !== 'GET' && method !== 'DELETE') {
        // No body, or a broken one, must not turn the 401 into a validation message.
        expectRefused(await anonymous.request(method as 'POST', url), undefined, 401);
        const broken = await anonymous.request(method as 'POST', url, '{"a":', {
          'content-type': 'application/json',
        });
        expectRefused(broken, undefined, 401);
      }
    }
  });

  it('applies a demotion at once to the demoted admin session', async () => {
    const name = uniqueName('dm');
    const id = await createUser(root, name, 'password123', 10);
    const demoted = await t.login(name, 'password123');
    expectOk(await demoted.get('/api/user/'));
    expectOk(await root.post('/api/user/manage', { id, action: 'demote' }));
    expectRefused(await demoted.get('/api/user/'), NO_PERMISSION);
    expectOk(await demoted.get('/api/user/self'));
  });
});
