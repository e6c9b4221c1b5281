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

/** Redis pub/sub bus; a node hears its own messages too, so local listeners run once per change. */
export function createRedisChangeBus(url: string, onError: (error: Error) => void): ChangeBus {
  const publisher = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 1 });
  const subscriber = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: null });
  const local = createLocalChangeBus();
  publisher.on('error', onError);
  subscriber.on('error', onError);
  const ready = subscriber.subscribe(CHANNEL).then(
    () => undefined,
    (error: Error) => onError(error),
  );
  subscriber.on('message', (_channel: string, message: string) => {
    const separator = message.indexOf(':');
    const topic = (separator < 0 ? message : message.slice(0, separator)) as ChangeTopic;
    local.publish(topic, separator < 0 ? '' : message.slice(separator + 1));
  });
  return {
    publish: (topic, detail = '') => {
      publisher.publish(CHANNEL, `${topic}:${detail}`).catch(() => {
        // Redis is down: keep this node correct at least.
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
