/**
 * One server-sent event. Same shape as `eventsource-parser`'s `EventSourceMessage`: `event` and
 * `id` are `undefined` when the stream did not set them (no default `message` type).
 */
export interface SseEvent {
  readonly event?: string | undefined;
  readonly id?: string | undefined;
  /** The data lines of the event joined with `\n`, without the `data:` prefixes. */
  readonly data: string;
}
