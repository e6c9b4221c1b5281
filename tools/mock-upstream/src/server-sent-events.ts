/** One event of an event stream: its `event:` name (if any) and its joined `data:` lines. */
export interface ServerSentEvent {
  readonly event: string | undefined;
  readonly data: string;
}

/**
 * Parses a complete event-stream text (LF or CRLF line endings) into events. A small helper for
 * tests that assert on the mock's streams; production code should use a streaming parser.
 */
export function parseServerSentEvents(text: string): ServerSentEvent[] {
  const events: ServerSentEvent[] = [];
  for (const block of text.split(/\r?\n\r?\n/)) {
    let event: string | undefined;
    const data: string[] = [];
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
    }
    if (event !== undefined || data.length > 0) events.push({ event, data: data.join('\n') });
  }
  return events;
}

/** The `data` of each event parsed as JSON, skipping OpenAI's `[DONE]` terminator. */
export function parseServerSentJson(text: string): unknown[] {
  return parseServerSentEvents(text)
    .filter((event) => event.data !== '[DONE]')
    .map((event) => JSON.parse(event.data) as unknown);
}
