import { type AbortSource, onAbort } from './relay-abort.ts';

/** Gives a taken slot back; calling it more than once is harmless. */
export type SlotRelease = () => void;

/**
 * Counts this node's upstream requests in flight, in total and per channel, and refuses a new
 * one at once when a cap is reached: the relay answers 503 (node full) or tries another channel
 * and finally answers 429 (channels full) instead of letting requests queue without bound.
 * A slot is held from the moment a channel is chosen until the upstream body is finished,
 * failed or abandoned (client gone), so streams count for as long as they are open.
 * Limits are per node: with N nodes a channel sees at most N × its cap.
 */
export class UpstreamLimits {
  private total = 0;
  private readonly perChannel = new Map<number, number>();

  /** `globalMax`: most relay calls in flight on this node (null = no cap, RELAY_MAX_CONCURRENCY). */
  constructor(private readonly globalMax: number | null) {}

  /** Relay calls in flight on this node. */
  get inFlight(): number {
    return this.total;
  }

  /** Upstream requests in flight to one channel on this node. */
  inFlightOf(channelId: number): number {
    return this.perChannel.get(channelId) ?? 0;
  }

  /** Takes a node slot for one relay call, or null when the node is full. */
  enterNode(): SlotRelease | null {
    if (this.globalMax !== null && this.total >= this.globalMax) return null;
    this.total++;
    return once(() => {
      this.total--;
    });
  }

  /** Takes a slot on a channel, or null when the channel is at its cap (null cap = unlimited). */
  enterChannel(channelId: number, max: number | null): SlotRelease | null {
    const current = this.perChannel.get(channelId) ?? 0;
    if (max !== null && current >= max) return null;
    this.perChannel.set(channelId, current + 1);
    return once(() => {
      const left = (this.perChannel.get(channelId) ?? 1) - 1;
      if (left <= 0) this.perChannel.delete(channelId);
      else this.perChannel.set(channelId, left);
    });
  }
}

function once(action: () => void): SlotRelease {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    action();
  };
}

/** Something whose end frees a slot: an upstream response body (a Node readable). */
interface Finishable {
  once(event: 'close' | 'end' | 'error', listener: () => void): unknown;
  readonly destroyed?: boolean;
  readonly readableEnded?: boolean;
}

/**
 * Releases `release` when the body is done (ended, failed or destroyed) or the call is aborted,
 * whichever comes first.
 */
export function releaseWhenDone(body: Finishable, signal: AbortSource, release: SlotRelease): void {
  if (body.destroyed || body.readableEnded || signal.aborted) {
    release();
    return;
  }
  body.once('close', release);
  body.once('end', release);
  body.once('error', release);
  onAbort(signal, release);
}
