import type { PassthroughTap, PassthroughTapOptions } from '../../spec/passthrough-tap.js';
import { createSseUsageTap } from '../sse-usage-tap.js';
import { MALFORMED, type TapFindings } from '../tap-findings.js';
import type { AnthropicStreamEvent } from './anthropic-api.js';
import { AnthropicDeltaScan } from './anthropic-delta-scan.js';
import { anthropicStreamError } from './anthropic-error.js';
import { AnthropicStreamUsage } from './convert-anthropic-usage.js';
import { mapAnthropicFinishReason } from './map-anthropic-finish-reason.js';

/** Events that carry nothing the tap needs: never parsed. */
const SKIPPED_EVENTS = new Set(['ping', 'content_block_stop']);

/**
 * The pass-through tap for Anthropic Messages streams (`event:` + `data:` lines). Every input
 * chunk is returned as is (the bytes are never altered); on the side the tap reads usage from
 * `message_start` (input, cache read, cache creation, output) and `message_delta` (output; input
 * and cache counts when positive), the stop reason, the first event time, `error` events, and
 * collects generated text, thinking, tool names and tool input for local counting. `sawDone` means
 * `message_stop` arrived; events whose JSON is broken are counted in `malformedEvents`.
 * `dropUsageOnlyChunk` does not apply (Anthropic has no usage-only event); `endOfStream`, when
 * set, is written after the upstream's last byte. Lines and chunking: {@link createSseUsageTap}.
 */
export function createAnthropicUsageTap(options: PassthroughTapOptions = {}): PassthroughTap {
  return createSseUsageTap(options, (findings) => ({
    eventNames: true,
    read: anthropicEventReader(findings),
  }));
}

/** Reads one Anthropic event (its `event:` name and `data:`). */
function anthropicEventReader(findings: TapFindings): (data: string, name: string | undefined) => undefined {
  const collectText = findings.collectText;
  const generated = findings.generated;
  const usage = new AnthropicStreamUsage();
  const deltaScan = new AnthropicDeltaScan();
  const applyUsage = (raw: unknown, fromStart: boolean) => {
    usage.apply(raw, fromStart);
    findings.usage = usage.result();
  };

  return (data, name) => {
    if (name === 'message_stop') {
      findings.sawDone = true;
      return;
    }
    if (name !== undefined && SKIPPED_EVENTS.has(name)) return;
    if (name === 'content_block_delta') {
      if (!collectText) return;
      // Text deltas are most of a stream: read without a full parse.
      if (deltaScan.read(data, generated)) return;
    }
    const parsed = findings.parse(data);
    if (parsed === MALFORMED) return;
    if (typeof parsed !== 'object' || parsed === null) {
      findings.malformedEvents++;
      return;
    }
    const payload = parsed as AnthropicStreamEvent;
    switch (payload.type ?? name) {
      case 'message_start': {
        const message = payload.message ?? {};
        if (typeof message.id === 'string') findings.responseId = message.id;
        if (typeof message.model === 'string') findings.model = message.model;
        applyUsage(message.usage, true);
        return;
      }
      case 'content_block_start': {
        const block = payload.content_block;
        if (!collectText || block === undefined) return;
        if (block.type === 'tool_use' || block.type === 'server_tool_use')
          generated.toolCall(String(block.name ?? ''));
        else if (typeof block.text === 'string') generated.append(block.text);
        return;
      }
      case 'content_block_delta': {
        const delta = payload.delta ?? {};
        if (typeof delta.text === 'string') generated.append(delta.text);
        else if (typeof delta.thinking === 'string') generated.append(delta.thinking);
        else if (typeof delta.partial_json === 'string') generated.append(delta.partial_json);
        return;
      }
      case 'message_delta': {
        const raw = payload.delta?.stop_reason;
        if (typeof raw === 'string' && raw !== '') {
          findings.rawFinishReason = raw;
          findings.finishReason = mapAnthropicFinishReason(raw);
        }
        applyUsage(payload.usage, false);
        return;
      }
      case 'message_stop':
        findings.sawDone = true;
        return;
      case 'error':
        findings.error = anthropicStreamError(data);
        return;
      default:
        return;
    }
  };
}
