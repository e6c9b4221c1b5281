import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope } from '../helper.ts';
import {
  chatBody,
  createChannel,
  createCommonUser,
  createToken,
  expectOpenAIError,
  type RelayFixture,
  relayPost,
  setOption,
  settledLogs,
  startRelayFixture,
  userBalance,
} from './relay-support.ts';

const MODEL = 'mystery-model-x';

describe('models without a ratio or price (reference §4.3)', () => {
  let f: RelayFixture;
  let rootKey: string;
  let user: { id: number; key: string };

  beforeAll(async () => {
    f = await startRelayFixture();
    await createChannel(f, { models: `${MODEL},gpt-4o-mini` });
    rootKey = (await createToken(f.root)).key;
    const common = await createCommonUser(f, 'unpriced', 10_000_000);
    user = { id: common.id, key: (await createToken(common.client)).key };
  });
  afterAll(async () => f.close());

  it('refuses an unpriced model with 400, reserving nothing and calling no upstream', async () => {
    const before = await userBalance(f, 1);
    const mockCalls = f.mock.requests.length;
    const error = expectOpenAIError(
      await relayPost(f, rootKey, chatBody(MODEL, 'hello')),
      400,
      `模型 ${MODEL} 倍率或价格未配置，请设置或开始自用模式`,
    );
    expect(error.code).toBe('model_price_error');
    expectOpenAIError(
      await relayPost(f, user.key, chatBody(MODEL, 'hello')),
      400,
      `模型 ${MODEL} 倍率或价格未配置，请联系管理员设置`,
    );
    expect(f.mock.requests.length).toBe(mockCalls);
    expect(await userBalance(f, 1)).toEqual(before);
  });

  it('serves it in self-use mode, billed at ratio 37.5', async () => {
    await setOption(f, 'SelfUseModeEnabled', 'true');
    try {
      const before = await userBalance(f, 1);
      const client = new OpenAI({ apiKey: rootKey, baseURL: `${f.baseUrl}/v1`, maxRetries: 0 });
      const completion = await client.chat.completions.create({
        model: MODEL,
        messages: [{ role: 'user', content: 'what does this cost' }],
      });
      const usage = completion.usage!;
      const log = (await settledLogs(f)).at(-1)!;
      const other = JSON.parse(log.other ?? '{}');
      expect(other).toMatchObject({ model_ratio: 37.5, group_ratio: 1, model_price: -1 });
      const expected = Math.round(
        (usage.prompt_tokens + usage.completion_tokens * other.completion_ratio) * 37.5,
      );
      expect(log).toMatchObject({ model_name: MODEL, quota: expected });
      expect(log.content).toContain('模型未配置价格');
      expect(before.quota - (await userBalance(f, 1)).quota).toBe(expected);
    } finally {
      await setOption(f, 'SelfUseModeEnabled', 'false');
    }
    expectOpenAIError(await relayPost(f, rootKey, chatBody(MODEL, 'again')), 400, '倍率或价格未配置');
  });

  it("serves it to a user who accepts unpriced models in the user's own setting", async () => {
    const client = await f.t.login('unpriced', 'password123');
    const saved = envelope(
      await client.put('/api/user/setting', {
        notify_type: 'email',
        quota_warning_threshold: 1000,
        accept_unset_model_ratio_model: true,
      }),
    );
    expect(saved.success, saved.message).toBe(true);
    const reply = await relayPost(f, user.key, chatBody(MODEL, 'opted in'));
    expect(reply.status, reply.text).toBe(200);
    const log = (await settledLogs(f)).at(-1)!;
    expect(log.user_id).toBe(user.id);
    expect(JSON.parse(log.other ?? '{}').model_ratio).toBe(37.5);
  });
});
