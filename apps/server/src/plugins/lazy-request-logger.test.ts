import { Writable } from 'node:stream';
import Fastify from 'fastify';
import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { LazyRequestLogger, lazyChildLoggerFactory } from './lazy-request-logger.ts';

/** A pino logger at `level` whose lines are collected as parsed objects. */
function capture(level: string) {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n')) if (line) lines.push(JSON.parse(line));
      callback();
    },
  });
  return { logger: pino({ level }, stream), lines };
}

describe('LazyRequestLogger', () => {
  it('makes no child for levels that are off, and one child with the bindings for the first line', () => {
    const { logger, lines } = capture('warn');
    const child = vi.spyOn(logger, 'child');
    const lazy = new LazyRequestLogger(logger, { reqId: 'r1' });
    lazy.info('incoming request');
    lazy.debug({ a: 1 }, 'detail');
    lazy.trace('x');
    expect(child).not.toHaveBeenCalled();
    expect(lines).toHaveLength(0);
    lazy.warn({ code: 7 }, 'slow upstream');
    lazy.error('failed %s', 'twice');
    expect(child).toHaveBeenCalledTimes(1);
    expect(lines).toEqual([
      expect.objectContaining({ level: 40, reqId: 'r1', code: 7, msg: 'slow upstream' }),
      expect.objectContaining({ level: 50, reqId: 'r1', msg: 'failed twice' }),
    ]);
  });

  it('answers level checks like the parent, then like its child once the level changes', () => {
    const { logger, lines } = capture('info');
    const lazy = new LazyRequestLogger(logger, { reqId: 'r2' });
    expect(lazy.level).toBe('info');
    expect(lazy.isLevelEnabled('debug')).toBe(false);
    lazy.level = 'debug';
    expect(logger.level).toBe('info');
    expect(lazy.isLevelEnabled('debug')).toBe(true);
    lazy.debug('now on');
    expect(lines).toEqual([expect.objectContaining({ level: 20, reqId: 'r2', msg: 'now on' })]);
  });

  it('gives children that keep the request binding and add their own', () => {
    const { logger, lines } = capture('info');
    new LazyRequestLogger(logger, { reqId: 'r3' }).child({ stage: 'relay' }).info('step');
    expect(lines).toEqual([expect.objectContaining({ reqId: 'r3', stage: 'relay', msg: 'step' })]);
  });
});

describe('lazyChildLoggerFactory in Fastify', () => {
  it('binds the request id to what a route logs and writes nothing below the level', async () => {
    const { logger, lines } = capture('warn');
    const app = Fastify({ loggerInstance: logger, childLoggerFactory: lazyChildLoggerFactory });
    app.get('/quiet', async (request) => {
      request.log.info('not written');
      return { ok: true };
    });
    app.get('/loud', async (request) => {
      request.log.warn({ detail: 'x' }, 'written');
      return { ok: true };
    });
    await app.inject({ url: '/quiet' });
    expect(lines).toHaveLength(0);
    const response = await app.inject({ url: '/loud' });
    expect(response.statusCode).toBe(200);
    expect(lines).toEqual([expect.objectContaining({ level: 40, detail: 'x', msg: 'written' })]);
    expect(typeof lines[0]!.reqId).toBe('string');
    await app.close();
  });

  it('falls back to pino children when a route sets its own log level', async () => {
    const { logger, lines } = capture('warn');
    const app = Fastify({ loggerInstance: logger, childLoggerFactory: lazyChildLoggerFactory });
    app.get('/debug', { logLevel: 'debug' }, async (request) => {
      expect(request.log).not.toBeInstanceOf(LazyRequestLogger);
      request.log.debug('route detail');
      return { ok: true };
    });
    const response = await app.inject({ url: '/debug' });
    expect(response.statusCode).toBe(200);
    expect(lines.some((line) => line.msg === 'route detail' && typeof line.reqId === 'string')).toBe(true);
    await app.close();
  });
});
