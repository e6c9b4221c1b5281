/**
 * Built-in completion ratios for common model families (reference §4.7). Unlike the reference,
 * an entry in the CompletionRatio option always wins: these rules are only the defaults for
 * models the admin did not price (the reference's hard-coded overrides are a known trap).
 */
const RULES: Array<[test: (model: string) => boolean, ratio: number]> = [
  [(m) => m.startsWith('gpt-4o-2024-05-13'), 3],
  [(m) => m.startsWith('gpt-4o-gizmo'), 3],
  [(m) => m.startsWith('gpt-4o'), 4],
  [(m) => m.startsWith('gpt-4.5-preview'), 2],
  [(m) => m.startsWith('gpt-4.1'), 4],
  [(m) => m.startsWith('gpt-4-turbo') || m.endsWith('gpt-4-1106'), 3],
  [(m) => m.startsWith('gpt-4-gizmo') || m === 'gpt-4-all', 2],
  [(m) => m.startsWith('gpt-4'), 2],
  [(m) => m.startsWith('o1') || m.startsWith('o3') || m.startsWith('o4'), 4],
  [(m) => m === 'chatgpt-4o-latest', 3],
  [(m) => m.startsWith('claude-instant-1') || m.startsWith('claude-2'), 3],
  [(m) => m.startsWith('claude-'), 5],
  [(m) => m === 'gpt-3.5-turbo' || m.endsWith('0125'), 3],
  [(m) => m.startsWith('gpt-3.5') && m.endsWith('1106'), 2],
  [(m) => m.startsWith('gpt-3.5'), 4 / 3],
  [(m) => m.startsWith('mistral-'), 3],
  [(m) => m.startsWith('gemini-2.5-pro'), 8],
  [(m) => m.startsWith('gemini-'), 4],
  [(m) => m === 'command-r', 3],
  [(m) => m === 'command-r-plus', 5],
  [(m) => m.startsWith('command-r') && m.endsWith('-08-2024'), 4],
  [(m) => m.startsWith('command'), 4],
  [(m) => m === 'deepseek-chat' || m === 'deepseek-reasoner', 4],
  [(m) => /^ERNIE-(Speed|Lite|Character|Functions)/.test(m), 2],
  [(m) => m === 'llama2-70b-4096', 1.25],
  [(m) => m === 'llama3-8b-8192', 2],
  [(m) => m === 'llama3-70b-8192', 0.79 / 0.59],
];

/** The completion ratio of a model: the option map first, then the built-in family rules, then 1. */
export function completionRatioOf(model: string, optionMap: Readonly<Record<string, number>>): number {
  const configured = optionMap[model];
  if (typeof configured === 'number') return configured;
  for (const [test, ratio] of RULES) if (test(model)) return ratio;
  return 1;
}

/** Cache-write (creation) ratio: Anthropic bills cache writes at 1.25× input. */
export function cacheCreationRatioOf(model: string): number {
  return model.startsWith('claude') ? 1.25 : 1;
}
