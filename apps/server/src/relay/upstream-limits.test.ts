import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { releaseWhenDone, UpstreamLimits } from './upstream-limits.ts';

describe('UpstreamLimits', () => {
  it('refuses a node slot beyond the global cap and frees it once per release', () => {
    const limits = new UpstreamLimits(2);
    const first = limits.enterNode();
    const second = limits.enterNode();
    expect(first).not.toBeNull();
    expect(second).not.toBeNull();
    expect(limits.enterNode()).toBeNull();
    first?.();
    first?.();
    expect(limits.inFlight).toBe(1);
    expect(limits.enterNode()).not.toBeNull();
    expect(limits.enterNode()).toBeNull();
  });

  it('has no node cap when none is configured', () => {
    const limits = new UpstreamLimits(null);
    for (let i = 0; i < 1000; i++) expect(limits.enterNode()).not.toBeNull();
    expect(limits.inFlight).toBe(1000);
  });

  it('caps each channel on its own', () => {
    const limits = new UpstreamLimits(null);
    const a = limits.enterChannel(1, 1);
    expect(a).not.toBeNull();
    expect(limits.enterChannel(1, 1)).toBeNull();
    expect(limits.enterChannel(2, 1)).not.toBeNull();
    expect(limits.enterChannel(3, null)).not.toBeNull();
    a?.();
    a?.();
    expect(limits.inFlightOf(1)).toBe(0);
    expect(limits.enterChannel(1, 1)).not.toBeNull();
  });
});

describe('releaseWhenDone', () => {
  const body = () => Object.assign(new EventEmitter(), { destroyed: false, readableEnded: false });

  it('frees the slot when the body closes, once', () => {
    const limits = new UpstreamLimits(1);
    const release = limits.enterNode()!;
    const stream = body();
    releaseWhenDone(stream, new AbortController().signal, release);
    expect(limits.inFlight).toBe(1);
    stream.emit('end');
    stream.emit('close');
    expect(limits.inFlight).toBe(0);
  });

  it('frees the slot when the client aborts, or at once for a finished body', () => {
    const limits = new UpstreamLimits(null);
    const controller = new AbortController();
    releaseWhenDone(body(), controller.signal, limits.enterNode()!);
    releaseWhenDone(Object.assign(body(), { readableEnded: true }), controller.signal, limits.enterNode()!);
    expect(limits.inFlight).toBe(1);
    controller.abort();
    expect(limits.inFlight).toBe(0);
  });
});
