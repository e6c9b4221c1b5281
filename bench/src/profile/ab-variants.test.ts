import { describe, expect, it } from 'vitest';
import { parseVariants } from './ab-variants.ts';

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
