import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { errors, Agent as UndiciAgent } from 'undici';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { onAbort, RelayAbort } from './relay-abort.ts';

describe('RelayAbort', () => {
  it('tells each listener once and stays aborted', () => {
    const abort = new RelayAbort();
    const first = vi.fn();
    const second = vi.fn();
    onAbort(abort, first);
    onAbort(abort, second);
    expect(abort.aborted).toBe(false);
    abort.abort();
    abort.abort();
    expect(abort.aborted).toBe(true);
    expect(first).toHaveBeenCalledTimes(1);
    expect(second).toHaveBeenCalledTimes(1);
  });

  it('does not warn with many listeners (one per attempt)', () => {
    const warning = vi.fn();
    process.on('warning', warning);
    const abort = new RelayAbort();
    for (let i = 0; i < 30; i++) onAbort(abort, () => {});
    process.off('warning', warning);
    expect(abort.listenerCount('abort')).toBe(30);
    expect(warning).not.toHaveBeenCalled();
  });

  it('also listens on a standard AbortSignal', () => {
    const controller = new AbortController();
    const listener = vi.fn();
    onAbort(controller.signal, listener);
    controller.abort();
    expect(listener).toHaveBeenCalledTimes(1);
  });

  describe('as an undici signal', () => {
    const server = createServer((_request, response) => {
      // Answers only after a while: the abort must cut the wait short.
      setTimeout(() => response.end('late'), 5_000).unref();
    });
    const agent = new UndiciAgent();
    let origin = '';
    beforeAll(async () => {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      await agent.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    });

    it('aborts a request waiting for its headers', async () => {
      const abort = new RelayAbort();
      const started = Date.now();
      const pending = agent.request({ origin, path: '/', method: 'GET', signal: abort });
      setTimeout(() => abort.abort(), 50);
      await expect(pending).rejects.toBeInstanceOf(errors.RequestAbortedError);
      expect(Date.now() - started).toBeLessThan(2_000);
      // undici removed its listener once the request ended.
      expect(abort.listenerCount('abort')).toBe(0);
    });

    it('refuses at once when already aborted', async () => {
      const abort = new RelayAbort();
      abort.abort();
      await expect(agent.request({ origin, path: '/', method: 'GET', signal: abort })).rejects.toBeInstanceOf(
        errors.RequestAbortedError,
      );
    });
  });
});
