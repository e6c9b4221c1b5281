import { EventEmitter } from 'node:events';
import { Redis } from 'ioredis';

/** Topics whose changes every node must learn about to keep its in-memory copies current. */
export type ChangeTopic = 'options' | 'channels' | 'tokens' | 'users';

/**
 * Tells every node that something changed. Without Redis only this process hears it (other
 * nodes catch up at the next SYNC_FREQUENCY reload); with Redis it is published to all nodes.
 */
export interface ChangeBus {
  publish(topic: ChangeTopic, detail?: string): void;
  subscribe(listener: (topic: ChangeTopic, detail: string) => void): void;
  close(): Promise<void>;
  /** Resolves once the bus can hear other nodes (at once for the local bus). */
  ready: Promise<void>;
}

const CHANNEL = 'switchyard:changes';

export function createLocalChangeBus(): ChangeBus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    publish: (topic, detail = '') => emitter.emit('change', topic, detail),
    subscribe: (listener) => {
      emitter.on('change', listener);
    },
    close: async () => {
      emitter.removeAllListeners();
    },
    ready: Promise.resolve(),
  };
}

/** Where Redis health is reported (pino's logger fits). */
export interface RedisHealthLog {
  warn(details: object, message: string): void;
  info(message: string): void;
}

/**
 * Follows every Redis connection of the node: one warning when the first one fails (the node
 * falls back to local state), one info line when all of them are connected again. Reconnect
 * attempts in between stay quiet.
 */
export function trackRedisHealth(log: RedisHealthLog): (client: Redis) => void {
  const failing = new Set<Redis>();
  let outage = false;
  return (client) => {
    client.on('error', (error: Error) => {
      failing.add(client);
      if (outage) return;
      outage = true;
      log.warn({ err: error }, 'Redis is unreachable: falling back to local state');
    });
    client.on('close', () => failing.add(client));
    client.on('ready', () => {
      failing.delete(client);
      if (!outage || failing.size > 0) return;
      outage = false;
      log.info('Redis is reachable again');
    });
  };
}

/**
 * Redis pub/sub bus; a node hears its own messages too, so local listeners run once per change.
 * While Redis is down a change is delivered to this node's listeners at once (the publisher does
 * not queue), other nodes catch up at their next SYNC_FREQUENCY reload; the subscriber
 * re-subscribes by itself when Redis returns.
 */
export function createRedisChangeBus(url: string, watch: (client: Redis) => void): ChangeBus {
  const publisher = new Redis(url, {
    lazyConnect: false,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
  });
  const subscriber = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: null });
  const local = createLocalChangeBus();
  watch(publisher);
  watch(subscriber);
  const ready = subscriber.subscribe(CHANNEL).then(
    () => undefined,
    () => undefined,
  );
  subscriber.on('message', (_channel: string, message: string) => {
    const separator = message.indexOf(':');
    const topic = (separator < 0 ? message : message.slice(0, separator)) as ChangeTopic;
    local.publish(topic, separator < 0 ? '' : message.slice(separator + 1));
  });
  return {
    publish: (topic, detail = '') => {
      if (publisher.status !== 'ready') {
        local.publish(topic, detail);
        return;
      }
      publisher.publish(CHANNEL, `${topic}:${detail}`).catch(() => {
        // Redis went away meanwhile: keep this node correct at least.
        local.publish(topic, detail);
      });
    },
    subscribe: local.subscribe,
    ready,
    close: async () => {
      await local.close();
      subscriber.disconnect();
      publisher.disconnect();
    },
  };
}
