import { expect } from 'vitest';

/** One parsed sample line of the Prometheus text format. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(,|$)/y;

function parseValue(raw: string): number {
  if (raw === '+Inf') return Number.POSITIVE_INFINITY;
  if (raw === '-Inf') return Number.NEGATIVE_INFINITY;
  if (raw === 'NaN') return Number.NaN;
  expect(raw, `sample value ${raw}`).toMatch(/^-?\d+(\.\d+)?(e[+-]?\d+)?$/);
  return Number(raw);
}

function parseLabels(text: string): Record<string, string> {
  const labels: Record<string, string> = {};
  LABEL.lastIndex = 0;
  while (LABEL.lastIndex < text.length) {
    const start = LABEL.lastIndex;
    const match = LABEL.exec(text);
    expect(match, `label syntax at ${start} in {${text}}`).not.toBeNull();
    labels[match![1]!] = match![2]!.replace(/\\n/g, '\n').replace(/\\"/g, '"').replace(/\\\\/g, '\\');
  }
  return labels;
}

/**
 * Parses exposition text strictly (format 0.0.4): every metric family starts with HELP then TYPE,
 * every sample belongs to the family declared last, histograms have cumulative `le` buckets ending
 * in +Inf equal to `_count`. Returns the samples.
 */
export function parseExposition(text: string): Sample[] {
  expect(text.endsWith('\n')).toBe(true);
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  let family: string | null = null;
  let pendingHelp: string | null = null;
  for (const line of text.slice(0, -1).split('\n')) {
    if (line.startsWith('# HELP ')) {
      pendingHelp = line.split(' ')[2]!;
      expect(types.has(pendingHelp), `duplicate family ${pendingHelp}`).toBe(false);
      continue;
    }
    if (line.startsWith('# TYPE ')) {
      const [, , name, type] = line.split(' ');
      expect(name, 'TYPE follows its HELP').toBe(pendingHelp);
      expect(['counter', 'gauge', 'histogram']).toContain(type);
      types.set(name!, type!);
      family = name!;
      continue;
    }
    const match = SAMPLE.exec(line);
    expect(match, `sample line: ${line}`).not.toBeNull();
    const name = match![1]!;
    const type = types.get(family ?? '');
    const allowed =
      type === 'histogram' ? [`${family}_bucket`, `${family}_sum`, `${family}_count`] : [family];
    expect(allowed, `sample ${name} inside family ${family}`).toContain(name);
    samples.push({ name, labels: parseLabels(match![3] ?? ''), value: parseValue(match![4]!) });
  }
  for (const [name, type] of types) if (type === 'histogram') checkHistogram(name, samples);
  return samples;
}

function checkHistogram(name: string, samples: Sample[]): void {
  const keyOf = (labels: Record<string, string>) =>
    JSON.stringify(Object.entries(labels).filter(([label]) => label !== 'le'));
  const counts = samples.filter((sample) => sample.name === `${name}_count`);
  for (const count of counts) {
    const key = keyOf(count.labels);
    const buckets = samples.filter(
      (sample) => sample.name === `${name}_bucket` && keyOf(sample.labels) === key,
    );
    expect(buckets.length).toBeGreaterThan(1);
    expect(buckets.at(-1)!.labels.le).toBe('+Inf');
    expect(buckets.at(-1)!.value).toBe(count.value);
    for (let index = 1; index < buckets.length; index += 1) {
      expect(parseValue(buckets[index]!.labels.le!)).toBeGreaterThan(
        parseValue(buckets[index - 1]!.labels.le!),
      );
      expect(buckets[index]!.value).toBeGreaterThanOrEqual(buckets[index - 1]!.value);
    }
    const sum = samples.find((sample) => sample.name === `${name}_sum` && keyOf(sample.labels) === key);
    expect(sum, `${name}_sum`).toBeDefined();
  }
}

/** The value of the one sample with this name and these labels (undefined when absent). */
export function sampleValue(samples: Sample[], name: string, labels: Record<string, string> = {}) {
  const found = samples.filter(
    (sample) =>
      sample.name === name &&
      Object.keys(labels).length === Object.keys(sample.labels).length &&
      Object.entries(labels).every(([label, value]) => sample.labels[label] === value),
  );
  expect(found.length, `${name} ${JSON.stringify(labels)}`).toBeLessThanOrEqual(1);
  return found[0]?.value;
}
