import { crc32 } from 'node:zlib';

/**
 * Encodes one AWS event-stream message (`application/vnd.amazon.eventstream`): a 12-byte
 * prelude (total length, headers length, CRC-32 of those 8 bytes), the headers (each: name
 * length, name, type 7 = string, value length, value), the payload and the CRC-32 of everything
 * before it. All integers are big-endian.
 */
export function encodeEventStreamMessage(headers: Readonly<Record<string, string>>, payload: Buffer): Buffer {
  const headerBuffers: Buffer[] = [];
  for (const [name, value] of Object.entries(headers)) {
    const nameBytes = Buffer.from(name, 'utf8');
    const valueBytes = Buffer.from(value, 'utf8');
    const header = Buffer.alloc(1 + nameBytes.length + 3 + valueBytes.length);
    header.writeUInt8(nameBytes.length, 0);
    nameBytes.copy(header, 1);
    header.writeUInt8(7, 1 + nameBytes.length);
    header.writeUInt16BE(valueBytes.length, 2 + nameBytes.length);
    valueBytes.copy(header, 4 + nameBytes.length);
    headerBuffers.push(header);
  }
  const headerBytes = Buffer.concat(headerBuffers);
  const total = 12 + headerBytes.length + payload.length + 4;
  const message = Buffer.alloc(total);
  message.writeUInt32BE(total, 0);
  message.writeUInt32BE(headerBytes.length, 4);
  message.writeUInt32BE(crc32(message.subarray(0, 8)), 8);
  headerBytes.copy(message, 12);
  payload.copy(message, 12 + headerBytes.length);
  message.writeUInt32BE(crc32(message.subarray(0, total - 4)), total - 4);
  return message;
}

/** A Bedrock `chunk` event carrying `data` (one Anthropic stream event's JSON) base64-encoded. */
export function encodeBedrockChunk(data: string): Buffer {
  const payload = JSON.stringify({ bytes: Buffer.from(data, 'utf8').toString('base64'), p: 'abcdefghij' });
  return encodeEventStreamMessage(
    { ':event-type': 'chunk', ':content-type': 'application/json', ':message-type': 'event' },
    Buffer.from(payload, 'utf8'),
  );
}

/** A Bedrock stream exception (`:message-type: exception`) such as `internalServerException`. */
export function encodeBedrockException(type: string, message: string): Buffer {
  return encodeEventStreamMessage(
    { ':exception-type': type, ':content-type': 'application/json', ':message-type': 'exception' },
    Buffer.from(JSON.stringify({ message }), 'utf8'),
  );
}

/**
 * Splits an event-stream body back into messages (headers and payload), verifying both
 * checksums; for tests. Throws on a corrupt or truncated frame.
 */
export function decodeEventStreamMessages(
  body: Buffer,
): { headers: Record<string, string>; payload: Buffer }[] {
  const messages: { headers: Record<string, string>; payload: Buffer }[] = [];
  let offset = 0;
  while (offset < body.length) {
    if (body.length - offset < 16) throw new Error('truncated event-stream message');
    const total = body.readUInt32BE(offset);
    const headersLength = body.readUInt32BE(offset + 4);
    if (body.readUInt32BE(offset + 8) !== crc32(body.subarray(offset, offset + 8)))
      throw new Error('prelude checksum mismatch');
    if (offset + total > body.length) throw new Error('truncated event-stream message');
    if (body.readUInt32BE(offset + total - 4) !== crc32(body.subarray(offset, offset + total - 4)))
      throw new Error('message checksum mismatch');
    const headers: Record<string, string> = {};
    let cursor = offset + 12;
    const headersEnd = cursor + headersLength;
    while (cursor < headersEnd) {
      const nameLength = body.readUInt8(cursor);
      const name = body.toString('utf8', cursor + 1, cursor + 1 + nameLength);
      cursor += 1 + nameLength;
      if (body.readUInt8(cursor) !== 7) throw new Error(`header ${name} is not a string`);
      const valueLength = body.readUInt16BE(cursor + 1);
      headers[name] = body.toString('utf8', cursor + 3, cursor + 3 + valueLength);
      cursor += 3 + valueLength;
    }
    messages.push({ headers, payload: body.subarray(headersEnd, offset + total - 4) });
    offset += total;
  }
  return messages;
}
