import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withEpaySignature } from '../../src/console/wallet/epay-signature.ts';
import { buildTestApp, type ConsoleClient, type TestApp } from '../helper.ts';
import { buildPeerApp, createUser, ROOT_PASSWORD, setOption, uniqueName } from './console-support.ts';
import { configureEpay, createOrder, EPAY_KEY, paidNotification } from './wallet-support.ts';

/**
 * Epay's payment notification, GET or POST /api/user/epay/notify: credited exactly once, and only
 * for a genuine notification whose pid, order and paid sum all match.
 */

const PASSWORD = 'password123';
const NOTIFY = '/api/user/epay/notify';
/** Quota of a 3-dollar order at the default QuotaPerUnit. */
const THREE_DOLLARS = 1_500_000;

let t: TestApp;
let root: ConsoleClient;

beforeAll(async () => {
  t = await buildTestApp();
  root = await t.login('root', ROOT_PASSWORD);
  await configureEpay(root);
});
afterAll(async () => t.close());

async function newUser(): Promise<ConsoleClient> {
  const name = uniqueName('epy');
  await createUser(root, name, PASSWORD);
  return t.login(name, PASSWORD);
}

/** Delivers a notification as Epay would: GET with a query string, or POST with a form body. */
async function deliver(
  params: Record<string, string>,
  how: 'get' | 'post' = 'get',
  app: FastifyInstance = t.app,
): Promise<string> {
  const encoded = new URLSearchParams(params).toString();
  const response =
    how === 'get'
      ? await app.inject({ method: 'GET', url: `${NOTIFY}?${encoded}` })
      : await app.inject({
          method: 'POST',
          url: NOTIFY,
          payload: encoded,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toMatch(/^text\/plain/);
  return response.body;
}

const quotaOf = async (client: ConsoleClient) => (await t.app.services.users.findById(client.userId!))!.quota;
const orderOf = (tradeNo: string) =>
  t.app.services.database.db
    .selectFrom('top_ups')
    .selectAll()
    .where('trade_no', '=', tradeNo)
    .executeTakeFirstOrThrow();
const topUpLogs = (userId: number) =>
  t.app.services.logDatabase.db
    .selectFrom('logs')
    .selectAll()
    .where('type', '=', 1)
    .where('user_id', '=', userId)
    .execute();

/** Asserts the order is still pending and nothing reached the user. */
async function expectNothingCredited(user: ConsoleClient, tradeNo: string) {
  expect((await orderOf(tradeNo)).status).toBe('pending');
  expect(await quotaOf(user)).toBe(0);
  expect(await topUpLogs(user.userId!)).toHaveLength(0);
}

describe('a genuine notification', () => {
  it('credits amount × QuotaPerUnit once, completes the order and logs it (GET)', async () => {
    const user = await newUser();
    const order = await createOrder(user, 3);
    const before = Math.floor(Date.now() / 1000);
    const notification = paidNotification(order);
    expect(await deliver(notification)).toBe('success');
    expect(await quotaOf(user)).toBe(THREE_DOLLARS);
    const stored = await orderOf(order.out_trade_no!);
    expect(stored.status).toBe('success');
    expect(Number(stored.complete_time)).toBeGreaterThanOrEqual(before);
    const logs = await topUpLogs(user.userId!);
    expect(logs).toHaveLength(1);
    expect(logs[0]!.content).toBe('使用在线充值成功，充值金额: $3.000000 额度，支付金额：21.90');

    // Epay retries until it reads `success`: a repeat is acknowledged and changes nothing.
    expect(await deliver(notification)).toBe('success');
    expect(await deliver(notification, 'post')).toBe('success');
    expect(await quotaOf(user)).toBe(THREE_DOLLARS);
    expect(await topUpLogs(user.userId!)).toHaveLength(1);
  });

  it('is accepted as a POST form, as a POST query string and with the sum written as 21.9', async () => {
    const user = await newUser();
    const first = await createOrder(user, 3);
    expect(await deliver(paidNotification(first), 'post')).toBe('success');
    const second = await createOrder(user, 3, 'wx');
    const query = new URLSearchParams(paidNotification(second, { money: '21.9' })).toString();
    const response = await t.app.inject({ method: 'POST', url: `${NOTIFY}?${query}` });
    expect(response.body).toBe('success');
    const third = await createOrder(user, 3);
    const text = await t.app.inject({
      method: 'POST',
      url: NOTIFY,
      payload: new URLSearchParams(paidNotification(third)).toString(),
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.body).toBe('success');
    expect(await quotaOf(user)).toBe(3 * THREE_DOLLARS);
    expect(await topUpLogs(user.userId!)).toHaveLength(3);
  });

  it('credits once when delivered 5 times at once', async () => {
    const user = await newUser();
    const order = await createOrder(user, 3);
    const notification = paidNotification(order);
    const answers = await Promise.all(
      ['get', 'post', 'get', 'post', 'get'].map((how) => deliver(notification, how as 'get' | 'post')),
    );
    expect(answers).toEqual(Array(5).fill('success'));
    expect(await quotaOf(user)).toBe(THREE_DOLLARS);
    expect(await topUpLogs(user.userId!)).toHaveLength(1);
    expect((await orderOf(order.out_trade_no!)).status).toBe('success');
  });

  it('credits once when delivered 10 times at once to two nodes sharing the database', async () => {
    const peer = await buildPeerApp(t.database.target);
    try {
      const user = await newUser();
      const order = await createOrder(user, 3);
      const notification = paidNotification(order);
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, index) =>
          deliver(notification, index % 3 === 0 ? 'post' : 'get', index % 2 === 0 ? t.app : peer),
        ),
      );
      expect(answers).toEqual(Array(10).fill('success'));
      expect(await quotaOf(user)).toBe(THREE_DOLLARS);
      expect(await topUpLogs(user.userId!)).toHaveLength(1);
    } finally {
      await peer.close();
    }
  });

  it('acknowledges a signed notification of an unpaid trade without crediting', async () => {
    const user = await newUser();
    const order = await createOrder(user, 3);
    expect(await deliver(paidNotification(order, { trade_status: 'WAIT_BUYER_PAY' }))).toBe('success');
    await expectNothingCredited(user, order.out_trade_no!);
    // The payment notification that follows still credits.
    expect(await deliver(paidNotification(order))).toBe('success');
    expect(await quotaOf(user)).toBe(THREE_DOLLARS);
  });
});

describe('a forged or mismatched notification credits nothing', () => {
  it('refuses a signature made with another key, a missing or malformed sign, and a sign_type other than MD5', async () => {
    const user = await newUser();
    const order = await createOrder(user, 3);
    const genuine = paidNotification(order);
    const { sign: _sign, ...unsigned } = genuine;
    for (const forged of [
      paidNotification(order, {}, 'guessed-key'),
      unsigned,
      { ...genuine, sign: '' },
      { ...genuine, sign: 'not-hex' },
      { ...genuine, sign: '0'.repeat(32) },
      { ...genuine, sign_type: 'RSA' },
    ]) {
      expect(await deliver(forged)).toBe('fail');
      expect(await deliver(forged, 'post')).toBe('fail');
    }
    await expectNothingCredited(user, order.out_trade_no!);
    // The genuine one still works afterwards.
    expect(await deliver(genuine)).toBe('success');
    expect(await quotaOf(user)).toBe(THREE_DOLLARS);
  });

  it('refuses altered values: a changed sum, another order number, another status', async () => {
    const user = await newUser();
    const order = await createOrder(user, 3);
    const genuine = paidNotification(order);
    for (const altered of [
      { ...genuine, money: '0.01' },
      { ...genuine, out_trade_no: `${order.out_trade_no}x` },
      { ...paidNotification(order, { trade_status: 'WAIT_BUYER_PAY' }), trade_status: 'TRADE_SUCCESS' },
      { ...genuine, extra: 'field' },
    ]) {
      expect(await deliver(altered)).toBe('fail');
    }
    await expectNothingCredited(user, order.out_trade_no!);
  });

  it('refuses a correctly signed notification whose paid sum differs from the order', async () => {
    const user = await newUser();
    const order = await createOrder(user, 3);
    for (const money of ['0.01', '21.89', '21.91', '2190', '-21.90', '21.9x', '']) {
      expect(await deliver(paidNotification(order, { money }))).toBe('fail');
    }
    await expectNothingCredited(user, order.out_trade_no!);
  });

  it('refuses an unknown order, a missing order number and another merchant id', async () => {
    const user = await newUser();
    const order = await createOrder(user, 3);
    expect(await deliver(paidNotification(order, { out_trade_no: 'USR1NOunknown1700000000' }))).toBe('fail');
    expect(await deliver(paidNotification(order, { out_trade_no: '' }))).toBe('fail');
    expect(await deliver(paidNotification(order, { pid: '9999' }))).toBe('fail');
    expect(await deliver(paidNotification(order, { pid: '' }))).toBe('fail');
    await expectNothingCredited(user, order.out_trade_no!);
  });

  it('refuses repeated parameters, unreadable bodies and a bare call without a 500', async () => {
    const user = await newUser();
    const order = await createOrder(user, 3);
    const genuine = paidNotification(order);
    const encoded = new URLSearchParams(genuine).toString();
    const responses = await Promise.all([
      t.app.inject({ method: 'GET', url: `${NOTIFY}?${encoded}&money=0.01` }),
      t.app.inject({ method: 'GET', url: NOTIFY }),
      t.app.inject({ method: 'POST', url: NOTIFY }),
      t.app.inject({
        method: 'POST',
        url: NOTIFY,
        payload: `${encoded}&money=0.01`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
      t.app.inject({
        method: 'POST',
        url: NOTIFY,
        payload: '{"pid":',
        headers: { 'content-type': 'application/json' },
      }),
      t.app.inject({
        method: 'POST',
        url: NOTIFY,
        payload: '[1,2]',
        headers: { 'content-type': 'application/json' },
      }),
      t.app.inject({
        method: 'POST',
        url: NOTIFY,
        payload: JSON.stringify({ ...genuine, money: ['21.90'] }),
        headers: { 'content-type': 'application/json' },
      }),
      t.app.inject({
        method: 'POST',
        url: NOTIFY,
        payload: 'x',
        headers: { 'content-type': 'application/xml' },
      }),
      t.app.inject({
        method: 'POST',
        url: NOTIFY,
        payload: `${encoded}&pad=${'a'.repeat(40_000)}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
    ]);
    for (const response of responses) {
      expect(response.statusCode, response.body).toBe(200);
      expect(response.body).toBe('fail');
    }
    await expectNothingCredited(user, order.out_trade_no!);
  });

  it('answers fail while online top-up is not configured', async () => {
    const user = await newUser();
    const order = await createOrder(user, 3);
    await setOption(root, 'EpayKey', '');
    try {
      expect(await deliver(paidNotification(order))).toBe('fail');
      // Signed with an empty key: still refused.
      expect(await deliver(withEpaySignature({ ...paidNotification(order) }, ''))).toBe('fail');
    } finally {
      await setOption(root, 'EpayKey', EPAY_KEY);
    }
    await expectNothingCredited(user, order.out_trade_no!);
  });
});
