/**
 * Summarises a V8 `.cpuprofile` (from `node --cpu-prof`) without any tool: self time per
 * function and per area (our packages by source file through the bundle's source map, npm
 * packages by name, Node internals, GC, idle), plus the inclusive time of the functions that
 * matter on the relay path. Used by `profile-switchyard.ts`; runnable on its own:
 *
 *   node --import tsx bench/src/profile/summarize-profile.ts <file.cpuprofile> [requests]
 */
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  hitCount?: number;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  totalMs: number;
  busyMs: number;
  /** [name, self ms] by area, largest first. */
  areas: [string, number][];
  /** [function @ location, self ms], largest first. */
  functions: [string, number][];
  /** [function @ location, inclusive ms], largest first (functions from our own sources only). */
  inclusive: [string, number][];
}

const maps = new Map<string, SourceMap | null>();

function sourceMapOf(url: string): SourceMap | null {
  if (maps.has(url)) return maps.get(url) ?? null;
  let map: SourceMap | null = null;
  try {
    const path = fileURLToPath(url);
    map = new SourceMap(JSON.parse(readFileSync(`${path}.map`, 'utf8')));
  } catch {
    map = null;
  }
  maps.set(url, map);
  return map;
}

/** Where a frame comes from: a source file of ours (via the source map), an npm package, Node. */
export function locate(frame: ProfileNode['callFrame']): { area: string; where: string } {
  const { url, lineNumber, columnNumber, functionName } = frame;
  if (url === '') {
    const name = functionName || '(anonymous)';
    return { area: name.startsWith('(') ? name : '(native)', where: '' };
  }
  if (url.startsWith('node:')) return { area: `node:${url.slice(5).split('/')[0]}`, where: url };
  const map = url.startsWith('file:') ? sourceMapOf(url) : null;
  if (map) {
    const entry = map.findEntry(lineNumber, columnNumber) as {
      originalSource?: string;
      originalLine?: number;
    };
    if (entry.originalSource) {
      const absolute = entry.originalSource.startsWith('file:')
        ? fileURLToPath(entry.originalSource)
        : resolve(dirname(fileURLToPath(url)), entry.originalSource);
      const source = absolute.replace(/^.*?\/(apps|packages|node_modules)\//, '$1/');
      return { area: areaOf(source), where: `${source}:${(entry.originalLine ?? 0) + 1}` };
    }
  }
  const path = url.replace(/^file:\/\//, '');
  return {
    area: areaOf(path),
    where: `${path.replace(/^.*?\/(apps|packages|node_modules)\//, '$1/')}:${lineNumber + 1}`,
  };
}

function areaOf(path: string): string {
  const modules = path.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const parts = path.slice(modules + 13).split('/');
    return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
  }
  const ours = /(apps\/[^/]+\/src\/[^/]+|packages\/[^/]+\/src\/[^/]+)/.exec(path);
  return ours ? ours[1]! : path;
}

export function sorted(map: Map<string, number>, limit: number): [string, number][] {
  return [...map.entries()].sort((a, b) => b[1] - a[1]).slice(0, limit);
}

/** Only the samples between `fromMs` and `toMs` after the profile started (the measured window). */
export interface ProfileWindow {
  fromMs: number;
  toMs: number;
}

export function summarizeProfile(file: string, limit = 40, window?: ProfileWindow): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const selfUs = new Map<number, number>();
  let at = profile.startTime;
  const from = profile.startTime + (window?.fromMs ?? 0) * 1000;
  const to = window ? profile.startTime + window.toMs * 1000 : Number.POSITIVE_INFINITY;
  for (let i = 0; i < profile.samples.length; i++) {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (at < from || at > to) continue;
    const id = profile.samples[i]!;
    selfUs.set(id, (selfUs.get(id) ?? 0) + delta);
  }
  const located = new Map<number, { area: string; where: string; label: string }>();
  for (const node of profile.nodes) {
    const { area, where } = locate(node.callFrame);
    const name = node.callFrame.functionName || '(anonymous)';
    located.set(node.id, { area, where, label: where ? `${name} @ ${where}` : name });
  }
  const areas = new Map<string, number>();
  const functions = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let totalUs = 0;
  let idleUs = 0;
  for (const [id, us] of selfUs) {
    const info = located.get(id)!;
    totalUs += us;
    if (info.area === '(idle)' || info.area === '(program)') idleUs += info.area === '(idle)' ? us : 0;
    areas.set(info.area, (areas.get(info.area) ?? 0) + us);
    functions.set(info.label, (functions.get(info.label) ?? 0) + us);
    // Inclusive time: charge every distinct function of ours on the stack once.
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = located.get(at)!;
      if (!/^(apps|packages)\//.test(frame.where) || seen.has(frame.label)) continue;
      seen.add(frame.label);
      inclusive.set(frame.label, (inclusive.get(frame.label) ?? 0) + us);
    }
  }
  const toMs = (entries: [string, number][]): [string, number][] =>
    entries.map(([name, us]) => [name, us / 1000]);
  return {
    totalMs: totalUs / 1000,
    busyMs: (totalUs - idleUs) / 1000,
    areas: toMs(sorted(areas, limit)),
    functions: toMs(sorted(functions, limit)),
    inclusive: toMs(sorted(inclusive, limit)),
  };
}

/** Plain-text tables; `requests` turns milliseconds into microseconds per request. */
export function formatSummary(summary: ProfileSummary, requests: number): string {
  const per = (ms: number) =>
    requests > 0 ? `${((ms * 1000) / requests).toFixed(1).padStart(7)} µs/req` : '';
  const pct = (ms: number) => `${((ms * 100) / summary.busyMs).toFixed(1).padStart(5)}%`;
  const table = (title: string, rows: [string, number][]) =>
    [title, ...rows.map(([name, ms]) => `  ${pct(ms)} ${per(ms)}  ${name}`)].join('\n');
  return [
    `profile: ${summary.totalMs.toFixed(0)} ms sampled, ${summary.busyMs.toFixed(0)} ms busy` +
      (requests > 0 ? `, ${requests} requests, ${per(summary.busyMs).trim()} busy` : ''),
    table('self time by area:', summary.areas),
    table('self time by function:', summary.functions),
    table('inclusive time (our sources):', summary.inclusive),
  ].join('\n\n');
}

if (process.argv[1] && import.meta.url === `file://${process.argv[1]}`) {
  const [file, requests = '0'] = process.argv.slice(2);
  if (!file) {
    process.stderr.write('usage: summarize-profile.ts <file.cpuprofile> [requests]\n');
    process.exit(2);
  }
  process.stdout.write(
    `${formatSummary(summarizeProfile(file, Number(process.env.PROFILE_ROWS ?? 40)), Number(requests))}\n`,
  );
}
