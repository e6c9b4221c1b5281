/**
 * Replays an OpenAI chat stream through the relay's stream paths and prints throughput:
 *
 *   node --conditions=source --import tsx packages/relay-kit/bench/stream-path-bench.ts [chunks] [rounds]
 *
 * - `identity`: a bare TransformStream (the floor).
 * - `tap`: pass-through usage tap, client asked for usage (bytes untouched).
 * - `tap-drop`: tap dropping the forced usage chunk and withholding `[DONE]` (line mode).
 * - `tap-push`: the tap's push/finish API without web streams.
 * - `convert`: SSE parser → OpenAI stream parts → OpenAI chat writer (the conversion path).
 */
import { createOpenAIUsageTap, createSseParserStream, openAIAdapter, openAIChatCodec } from '../src/index.js';

const chunkCount = Number(process.argv[2] ?? 2000);
const rounds = Number(process.argv[3] ?? 50);
const encoder = new TextEncoder();

function buildStream(): Uint8Array[] {
  const head =
    '{"id":"chatcmpl-bench","object":"chat.completion.chunk","created":1754900000,"model":"gpt-4o-mini-2024-07-18","system_fingerprint":"fp_34a54ae93c","choices":[{"index":0,"delta":{"content":';
  const chunks: Uint8Array[] = [];
  for (let index = 0; index < chunkCount; index++) {
    const word = JSON.stringify(index % 7 === 0 ? ' naïve "word"' : ' word');
    chunks.push(
      encoder.encode(`data: ${head}${word}},"logprobs":null,"finish_reason":null}],"usage":null}\n\n`),
    );
  }
  chunks.push(encoder.encode(`data: ${head}""},"logprobs":null,"finish_reason":"stop"}],"usage":null}\n\n`));
  chunks.push(
    encoder.encode(
      'data: {"id":"chatcmpl-bench","object":"chat.completion.chunk","created":1754900000,"model":"gpt-4o-mini-2024-07-18","choices":[],"usage":{"prompt_tokens":10,"completion_tokens":2000,"total_tokens":2010,"prompt_tokens_details":{"cached_tokens":0}}}\n\ndata: [DONE]\n\n',
    ),
  );
  return chunks;
}

function source(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  let index = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (index < chunks.length) controller.enqueue(chunks[index++]!);
      else controller.close();
    },
  });
}

async function drain(stream: ReadableStream<unknown>): Promise<void> {
  const reader = stream.getReader();
  while (!(await reader.read()).done) {
    // Consume.
  }
}

const call = openAIChatCodec.parseRequest({
  json: {
    model: 'gpt-4o',
    stream: true,
    stream_options: { include_usage: true },
    messages: [{ role: 'user', content: 'hi' }],
  },
});

const cases: Record<string, (chunks: Uint8Array[]) => Promise<void>> = {
  identity: (chunks) => drain(source(chunks).pipeThrough(new TransformStream())),
  tap: (chunks) => drain(source(chunks).pipeThrough(createOpenAIUsageTap().stream())),
  'tap-drop': (chunks) =>
    drain(
      source(chunks).pipeThrough(
        createOpenAIUsageTap({ dropUsageOnlyChunk: true, endOfStream: () => 'data: [DONE]\n\n' }).stream(),
      ),
    ),
  'tap-push': async (chunks) => {
    const tap = createOpenAIUsageTap();
    for (const chunk of chunks) tap.push(chunk);
    tap.finish();
    if (tap.result().usage === undefined) throw new Error('usage not found');
  },
  convert: (chunks) =>
    drain(
      source(chunks)
        .pipeThrough(createSseParserStream())
        .pipeThrough(openAIAdapter.toStreamParts(call))
        .pipeThrough(openAIChatCodec.toClientStream(call)),
    ),
};

const chunks = buildStream();
const bytes = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
console.log(`${chunks.length} chunks, ${(bytes / 1024).toFixed(0)} KiB per stream, ${rounds} rounds`);
for (const [name, run] of Object.entries(cases)) {
  for (let warmup = 0; warmup < 20; warmup++) await run(chunks);
  const start = performance.now();
  for (let round = 0; round < rounds; round++) await run(chunks);
  const seconds = (performance.now() - start) / 1000;
  const perStream = (seconds / rounds) * 1000;
  console.log(
    `${name.padEnd(9)} ${perStream.toFixed(2).padStart(7)} ms/stream  ${((bytes * rounds) / seconds / 1024 / 1024).toFixed(0).padStart(5)} MiB/s  ${((chunks.length * rounds) / seconds / 1000).toFixed(0).padStart(5)}k chunks/s`,
  );
}
