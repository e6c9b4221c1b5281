/** The request bodies every target gets (same bytes for all), built from the bench settings. */
import type { BenchConfig } from './bench-config.ts';
import type { LoadJob, RequestSpec } from './load/load-jobs.ts';

const chatMessages = [
  { role: 'system', content: 'You are a helpful assistant. Answer briefly.' },
  { role: 'user', content: 'Write one short sentence about load testing an AI gateway.' },
];

export function bodies(config: BenchConfig) {
  const streamMessages = (scenario: string) => [
    chatMessages[0],
    { role: 'user', content: `${chatMessages[1]!.content} [[mock:${scenario}]]` },
  ];
  const streamOf = (scenario: string) =>
    JSON.stringify({
      model: 'gpt-4o-mini',
      messages: streamMessages(scenario),
      max_tokens: 256,
      stream: true,
      stream_options: { include_usage: true },
    });
  const concurrentChunks = Math.max(
    1,
    Math.round((config.concurrentHoldSeconds * 1000) / config.concurrentIntervalMs) - 4,
  );
  return {
    chat: JSON.stringify({ model: 'gpt-4o-mini', messages: chatMessages, max_tokens: 64 }),
    stream: streamOf(`slow-stream-${config.streamIntervalMs},chunks-${config.streamChunks}`),
    concurrent: streamOf(`slow-stream-${config.concurrentIntervalMs},chunks-${concurrentChunks}`),
    embeddings: JSON.stringify({
      model: 'text-embedding-3-small',
      input: 'The quick brown fox jumps over the lazy dog.',
      encoding_format: 'float',
    }),
  };
}

/** A gateway's chat request: its completions route, its headers (the key) and the chat body. */
export function chatRequest(
  target: { url: string; headers: Record<string, string> },
  body: string,
): RequestSpec {
  return { url: `${target.url}/v1/chat/completions`, headers: target.headers, body };
}

/** The bodies of one run. */
export type Bodies = ReturnType<typeof bodies>;

/**
 * The profiling tools' chat load for `durationSeconds`: streamed chats (`streamBody`) opened at
 * `streamRate` per second when it is given, else chat at saturation over `connections`.
 */
export function chatLoad(
  chat: RequestSpec,
  streamBody: string,
  shape: { streamRate: number | null; connections: number },
  durationSeconds: number,
): Extract<LoadJob, { kind: 'streams' | 'saturate' }> {
  return shape.streamRate !== null
    ? { kind: 'streams', ...chat, body: streamBody, rate: shape.streamRate, durationSeconds }
    : { kind: 'saturate', ...chat, connections: shape.connections, durationSeconds };
}
