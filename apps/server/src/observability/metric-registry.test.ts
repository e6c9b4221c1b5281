import { describe, expect, it } from 'vitest';
import { Counter, Gauge, Histogram, MetricRegistry } from './metric-registry.ts';

describe('metric registry', () => {
  it('renders counters with HELP, TYPE and escaped label values', () => {
    const registry = new MetricRegistry();
    const counter = registry.register(new Counter('demo_total', 'A demo.\nSecond line \\ here', ['path']));
    counter.inc({ path: 'a"b\\c\nd' });
    counter.inc({ path: 'a"b\\c\nd' }, 2);
    counter.inc({ path: 'x' }, 0);
    counter.inc({ path: 'x' }, -5);
    expect(registry.render()).toBe(
      [
        '# HELP demo_total A demo.\\nSecond line \\\\ here',
        '# TYPE demo_total counter',
        'demo_total{path="a\\"b\\\\c\\nd"} 3',
        'demo_total{path="x"} 0',
        '',
      ].join('\n'),
    );
  });

  it('finds one series for the same label values, whatever their type, order or absence', () => {
    const registry = new MetricRegistry();
    const counter = registry.register(new Counter('calls_total', 'Calls.', ['family', 'status']));
    counter.inc({ family: 'openai', status: 200 });
    counter.inc({ status: '200', family: 'openai' });
    counter.inc({ family: 'openai' });
    counter.inc();
    counter.inc({ family: '', status: '' });
    counter.inc({ family: 'openai\u0000', status: '' });
    expect(counter.get({ family: 'openai', status: 200 })).toBe(2);
    expect(counter.get({ family: 'openai', status: '' })).toBe(1);
    expect(counter.get()).toBe(2);
    expect(registry.render().split('\n').slice(2, -1)).toEqual([
      'calls_total{family="openai",status="200"} 2',
      'calls_total{family="openai",status=""} 1',
      'calls_total{family="",status=""} 2',
      'calls_total{family="openai\u0000",status=""} 1',
    ]);
  });

  it('renders cumulative histogram buckets with le, +Inf, _sum and _count', () => {
    const registry = new MetricRegistry();
    const histogram = registry.register(
      new Histogram('latency_seconds', 'Latency.', [0.5, 0.1, 1], ['family']),
    );
    for (const value of [0.05, 0.1, 0.3, 2, Number.NaN]) histogram.observe({ family: 'api' }, value);
    expect(registry.render().split('\n')).toEqual([
      '# HELP latency_seconds Latency.',
      '# TYPE latency_seconds histogram',
      'latency_seconds_bucket{family="api",le="0.1"} 2',
      'latency_seconds_bucket{family="api",le="0.5"} 3',
      'latency_seconds_bucket{family="api",le="1"} 3',
      'latency_seconds_bucket{family="api",le="+Inf"} 4',
      'latency_seconds_sum{family="api"} 2.45',
      'latency_seconds_count{family="api"} 4',
      '',
    ]);
  });

  it('reads gauges from a callback at render time and exports initialised series as zero', () => {
    const registry = new MetricRegistry();
    let reading = 7;
    registry.register(new Gauge('reading', 'Read.', [], (gauge) => gauge.set(undefined, reading)));
    registry.register(new Histogram('empty_seconds', 'Empty.', [1])).init();
    reading = 9;
    const text = registry.render();
    expect(text).toContain('reading 9\n');
    expect(text).toContain('empty_seconds_bucket{le="1"} 0\nempty_seconds_bucket{le="+Inf"} 0\n');
    expect(text).toContain('empty_seconds_count 0\n');
  });

  it('brings a counter up to date from a callback at render time', () => {
    const registry = new MetricRegistry();
    let seen = 3;
    registry.register(
      new Counter('seen_total', 'Seen.', [], (counter) => counter.inc(undefined, seen - counter.get())),
    );
    expect(registry.render()).toContain('seen_total 3\n');
    seen = 5;
    expect(registry.render()).toContain('seen_total 5\n');
  });

  it('refuses invalid names, reserved labels and duplicates', () => {
    expect(() => new Counter('bad-name', 'x')).toThrow(/invalid metric name/);
    expect(() => new Histogram('h', 'x', [1], ['le'])).toThrow(/invalid label/);
    expect(() => new Histogram('h', 'x', [1, 1])).toThrow(/distinct/);
    const registry = new MetricRegistry();
    registry.register(new Counter('same', 'x'));
    expect(() => registry.register(new Counter('same', 'y'))).toThrow(/already registered/);
  });
});
