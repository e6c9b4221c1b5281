/** "Clear logs before" as the console polls it (GET /api/log/clear_progress). */
export interface ClearProgress {
  /** idle: none since this node started; running; done; failed (message says why). */
  state: 'idle' | 'running' | 'done' | 'failed';
  /** Logs created before this time (seconds) are deleted; 0 when idle. */
  target_timestamp: number;
  /** Rows deleted so far. */
  deleted: number;
  /** Seconds; 0 when idle. */
  started_at: number;
  /** Seconds; 0 until it has ended. */
  finished_at: number;
  message: string;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** One clear's running count and outcome. */
export class ClearRun {
  private deleted = 0;
  private state: ClearProgress['state'] = 'running';
  private readonly startedAt = nowSeconds();
  private finishedAt = 0;
  private message = '';
  private markEnded!: () => void;
  /** Resolves when the clear has ended (done or failed). */
  readonly ended = new Promise<void>((resolve) => {
    this.markEnded = resolve;
  });

  constructor(readonly target: number) {}

  static idle(): ClearProgress {
    return { state: 'idle', target_timestamp: 0, deleted: 0, started_at: 0, finished_at: 0, message: '' };
  }

  get finished(): boolean {
    return this.state !== 'running';
  }

  add(rows: number): void {
    this.deleted += rows;
  }

  finish(): void {
    this.end('done', '');
  }

  fail(message: string): void {
    this.end('failed', message);
  }

  progress(): ClearProgress {
    return {
      state: this.state,
      target_timestamp: this.target,
      deleted: this.deleted,
      started_at: this.startedAt,
      finished_at: this.finishedAt,
      message: this.message,
    };
  }

  private end(state: 'done' | 'failed', message: string): void {
    if (this.state !== 'running') return;
    this.state = state;
    this.message = message;
    this.finishedAt = nowSeconds();
    this.markEnded();
  }
}
