/** One parsed event of an OpenAI-style stream. */
export type StreamEvent = { kind: 'data'; data: string } | { kind: 'done' };

/**
 * Splits a text event stream into `data:` payloads. Feed it chunks as they arrive; partial lines
 * wait for the next chunk. `[DONE]` is the end marker. Comments and other fields are ignored.
 */
export function createSseReader() {
  let buffer = '';
  const parseLine = (line: string): StreamEvent | null => {
    if (!line.startsWith('data:')) return null;
    const data = line.slice(5).trim();
    if (data === '') return null;
    return data === '[DONE]' ? { kind: 'done' } : { kind: 'data', data };
  };
  return {
    push(chunk: string): StreamEvent[] {
      buffer += chunk;
      const lines = buffer.split(/\r?\n/);
      buffer = lines.pop() ?? '';
      return lines.map(parseLine).filter((event): event is StreamEvent => event !== null);
    },
    /** What is left when the stream ends without a final newline. */
    flush(): StreamEvent[] {
      const rest = parseLine(buffer.trim());
      buffer = '';
      return rest ? [rest] : [];
    },
  };
}
