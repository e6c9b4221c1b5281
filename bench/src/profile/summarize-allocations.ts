/**
 * Summarises a sampling heap profile (`HeapProfiler.stopSampling`, written by
 * allocation-preload.cjs): bytes per request allocated by each function and area, mapped to our
 * sources through the bundle's source map like the CPU summary.
 */
import { readFileSync } from 'node:fs';
import { locate, type ProfileNode, sorted } from './summarize-profile.ts';

interface HeapNode {
  callFrame: ProfileNode['callFrame'];
  selfSize: number;
  children: HeapNode[];
}

export function summarizeAllocations(file: string, requests: number, limit = 40): string {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as { head?: HeapNode; error?: string };
  if (!profile.head) throw new Error(`no heap profile in ${file}: ${profile.error ?? 'empty'}`);
  const byFunction = new Map<string, number>();
  const byArea = new Map<string, number>();
  let total = 0;
  const visit = (node: HeapNode) => {
    if (node.selfSize > 0) {
      const { area, where } = locate(node.callFrame);
      const name = `${node.callFrame.functionName || '(anonymous)'}${where ? ` @ ${where}` : ''}`;
      byFunction.set(name, (byFunction.get(name) ?? 0) + node.selfSize);
      byArea.set(area, (byArea.get(area) ?? 0) + node.selfSize);
      total += node.selfSize;
    }
    for (const child of node.children) visit(child);
  };
  visit(profile.head);
  const perRequest = (bytes: number) => `${(bytes / Math.max(1, requests)).toFixed(0).padStart(8)} B/req`;
  const rows = (entries: [string, number][]) =>
    entries.map(
      ([name, bytes]) => `${((bytes * 100) / total).toFixed(1).padStart(6)}% ${perRequest(bytes)}  ${name}`,
    );
  return [
    `sampled allocations: ${(total / 2 ** 20).toFixed(1)} MB, ${perRequest(total).trim()}`,
    '',
    'by area:',
    ...rows(sorted(byArea, limit)),
    '',
    'by function:',
    ...rows(sorted(byFunction, limit)),
  ].join('\n');
}
