import { describe, expect, it } from 'vitest';
import { Lifecycle, type SubsystemClose } from './lifecycle.ts';

/** The app's money path and its neighbours, as start/ declares them. */
const APP_LIKE: Array<[string, Omit<SubsystemClose<string>, 'close'>]> = [
  ['databases', { base: true }],
  ['redis', {}],
  ['bus', {}],
  ['rate-limiter', { needs: ['redis'] }],
  ['node-instance', {}],
  ['quota-data', {}],
  ['settlement-writer', { needs: ['node-instance'] }],
  ['log-writer', { needs: ['settlement-writer'] }],
  ['ledger', { needs: ['settlement-writer', 'node-instance'] }],
  ['relay', { needs: ['ledger', 'log-writer', 'settlement-writer', 'quota-data', 'bus', 'rate-limiter'] }],
  ['orphan-sweeper', { needs: ['ledger', 'node-instance'] }],
  ['ledger-sweeper', { needs: ['node-instance'] }],
  ['channel-monitor', { needs: ['relay', 'log-writer', 'bus'] }],
  ['task-poller', { needs: ['ledger', 'log-writer', 'bus'] }],
  ['option-sync', {}],
];

/** A seeded shuffle (mulberry32), so a failure names the order that broke. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  let state = seed;
  const random = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

const quiet = { info: () => undefined, error: () => undefined };

/** Registers `entries` in their order and returns the lifecycle and the order closes ran in. */
function build(entries: Array<[string, Omit<SubsystemClose<string>, 'close'>]>, reverse = false) {
  const lifecycle = new Lifecycle({ reverseRegistrations: reverse });
  const closed: string[] = [];
  for (const [name, subsystem] of entries) {
    lifecycle.register(name, { ...subsystem, close: () => void closed.push(name) });
  }
  return { lifecycle, closed };
}

describe('Lifecycle', () => {
  it('closes in the same order however registration is shuffled, after everything that needs it', async () => {
    const expected = build(APP_LIKE).lifecycle.closeOrder();
    for (let seed = 1; seed <= 200; seed++) {
      const { lifecycle, closed } = build(shuffled(APP_LIKE, seed), seed % 2 === 0);
      await lifecycle.close(quiet);
      expect(closed, `seed ${seed}`).toEqual(expected);
    }
    const at = (name: string) => expected.indexOf(name);
    for (const [name, { needs = [] }] of APP_LIKE) {
      for (const need of needs) expect(at(name), `${name} before ${need}`).toBeLessThan(at(need));
    }
    // The money path: the relay's calls, then the ledger, the last batch, the node row, the databases.
    const moneyPath = ['relay', 'ledger', 'settlement-writer', 'node-instance', 'databases'].map(at);
    expect(moneyPath).toEqual([...moneyPath].sort((a, b) => a - b));
  });

  it('closes the databases (a base subsystem) last, though no subsystem names them', async () => {
    for (let seed = 1; seed <= 50; seed++) {
      const { lifecycle, closed } = build(shuffled(APP_LIKE, seed));
      await lifecycle.close(quiet);
      expect(closed.at(-1)).toBe('databases');
    }
  });

  it('orders subsystems no need orders by their names', () => {
    const { lifecycle } = build([
      ['c', {}],
      ['a', {}],
      ['b', { needs: ['a'] }],
    ]);
    expect(lifecycle.closeOrder()).toEqual(['b', 'a', 'c']);
  });

  it('refuses a need that closes a circle, in whatever order its members register', () => {
    const circle: Array<[string, Omit<SubsystemClose<string>, 'close'>]> = [
      ['a', { needs: ['b'] }],
      ['b', { needs: ['c'] }],
      ['c', { needs: ['a'] }],
    ];
    for (let seed = 1; seed <= 6; seed++) {
      const entries = shuffled(circle, seed);
      const lifecycle = new Lifecycle();
      lifecycle.register(entries[0]![0], { ...entries[0]![1], close: () => undefined });
      lifecycle.register(entries[1]![0], { ...entries[1]![1], close: () => undefined });
      expect(() => lifecycle.register(entries[2]![0], { ...entries[2]![1], close: () => undefined })).toThrow(
        /circle/,
      );
    }
    expect(() => new Lifecycle().register('self', { needs: ['self'], close: () => undefined })).toThrow(
      /circle: self → self/,
    );
  });

  it('refuses a base subsystem that needs one above it, in either registration order', () => {
    const first = new Lifecycle();
    first.register('relay', { close: () => undefined });
    expect(() =>
      first.register('databases', { base: true, needs: ['relay'], close: () => undefined }),
    ).toThrow(/only base subsystems/);
    const second = new Lifecycle();
    second.register('databases', { base: true, needs: ['relay'], close: () => undefined });
    expect(() => second.register('relay', { close: () => undefined })).toThrow(/needed by base subsystem/);
  });

  it('refuses a name registered twice, and a need on a name never registered', () => {
    const { lifecycle } = build([['relay', { needs: ['ledgr'] }]]);
    expect(() => lifecycle.register('relay', { close: () => undefined })).toThrow(/twice/);
    expect(() => lifecycle.closeOrder()).toThrow(/relay" needs ledgr/);
  });

  it('runs every close when some fail, reporting each failure with its subsystem', async () => {
    const lifecycle = new Lifecycle();
    const closed: string[] = [];
    const failures: Array<{ subsystem: string; message: string }> = [];
    lifecycle.register('databases', { base: true, close: () => void closed.push('databases') });
    lifecycle.register('writer', { close: () => void closed.push('writer') });
    lifecycle.register('relay', {
      needs: ['writer'],
      close: async () => {
        closed.push('relay');
        throw new Error('drain failed');
      },
    });
    lifecycle.register('poller', {
      needs: ['relay'],
      close: () => {
        closed.push('poller');
        throw new Error('poller stuck');
      },
    });
    await lifecycle.close({
      info: () => undefined,
      error: (details, message) => {
        expect(message).toBe('shutdown step failed');
        const { err, subsystem } = details as { err: Error; subsystem: string };
        failures.push({ subsystem, message: err.message });
      },
    });
    expect(closed).toEqual(['poller', 'relay', 'writer', 'databases']);
    expect(failures).toEqual([
      { subsystem: 'poller', message: 'poller stuck' },
      { subsystem: 'relay', message: 'drain failed' },
    ]);
  });

  it('reports its order, closes once however often it is asked, and refuses registrations meanwhile', async () => {
    const { lifecycle, closed } = build([
      ['databases', { base: true }],
      ['relay', {}],
    ]);
    const reported: unknown[] = [];
    const log = { info: (details: object) => void reported.push(details), error: () => undefined };
    const first = lifecycle.close(log);
    expect(lifecycle.close(log)).toBe(first);
    expect(() => lifecycle.register('late', { close: () => undefined })).toThrow(/closing/);
    await first;
    expect(closed).toEqual(['relay', 'databases']);
    expect(reported).toEqual([{ order: ['relay', 'databases'], registered: ['databases', 'relay'] }]);
  });

  it('still closes what it opened when a need names a subsystem never registered', async () => {
    const { lifecycle, closed } = build([
      ['databases', { base: true }],
      ['relay', { needs: ['ledgr'] }],
    ]);
    await lifecycle.close(quiet);
    expect(closed).toEqual(['relay', 'databases']);
  });
});
