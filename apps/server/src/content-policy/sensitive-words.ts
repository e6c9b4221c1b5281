import type { PromptInput } from '@switchyard/relay-kit';
import type { OptionStore } from '../options/option-store.ts';
import { AhoCorasick } from './aho-corasick.ts';

let cached: { source: string; matcher: AhoCorasick } | null = null;

/** The matcher for the SensitiveWords option (one word per line), rebuilt only when the list changes. */
export function sensitiveWordMatcher(options: OptionStore): AhoCorasick {
  const source = options.get('SensitiveWords');
  if (cached?.source !== source) cached = { source, matcher: new AhoCorasick(source.split(/\r?\n/)) };
  return cached.matcher;
}

/** Every piece of prompt text a user sent (message texts and plain inputs; not images). */
export function* promptTexts(prompt: PromptInput): Generator<string> {
  for (const message of prompt.messages ?? []) {
    if (typeof message.content === 'string') yield message.content;
    else for (const part of message.content) if (part.type === 'text') yield part.text;
  }
  yield* prompt.texts ?? [];
}

/**
 * The sensitive words found in a prompt, or an empty list when the check is off
 * (CheckSensitiveEnabled and CheckSensitiveOnPromptEnabled must both be on).
 */
export function findSensitiveWords(options: OptionStore, prompt: PromptInput): string[] {
  if (!options.getBoolean('CheckSensitiveEnabled') || !options.getBoolean('CheckSensitiveOnPromptEnabled'))
    return [];
  const matcher = sensitiveWordMatcher(options);
  if (matcher.isEmpty) return [];
  const found: string[] = [];
  // Plain loops, not promptTexts(): this runs on every relay call.
  const scan = (text: string) => {
    if (found.length >= 10) return;
    for (const word of matcher.findAll(text)) if (!found.includes(word)) found.push(word);
  };
  for (const message of prompt.messages ?? []) {
    if (typeof message.content === 'string') scan(message.content);
    else for (const part of message.content) if (part.type === 'text') scan(part.text);
  }
  for (const text of prompt.texts ?? []) scan(text);
  return found;
}
