import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'pino';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/** A parent that can say whether a level is on without a child (pino can). */
interface LevelAware extends FastifyBaseLogger {
  isLevelEnabled(level: string): boolean;
}

const levelAware = (logger: FastifyBaseLogger): logger is LevelAware =>
  typeof (logger as Partial<LevelAware>).isLevelEnabled === 'function';

/**
 * A request's logger that makes pino's child (with the request id bound) only when something is
 * logged at a level that is on. Fastify makes one child per request, and pino's child costs a
 * bindings serialisation and a rebuild of its level methods (a few µs on the relay's hot path)
 * while, at the usual `warn` level, nothing of a successful request is ever written.
 */
export class LazyRequestLogger implements FastifyBaseLogger {
  private made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: LevelAware,
    private readonly bindings: Bindings,
  ) {}

  /** The real child, made on first need. */
  private target(): FastifyBaseLogger {
    this.made ??= this.parent.child(this.bindings);
    return this.made;
  }

  /** Writes through the real child when `level` is on (pino's methods take the same arguments). */
  private write(level: Level, args: unknown[]): void {
    if (!this.isLevelEnabled(level)) return;
    const target = this.target() as unknown as Record<Level, (...values: unknown[]) => void>;
    target[level](...args);
  }

  get level(): string {
    return this.made ? this.made.level : this.parent.level;
  }

  set level(value: string) {
    this.target().level = value;
  }

  isLevelEnabled(level: string): boolean {
    return this.made ? (this.made as LevelAware).isLevelEnabled(level) : this.parent.isLevelEnabled(level);
  }

  fatal(...args: unknown[]): void {
    this.write('fatal', args);
  }

  error(...args: unknown[]): void {
    this.write('error', args);
  }

  warn(...args: unknown[]): void {
    this.write('warn', args);
  }

  info(...args: unknown[]): void {
    this.write('info', args);
  }

  debug(...args: unknown[]): void {
    this.write('debug', args);
  }

  trace(...args: unknown[]): void {
    this.write('trace', args);
  }

  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.target().child(bindings, options);
  }
}

/**
 * Fastify's `childLoggerFactory`: a {@link LazyRequestLogger} when the parent can answer level
 * checks and the route asks for no level or serializers of its own; pino's child otherwise.
 */
export function lazyChildLoggerFactory(
  this: FastifyInstance,
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  if (!levelAware(logger) || options.level !== undefined || options.serializers !== undefined) {
    return logger.child(bindings, options);
  }
  return new LazyRequestLogger(logger, bindings);
}
