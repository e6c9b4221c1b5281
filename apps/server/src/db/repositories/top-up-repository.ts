import { TopUpStatus } from '@switchyard/shared';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { DatabaseHandle } from '../database.ts';
import type { Database, TopUpTable } from '../schema.ts';

type Executor = Kysely<Database> | Transaction<Database>;

/** An online top-up order. `amount` is in dollars (quota = amount × QuotaPerUnit); `money` is what was to be paid. */
export interface TopUpRow {
  id: number;
  user_id: number;
  amount: number;
  money: number;
  trade_no: string;
  payment_method: string;
  create_time: number;
  complete_time: number;
  status: string;
}

export type NewTopUp = Pick<
  TopUpRow,
  'user_id' | 'amount' | 'money' | 'trade_no' | 'payment_method' | 'create_time'
>;

function toRow(stored: Selectable<TopUpTable>): TopUpRow {
  return {
    id: Number(stored.id),
    user_id: Number(stored.user_id),
    amount: Number(stored.amount),
    money: Number(stored.money),
    trade_no: stored.trade_no,
    payment_method: stored.payment_method,
    create_time: Number(stored.create_time),
    complete_time: Number(stored.complete_time),
    status: stored.status,
  };
}

/**
 * The top_ups table. `trade_no` is unique, and an order moves from pending to success only
 * through `markSucceeded`, a conditional UPDATE that exactly one caller can win.
 */
export class TopUpRepository {
  constructor(private readonly handle: DatabaseHandle) {}

  private get db() {
    return this.handle.db;
  }

  /** Inserts a pending order (a duplicate `trade_no` fails with a unique violation). */
  async create(order: NewTopUp, executor: Executor = this.db): Promise<void> {
    await executor
      .insertInto('top_ups')
      .values({ ...order, status: TopUpStatus.Pending })
      .execute();
  }

  async findByTradeNo(tradeNo: string, executor: Executor = this.db): Promise<TopUpRow | undefined> {
    const stored = await executor
      .selectFrom('top_ups')
      .selectAll()
      .where('trade_no', '=', tradeNo)
      .executeTakeFirst();
    return stored ? toRow(stored) : undefined;
  }

  /**
   * Moves a pending order to success. True for exactly one caller per order, however many
   * deliveries of the payment notification race on however many nodes.
   */
  async markSucceeded(tradeNo: string, now: number, executor: Executor = this.db): Promise<boolean> {
    const result = await executor
      .updateTable('top_ups')
      .set({ status: TopUpStatus.Success, complete_time: now })
      .where('trade_no', '=', tradeNo)
      .where('status', '=', TopUpStatus.Pending)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
