import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle } from '../db/database.ts';

/**
 * This process in node_instances: registered at start with a random id, a heartbeat every
 * `heartbeatMs` (unref'd timer, off the hot path), deleted at graceful shutdown after the final
 * flush. Reconciliation treats a process whose row is gone or whose heartbeat is stale as dead
 * (instance-liveness.ts). A beat that finds its row gone (the master took this process for dead
 * after a long stall) registers it again. A failed beat is logged once per outage.
 */
export class NodeInstance {
  readonly id = randomUUID();
  readonly startedAt = Date.now();
  private timer: NodeJS.Timeout | undefined;
  private failing = false;
  private beating: Promise<void> | null = null;

  constructor(
    private readonly database: DatabaseHandle,
    readonly nodeType: string,
    private readonly log: FastifyBaseLogger,
    private readonly heartbeatMs: number,
  ) {}

  /** Registers the row (throws when the database refuses) and starts beating. */
  async start(): Promise<void> {
    await this.register(Date.now());
    this.timer = setInterval(() => {
      if (!this.beating) this.beating = this.beat().finally(() => (this.beating = null));
    }, this.heartbeatMs);
    this.timer.unref();
  }

  private async register(now: number): Promise<void> {
    await this.database.db
      .insertInto('node_instances')
      .values({ id: this.id, node_type: this.nodeType, started_at: this.startedAt, heartbeat_at: now })
      .execute();
  }

  /** One heartbeat; never throws. */
  async beat(): Promise<void> {
    try {
      const now = Date.now();
      const updated = await this.database.db
        .updateTable('node_instances')
        .set({ heartbeat_at: now })
        .where('id', '=', this.id)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) {
        this.log.warn(
          { instance: this.id },
          'node instance row was gone (taken for dead); registering again',
        );
        await this.register(now);
      }
      if (this.failing) this.log.info({ instance: this.id }, 'node heartbeat restored');
      this.failing = false;
    } catch (error) {
      if (!this.failing) this.log.error({ err: error, instance: this.id }, 'node heartbeat failed');
      this.failing = true;
    }
  }

  /** Stops beating and deletes the row (after the final flush: nothing of this process is left open). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    if (this.beating) await this.beating;
    await this.database.db.deleteFrom('node_instances').where('id', '=', this.id).execute();
  }
}
