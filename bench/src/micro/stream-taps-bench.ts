/**
 * Micro-benchmark of the pass-through usage taps (no per-chunk allocations that can be
 * avoided): the CPU a streamed relay call spends reading each upstream event on the side, per
 * protocol (OpenAI chat, Anthropic Messages, OpenAI Responses). Each stream is 300 token events in
 * the provider's real wire format (one event per network chunk, as providers flush them), framed
 * by the protocol's start and end events; text comes from a seeded generator with escapes and
 * non-ASCII mixed in. Reports the median over timed repetitions in microseconds per token event.
 *
 *   node --conditions=source --import tsx bench/src/micro/stream-taps-bench.ts
 */
import {
  createAnthropicUsageTap,
  createOpenAIResponsesTap,
  createOpenAIUsageTap,
  type PassthroughTap,
} from '@switchyard/relay-kit';

const TOKENS = 300;
const REPETITIONS = 400;
const encoder = new TextEncoder();
const PIECES = [
  ' the',
  ' gateway',
  ',',
  ' 中文',
  ' "quoted"',
  '\n',
  ' tokens',
  ' é',
  ' 🚀',
  ' a\\b',
  ' and',
  ' so',
];

function tokenText(index: number): string {
  return PIECES[(index * 7 + 3) % PIECES.length]!;
}

function sse(lines: string[]): Uint8Array[] {
  return lines.map((line) => encoder.encode(line));
}

function openAIChatStream(): Uint8Array[] {
  const head = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini' };
  const events = [];
  for (let index = 0; index < TOKENS; index++) {
    const chunk = {
      ...head,
      choices: [{ index: 0, delta: { content: tokenText(index) }, finish_reason: null }],
      usage: null,
    };
    events.push(`data: ${JSON.stringify(chunk)}\n\n`);
  }
  const usage = { prompt_tokens: 20, completion_tokens: TOKENS, total_tokens: TOKENS + 20 };
  events.push(
    `data: ${JSON.stringify({ ...head, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], usage: null })}\n\n`,
  );
  events.push(`data: ${JSON.stringify({ ...head, choices: [], usage })}\n\n`, 'data: [DONE]\n\n');
  return sse(events);
}

function anthropicStream(): Uint8Array[] {
  const event = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
  const events = [
    event('message_start', {
      type: 'message_start',
      message: {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [],
        usage: { input_tokens: 20, output_tokens: 1 },
      },
    }),
    event('content_block_start', {
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'text', text: '' },
    }),
    event('ping', { type: 'ping' }),
  ];
  for (let index = 0; index < TOKENS; index++) {
    events.push(
      event('content_block_delta', {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'text_delta', text: tokenText(index) },
      }),
    );
  }
  events.push(
    event('content_block_stop', { type: 'content_block_stop', index: 0 }),
    event('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { output_tokens: TOKENS },
    }),
    event('message_stop', { type: 'message_stop' }),
  );
  return sse(events);
}

function responsesStream(): Uint8Array[] {
  const event = (data: { type: string }) => `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`;
  const response = {
    id: 'resp_1',
    object: 'response',
    model: 'gpt-4o-mini',
    status: 'in_progress',
    output: [],
  };
  const events = [
    event({ type: 'response.created', response, sequence_number: 0 } as { type: string }),
    event({
      type: 'response.output_item.added',
      output_index: 0,
      item: { id: 'msg_1', type: 'message', role: 'assistant', content: [] },
    } as { type: string }),
  ];
  for (let index = 0; index < TOKENS; index++) {
    events.push(
      event({
        type: 'response.output_text.delta',
        item_id: 'msg_1',
        output_index: 0,
        content_index: 0,
        delta: tokenText(index),
        logprobs: [],
        sequence_number: index + 2,
      } as { type: string }),
    );
  }
  const usage = { input_tokens: 20, output_tokens: TOKENS, total_tokens: TOKENS + 20 };
  events.push(
    event({ type: 'response.completed', response: { ...response, status: 'completed', usage } } as {
      type: string;
    }),
  );
  return sse(events);
}

function measure(name: string, chunks: Uint8Array[], createTap: () => PassthroughTap): number {
  const run = () => {
    const tap = createTap();
    for (const chunk of chunks) tap.push(chunk);
    tap.finish();
    return tap.result();
  };
  const check = run();
  if (check.usage === undefined || check.generated.chars === 0)
    throw new Error(`${name}: the tap read nothing`);
  for (let index = 0; index < 100; index++) run();
  const perEvent: number[] = [];
  for (let index = 0; index < REPETITIONS; index++) {
    const started = process.hrtime.bigint();
    run();
    perEvent.push(Number(process.hrtime.bigint() - started) / 1000 / TOKENS);
  }
  perEvent.sort((a, b) => a - b);
  return perEvent[Math.floor(perEvent.length / 2)]!;
}

const results = {
  openaiChat: measure('OpenAI chat', openAIChatStream(), () => createOpenAIUsageTap()),
  anthropic: measure('Anthropic', anthropicStream(), () => createAnthropicUsageTap()),
  responses: measure('Responses', responsesStream(), () => createOpenAIResponsesTap()),
};
for (const [name, microseconds] of Object.entries(results)) {
  console.log(`${name.padEnd(12)} ${microseconds.toFixed(3)} µs per token event`);
}
