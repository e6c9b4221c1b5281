import type { SseEvent } from '../../spec/sse-event.js';
import { crc32 } from './crc32.js';

/** One decoded event-stream message. */
export interface AwsEventStreamMessage {
  readonly headers: Readonly<Record<string, string | number | boolean>>;
  readonly payload: Uint8Array;
}

/** Largest message accepted (AWS caps event-stream messages at 16 MiB). */
const MAX_MESSAGE_BYTES = 16 * 1024 * 1024 + 1024;
const decoder = new TextDecoder();

/** Bedrock exception types → Anthropic error types, so stream errors keep their meaning. */
const EXCEPTION_TYPES: Readonly<Record<string, string>> = {
  throttlingException: 'rate_limit_error',
  serviceUnavailableException: 'overloaded_error',
  modelStreamErrorException: 'api_error',
  internalServerException: 'api_error',
  modelTimeoutException: 'timeout_error',
  validationException: 'invalid_request_error',
  accessDeniedException: 'permission_error',
};

/**
 * Splits an AWS event-stream body (`application/vnd.amazon.eventstream`) into messages: 12-byte
 * prelude (total length, headers length, prelude CRC-32), headers, payload, message CRC-32. Both
 * checksums are verified; a corrupt frame throws.
 */
export class AwsEventStreamDecoder {
  private buffer = new Uint8Array(0);

  /** Adds bytes and returns every message completed by them. */
  push(chunk: Uint8Array): AwsEventStreamMessage[] {
    const joined = new Uint8Array(this.buffer.length + chunk.length);
    joined.set(this.buffer);
    joined.set(chunk, this.buffer.length);
    const messages: AwsEventStreamMessage[] = [];
    let offset = 0;
    while (joined.length - offset >= 12) {
      const view = new DataView(joined.buffer, joined.byteOffset + offset);
      const total = view.getUint32(0);
      const headersLength = view.getUint32(4);
      if (view.getUint32(8) !== crc32(joined, offset, offset + 8))
        throw new Error('event-stream prelude checksum mismatch');
      if (total < 16 + headersLength || total > MAX_MESSAGE_BYTES)
        throw new Error(`event-stream message length ${total} is invalid`);
      if (joined.length - offset < total) break;
      if (view.getUint32(total - 4) !== crc32(joined, offset, offset + total - 4)) {
        throw new Error('event-stream message checksum mismatch');
      }
      const headers = readHeaders(joined.subarray(offset + 12, offset + 12 + headersLength));
      messages.push({ headers, payload: joined.slice(offset + 12 + headersLength, offset + total - 4) });
      offset += total;
    }
    this.buffer = joined.slice(offset);
    return messages;
  }

  /** Bytes of an unfinished message still buffered. */
  get pending(): number {
    return this.buffer.length;
  }
}

function readHeaders(bytes: Uint8Array): Record<string, string | number | boolean> {
  const headers: Record<string, string | number | boolean> = {};
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  let offset = 0;
  while (offset < bytes.length) {
    const nameLength = bytes[offset]!;
    const name = decoder.decode(bytes.subarray(offset + 1, offset + 1 + nameLength));
    offset += 1 + nameLength;
    const type = bytes[offset++];
    switch (type) {
      case 0:
      case 1:
        headers[name] = type === 0;
        break;
      case 2:
        headers[name] = view.getInt8(offset);
        offset += 1;
        break;
      case 3:
        headers[name] = view.getInt16(offset);
        offset += 2;
        break;
      case 4:
        headers[name] = view.getInt32(offset);
        offset += 4;
        break;
      case 5:
      case 8:
        headers[name] = Number(view.getBigInt64(offset));
        offset += 8;
        break;
      case 6:
      case 7: {
        const length = view.getUint16(offset);
        const value = bytes.subarray(offset + 2, offset + 2 + length);
        headers[name] = type === 7 ? decoder.decode(value) : String(length);
        offset += 2 + length;
        break;
      }
      case 9:
        offset += 16;
        headers[name] = 'uuid';
        break;
      default:
        throw new Error(`event-stream header ${name} has unknown type ${type}`);
    }
  }
  return headers;
}

/**
 * Decodes a Bedrock `InvokeModelWithResponseStream` body into the Anthropic SSE events it carries:
 * each `chunk` event's JSON `bytes` field is base64 of one Anthropic stream event. Exceptions
 * (`throttlingException`, `modelStreamErrorException`...) and corrupt frames become Anthropic
 * `error` events, after which decoding stops.
 */
export function createBedrockEventStreamDecoder(): TransformStream<Uint8Array, SseEvent> {
  const frames = new AwsEventStreamDecoder();
  let stopped = false;
  const fail = (controller: TransformStreamDefaultController<SseEvent>, type: string, message: string) => {
    stopped = true;
    controller.enqueue({ event: 'error', data: JSON.stringify({ type: 'error', error: { type, message } }) });
  };
  return new TransformStream<Uint8Array, SseEvent>({
    transform(chunk, controller) {
      if (stopped) return;
      let messages: AwsEventStreamMessage[];
      try {
        messages = frames.push(chunk);
      } catch (error) {
        fail(controller, 'api_error', `malformed Bedrock event stream: ${(error as Error).message}`);
        return;
      }
      for (const message of messages) {
        const kind = message.headers[':message-type'];
        const text = decoder.decode(message.payload);
        if (kind === 'exception' || kind === 'error') {
          const name = String(
            message.headers[':exception-type'] ?? message.headers[':error-code'] ?? 'internalServerException',
          );
          fail(controller, EXCEPTION_TYPES[name] ?? 'api_error', exceptionMessage(text, name));
          return;
        }
        if (message.headers[':event-type'] !== 'chunk') continue;
        const data = chunkData(text);
        if (data === undefined) continue;
        controller.enqueue({ event: eventType(data), data });
      }
    },
    flush(controller) {
      if (!stopped && frames.pending > 0)
        fail(controller, 'api_error', 'Bedrock event stream ended inside a message');
    },
  });
}

function chunkData(text: string): string | undefined {
  try {
    const bytes = (JSON.parse(text) as { bytes?: unknown }).bytes;
    if (typeof bytes !== 'string') return undefined;
    return decoder.decode(Uint8Array.from(atob(bytes), (char) => char.charCodeAt(0)));
  } catch {
    return undefined;
  }
}

function eventType(data: string): string | undefined {
  const match = /"type"\s*:\s*"([a-z_]+)"/.exec(data);
  return match?.[1];
}

function exceptionMessage(text: string, name: string): string {
  try {
    const message = (JSON.parse(text) as { message?: unknown }).message;
    if (typeof message === 'string' && message !== '') return message;
  } catch {
    // Not JSON: fall through.
  }
  return text.trim() === '' ? name : text.trim();
}
