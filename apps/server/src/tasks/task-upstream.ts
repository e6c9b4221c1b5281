import { Agent, request } from 'undici';

/** An upstream answer read whole (task APIs answer small JSON bodies). */
export interface TaskUpstreamReply {
  status: number;
  text: string;
}

/** Largest upstream body read. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** HTTP to task-platform upstreams: JSON calls with a deadline, and image streaming. */
export class TaskUpstream {
  private readonly agent = new Agent({ keepAliveTimeout: 30_000, connect: { timeout: 10_000 } });

  /** Sends JSON (or a GET when `body` is undefined) and reads the answer; throws on network errors and timeouts. */
  async call(
    method: 'GET' | 'POST',
    url: string,
    headers: Record<string, string>,
    body: unknown,
    timeoutMs: number,
  ): Promise<TaskUpstreamReply> {
    const response = await request(url, {
      method,
      headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
      dispatcher: this.agent,
      signal: AbortSignal.timeout(timeoutMs),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body) {
      size += (chunk as Buffer).length;
      if (size > MAX_BODY_BYTES) {
        response.body.destroy();
        throw new Error('upstream answer too large');
      }
      chunks.push(chunk as Buffer);
    }
    return { status: response.statusCode, text: Buffer.concat(chunks).toString('utf8') };
  }

  /** Starts a GET for streaming (the image route); the caller consumes or destroys the body. */
  stream(url: string, timeoutMs: number) {
    return request(url, {
      method: 'GET',
      dispatcher: this.agent,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}
