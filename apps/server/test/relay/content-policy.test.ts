import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createChannel,
  createToken,
  type RelayFixture,
  setOption,
  startRelayFixture,
  userBalance,
} from './relay-support.ts';

describe('sensitive words on prompts', () => {
  let f: RelayFixture;
  let client: OpenAI;
  beforeAll(async () => {
    f = await startRelayFixture();
    await createChannel(f);
    client = new OpenAI({
      apiKey: (await createToken(f.root)).key,
      baseURL: `${f.baseUrl}/v1`,
      maxRetries: 0,
    });
  });
  afterAll(async () => f.close());

  const ask = (content: unknown) =>
    client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content } as never] });

  it('refuses a prompt containing a listed word before reserving anything, and logs it', async () => {
    await setOption(f, 'SensitiveWords', 'forbidden thing\nTest_Sensitive\n违禁词');
    await setOption(f, 'ErrorLogEnabled', 'true');
    const before = await userBalance(f, 1);
    const requestsBefore = f.mock.requests.length;
    const error = await ask([{ type: 'text', text: 'a FORBIDDEN THING and 违禁词 here' }]).catch((e) => e);
    expect(error.status).toBe(400);
    expect(error.error.code).toBe('sensitive_words_detected');
    expect(error.error.message).toContain('forbidden thing');
    expect(error.error.message).toContain('违禁词');
    expect(f.mock.requests.length).toBe(requestsBefore);
    expect((await userBalance(f, 1)).quota).toBe(before.quota);
    await f.t.app.services.relay.drain();
    const rows = await f.t.app.services.logDatabase.db
      .selectFrom('logs')
      .selectAll()
      .where('type', '=', 5)
      .execute();
    expect(rows.at(-1)?.content).toContain('forbidden thing');
  });

  it('lets the prompt through when the check is off', async () => {
    await setOption(f, 'CheckSensitiveOnPromptEnabled', 'false');
    const completion = await ask('a forbidden thing');
    expect(completion.choices[0]?.message.content).toContain('Hello from mock');
    await setOption(f, 'CheckSensitiveOnPromptEnabled', 'true');
    await setOption(f, 'CheckSensitiveEnabled', 'false');
    expect((await ask('test_sensitive')).choices).toHaveLength(1);
  });
});
