import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startMockUpstream } from './mock-upstream-server.ts';
import { openAiHeaders, postJson, testFetch } from './testing-helpers.ts';

const chat = { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] };

describe('startMockUpstream', () => {
  it('records requests (method, path, headers, parsed body, scenario, time) in a capped buffer', async () => {
    const mock = await startMockUpstream({ recordLimit: 2 });
    try {
      expect(mock.url).toBe(`http://127.0.0.1:${mock.port}`);
      const before = Date.now();
      await postJson(mock, '/__mock/no-usage/v1/chat/completions?x=1', chat);
      const [recorded] = mock.requests;
      expect(recorded).toMatchObject({
        method: 'POST',
        path: '/v1/chat/completions',
        url: '/__mock/no-usage/v1/chat/completions?x=1',
        body: chat,
        scenario: 'no-usage',
      });
      expect(recorded?.headers.authorization).toBe('Bearer sk-test');
      expect(recorded?.time).toBeGreaterThanOrEqual(before);
      await postJson(mock, '/v1/chat/completions', chat);
      await postJson(mock, '/v1/embeddings', { model: 'e', input: 'x' });
      expect(mock.requests.map((request) => request.path)).toEqual([
        '/v1/chat/completions',
        '/v1/embeddings',
      ]);
      mock.clearRequests();
      expect(mock.requests).toEqual([]);
    } finally {
      await mock.close();
    }
  });

  it('serves the admin endpoints without recording them', async () => {
    const mock = await startMockUpstream();
    try {
      await postJson(mock, '/v1/chat/completions', chat);
      const health = await (await testFetch(`${mock.url}/__admin/health`)).json();
      expect(health).toMatchObject({ status: 'ok', recordedRequests: 1 });
      expect(health.openConnections).toBeGreaterThanOrEqual(1);
      const listed = await (await testFetch(`${mock.url}/__admin/requests`)).json();
      expect(listed.requests).toHaveLength(1);
      expect(listed.requests[0].body).toEqual(chat);
      const cleared = await (await testFetch(`${mock.url}/__admin/requests`, { method: 'DELETE' })).json();
      expect(cleared).toEqual({ cleared: 1 });
      expect(mock.requests).toEqual([]);
    } finally {
      await mock.close();
    }
  });

  it('closes promptly while streams and timed-out requests are still open', async () => {
    const mock = await startMockUpstream();
    const slow = await postJson(mock, '/__mock/slow-stream-5000/v1/chat/completions', {
      ...chat,
      stream: true,
    });
    const reading = slow.text().catch((error: unknown) => error);
    const hanging = testFetch(`${mock.url}/__mock/timeout/v1/chat/completions`, {
      method: 'POST',
      headers: openAiHeaders,
      body: JSON.stringify(chat),
    }).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = performance.now();
    await mock.close();
    expect(performance.now() - started).toBeLessThan(500);
    expect(await reading).toBeInstanceOf(Error);
    expect(await hanging).toBeInstanceOf(Error);
  });
});

describe('cli', () => {
  it('prints the URL it listens on and serves requests', async () => {
    const cliPath = fileURLToPath(new URL('./cli.ts', import.meta.url));
    const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', cliPath, '--port', '0'], {
      cwd: repositoryRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let output = '';
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          const match = /(http:\/\/\S+)/.exec(output);
          if (match?.[1]) resolve(match[1]);
        });
        child.once('exit', (code) => reject(new Error(`cli exited with ${code}`)));
      });
      const health = await (await testFetch(`${url}/__admin/health`)).json();
      expect(health.status).toBe('ok');
    } finally {
      child.kill('SIGTERM');
    }
  }, 15_000);
});
