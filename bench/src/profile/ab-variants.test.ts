import { describe, expect, it } from 'vitest';
import { pairedRatios, parseVariants } from './ab-variants.ts';

describe('parseVariants', () => {
  it('reads names and their environments in order', () => {
    expect(
      parseVariants(
        'base:| cp100:SQLITE_CHECKPOINT_MS=100 |old:BENCH_SWITCHYARD_MAIN=a/main.js,SQLITE_CHECKPOINT_MS=50',
      ),
    ).toEqual([
      { name: 'base', env: {} },
      { name: 'cp100', env: { SQLITE_CHECKPOINT_MS: '100' } },
      { name: 'old', env: { BENCH_SWITCHYARD_MAIN: 'a/main.js', SQLITE_CHECKPOINT_MS: '50' } },
    ]);
  });

  it('takes a bare name as the defaults and skips empty parts and pairs without a value sign', () => {
    expect(parseVariants('plain||x:JUNK,A=1=2')).toEqual([
      { name: 'plain', env: {} },
      { name: 'x', env: { A: '1=2' } },
    ]);
  });
});

describe('pairedRatios', () => {
  it('divides each variant by the first one round by round and takes the median ratio', () => {
    const results = new Map([
      ['before', [200, 100, 180, 190]],
      ['after', [180, 95, 171, 209]],
    ]);
    const [after] = pairedRatios(results);
    expect(after?.name).toBe('after');
    expect(after?.ratios.map((r) => Number(r.toFixed(3)))).toEqual([0.9, 0.95, 0.95, 1.1]);
    expect(after?.median).toBeCloseTo(0.95);
  });

  it('has nothing to compare with one variant', () => {
    expect(pairedRatios(new Map([['only', [1, 2]]]))).toEqual([]);
  });
});
