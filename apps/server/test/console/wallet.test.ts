import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyEpaySignature } from '../../src/console/wallet/epay-signature.ts';
import { buildTestApp, type ConsoleClient, type TestApp } from '../helper.ts';
import {
  createUser,
  expectOk,
  expectRefused,
  ROOT_PASSWORD,
  setOption,
  uniqueName,
} from './console-support.ts';
import {
  configureEpay,
  createOrder,
  EPAY_ID,
  EPAY_KEY,
  PAY_ADDRESS,
  SERVER_ADDRESS,
} from './wallet-support.ts';

/** Online top-up: POST /api/user/amount (price preview) and POST /api/user/pay (Epay order). */

const PASSWORD = 'password123';

let t: TestApp;
let root: ConsoleClient;
let user: ConsoleClient;
let vip: ConsoleClient;

beforeAll(async () => {
  t = await buildTestApp();
  root = await t.login('root', ROOT_PASSWORD);
  const userName = uniqueName('wal');
  await createUser(root, userName, PASSWORD);
  user = await t.login(userName, PASSWORD);
  const vipName = uniqueName('vip');
  const vipId = await createUser(root, vipName, PASSWORD);
  expectOk(await root.put('/api/user/', { id: vipId, group: 'vip' }));
  vip = await t.login(vipName, PASSWORD);
});
afterAll(async () => t.close());

const orders = () => t.app.services.database.db.selectFrom('top_ups').selectAll().orderBy('id').execute();

async function withOptions(values: Record<string, string | boolean | number>, work: () => Promise<void>) {
  const defaults: Record<string, string | boolean> = {
    DisplayInCurrencyEnabled: true,
    MinTopUp: '1',
    Price: '7.3',
    TopupGroupRatio: JSON.stringify({ default: 1, vip: 1, svip: 1 }),
    CustomCallbackAddress: '',
    ServerAddress: SERVER_ADDRESS,
  };
  for (const [key, value] of Object.entries(values)) await setOption(root, key, value);
  try {
    await work();
  } finally {
    for (const key of Object.keys(values)) await setOption(root, key, defaults[key]!);
  }
}

describe('before Epay is configured', () => {
  it('refuses amount and pay while online top-up is off', async () => {
    expectRefused(await user.post('/api/user/amount', { amount: 3 }), '管理员未开启在线充值！');
    expectRefused(
      await user.post('/api/user/pay', { amount: 3, payment_method: 'zfb' }),
      '管理员未开启在线充值！',
    );
    await setOption(root, 'PayAddress', PAY_ADDRESS);
    await setOption(root, 'EpayId', EPAY_ID);
    // Still off: the key is missing.
    expectRefused(await user.post('/api/user/amount', { amount: 3 }), '管理员未开启在线充值！');
    await setOption(root, 'EpayKey', EPAY_KEY);
    // On now, but an order needs the server address for its callback and return pages.
    expect(expectOk(await user.post('/api/user/amount', { amount: 3 }))).toBe('21.90');
    expectRefused(
      await user.post('/api/user/pay', { amount: 3, payment_method: 'zfb' }),
      '管理员未设置服务器地址，无法发起在线充值',
    );
    expect(await orders()).toEqual([]);
    await configureEpay(root);
  });
});

describe('POST /api/user/amount', () => {
  it('answers the payable sum with two decimals and message success', async () => {
    const response = await user.post('/api/user/amount', { amount: 3, top_up_code: '' });
    expect(response.json()).toEqual({ success: true, message: 'success', data: '21.90' });
    expect(expectOk(await user.post('/api/user/amount', { amount: 1 }))).toBe('7.30');
    expect(expectOk(await user.post('/api/user/amount', { amount: 100 }))).toBe('730.00');
  });

  it('applies the TopupGroupRatio of the user group (a 0 ratio counts as 1)', async () => {
    await withOptions({ TopupGroupRatio: JSON.stringify({ default: 1, vip: 0.5 }) }, async () => {
      expect(expectOk(await vip.post('/api/user/amount', { amount: 3 }))).toBe('10.95');
      expect(expectOk(await user.post('/api/user/amount', { amount: 3 }))).toBe('21.90');
    });
    await withOptions({ TopupGroupRatio: JSON.stringify({ default: 1, vip: 0 }) }, async () => {
      expect(expectOk(await vip.post('/api/user/amount', { amount: 3 }))).toBe('21.90');
    });
    await withOptions({ TopupGroupRatio: JSON.stringify({ default: 2 }), Price: '1' }, async () => {
      // A group missing from the map counts as 1.
      expect(expectOk(await vip.post('/api/user/amount', { amount: 3 }))).toBe('3.00');
      expect(expectOk(await user.post('/api/user/amount', { amount: 3 }))).toBe('6.00');
    });
  });

  it('enforces MinTopUp and refuses sums of 0.01 or less', async () => {
    await withOptions({ MinTopUp: '5' }, async () => {
      expectRefused(await user.post('/api/user/amount', { amount: 4 }), '充值数量不能小于 5');
      expect(expectOk(await user.post('/api/user/amount', { amount: 5 }))).toBe('36.50');
    });
    expectRefused(await user.post('/api/user/amount', { amount: 0 }), '充值数量不能小于 1');
    expectRefused(await user.post('/api/user/amount', { amount: -10 }), '充值数量不能小于 1');
    await withOptions({ Price: '0.001' }, async () => {
      expectRefused(await user.post('/api/user/amount', { amount: 10 }), '充值金额过低');
      expect(expectOk(await user.post('/api/user/amount', { amount: 11 }))).toBe('0.01');
    });
    await withOptions({ Price: '0' }, async () => {
      expectRefused(await user.post('/api/user/amount', { amount: 10 }), '充值金额过低');
    });
    expectRefused(await user.post('/api/user/amount', { amount: 9_000_000_000 }), '充值数量过大');
  });

  it('reads raw quota units when currency display is off', async () => {
    await withOptions({ DisplayInCurrencyEnabled: false }, async () => {
      expect(expectOk(await user.post('/api/user/amount', { amount: 1_500_000 }))).toBe('21.90');
      expectRefused(await user.post('/api/user/amount', { amount: 3 }), '充值数量不能小于 500000');
      expectRefused(await user.post('/api/user/amount', { amount: 400_000 }), '充值数量不能小于 500000');
      expectRefused(
        await user.post('/api/user/amount', { amount: 750_000 }),
        '充值数量必须是 500000 的整数倍',
      );
    });
  });

  it('refuses bad bodies and anonymous callers without a 500', async () => {
    for (const body of [{}, { amount: '3' }, { amount: 1.5 }, { amount: null }, { amount: [3] }, []]) {
      expectRefused(await user.post('/api/user/amount', body as never), /无效的参数/);
    }
    expectRefused(await user.post('/api/user/amount', 'amount=3'), /Content-Type/, 415);
    expect((await t.anonymous().post('/api/user/amount', { amount: 3 })).statusCode).toBe(401);
  });
});

describe('POST /api/user/pay', () => {
  it('creates a pending order and answers the signed Epay form and its URL', async () => {
    const before = Math.floor(Date.now() / 1000);
    const response = await user.post('/api/user/pay', { amount: 3, payment_method: 'zfb', top_up_code: '' });
    const body = response.json();
    expect(body).toMatchObject({ success: true, message: 'success', url: `${PAY_ADDRESS}/submit.php` });
    const form = body.data as Record<string, string>;
    expect(Object.keys(form).sort()).toEqual(
      [
        'device',
        'money',
        'name',
        'notify_url',
        'out_trade_no',
        'pid',
        'return_url',
        'sign',
        'sign_type',
        'type',
      ].sort(),
    );
    expect(form).toMatchObject({
      pid: EPAY_ID,
      type: 'alipay',
      notify_url: `${SERVER_ADDRESS}/api/user/epay/notify`,
      return_url: `${SERVER_ADDRESS}/log`,
      name: 'TUC3',
      money: '21.90',
      device: 'pc',
      sign_type: 'MD5',
    });
    expect(form.out_trade_no).toMatch(new RegExp(`^USR${user.userId}NO[0-9A-Za-z]{8}\\d{10}$`));
    expect(form.sign).toMatch(/^[0-9a-f]{32}$/);
    expect(verifyEpaySignature(form, EPAY_KEY)).toBe(true);
    const [order] = (await orders()).filter((row) => row.trade_no === form.out_trade_no);
    expect(order).toMatchObject({ user_id: user.userId, status: 'pending', payment_method: 'alipay' });
    expect(Number(order!.amount)).toBe(3);
    expect(Number(order!.money)).toBeCloseTo(21.9, 10);
    expect(Number(order!.create_time)).toBeGreaterThanOrEqual(before);
    expect(Number(order!.complete_time)).toBe(0);
  });

  it('maps wx to wxpay, gives every order its own trade number and refuses other methods', async () => {
    const a = await createOrder(user, 2, 'wx');
    const b = await createOrder(user, 2, 'wx');
    expect(a.type).toBe('wxpay');
    expect(a.out_trade_no).not.toBe(b.out_trade_no);
    const count = (await orders()).length;
    for (const method of ['paypal', '', 'ZFB']) {
      expectRefused(
        await user.post('/api/user/pay', { amount: 2, payment_method: method }),
        '不支持的支付方式',
      );
    }
    expect((await orders()).length).toBe(count);
  });

  it('sends the notification to CustomCallbackAddress when set', async () => {
    await withOptions({ CustomCallbackAddress: 'https://callback.example.com/' }, async () => {
      const form = await createOrder(user, 2);
      expect(form.notify_url).toBe('https://callback.example.com/api/user/epay/notify');
      expect(form.return_url).toBe(`${SERVER_ADDRESS}/log`);
    });
  });

  it('prices for the group and stores dollars when currency display is off', async () => {
    await withOptions({ TopupGroupRatio: JSON.stringify({ default: 1, vip: 0.8 }) }, async () => {
      const form = await createOrder(vip, 10);
      expect(form.money).toBe('58.40');
      const [order] = (await orders()).filter((row) => row.trade_no === form.out_trade_no);
      expect(Number(order!.money)).toBeCloseTo(58.4, 10);
    });
    await withOptions({ DisplayInCurrencyEnabled: false }, async () => {
      const form = await createOrder(user, 1_500_000);
      expect(form).toMatchObject({ name: 'TUC1500000', money: '21.90' });
      const [order] = (await orders()).filter((row) => row.trade_no === form.out_trade_no);
      expect(Number(order!.amount)).toBe(3);
    });
  });

  it('applies the same amount rules as the preview and creates nothing when refused', async () => {
    const count = (await orders()).length;
    await withOptions({ MinTopUp: '5' }, async () => {
      expectRefused(
        await user.post('/api/user/pay', { amount: 4, payment_method: 'zfb' }),
        '充值数量不能小于 5',
      );
    });
    await withOptions({ Price: '0.001' }, async () => {
      expectRefused(await user.post('/api/user/pay', { amount: 10, payment_method: 'zfb' }), '充值金额过低');
    });
    for (const body of [
      { amount: 3 },
      { payment_method: 'zfb' },
      { amount: '3', payment_method: 'zfb' },
      { amount: 3, payment_method: 1 },
    ]) {
      expectRefused(await user.post('/api/user/pay', body as never), /无效的参数/);
    }
    expect((await t.anonymous().post('/api/user/pay', { amount: 3, payment_method: 'zfb' })).statusCode).toBe(
      401,
    );
    expect((await orders()).length).toBe(count);
  });
});
