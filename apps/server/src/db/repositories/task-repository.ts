import type { Insertable, Kysely, Selectable, Transaction, Updateable } from 'kysely';
import type { DatabaseHandle } from '../database.ts';
import type { Database, TaskTable } from '../schema.ts';
import { FINISHED_PROGRESS } from './midjourney-repository.ts';

export type TaskRow = Selectable<TaskTable>;
export type NewTask = Insertable<TaskTable>;
export type TaskChanges = Updateable<TaskTable>;
type Executor = Kysely<Database> | Transaction<Database>;

/** Filters of the task lists, combined with AND (0 / '' = no filter). */
export interface TaskFilter {
  userId?: number;
  channelId?: number;
  /** Exact. */
  taskId?: string;
  platform?: string;
  status?: string;
  action?: string;
  /** submit_time ≥ start (seconds). */
  start?: number;
  /** submit_time ≤ end (seconds). */
  end?: number;
}

/** The tasks table: asynchronous tasks of the task platforms (Suno). */
export class TaskRepository {
  constructor(private readonly handle: DatabaseHandle) {}

  private get db(): Kysely<Database> {
    return this.handle.db;
  }

  /** Inserts a task row and returns its id. */
  async insert(row: NewTask): Promise<number> {
    if (this.handle.kind === 'mysql') {
      const result = await this.db.insertInto('tasks').values(row).executeTakeFirstOrThrow();
      return Number(result.insertId);
    }
    const inserted = await this.db.insertInto('tasks').values(row).returning('id').executeTakeFirstOrThrow();
    return Number(inserted.id);
  }

  /** The caller's task with this upstream task id. */
  async findByTaskId(userId: number, taskId: string): Promise<TaskRow | undefined> {
    if (taskId === '') return undefined;
    return this.db
      .selectFrom('tasks')
      .selectAll()
      .where('user_id', '=', userId)
      .where('task_id', '=', taskId)
      .orderBy('id', 'desc')
      .executeTakeFirst();
  }

  /** The caller's tasks among these upstream task ids. */
  async findManyByTaskIds(userId: number, taskIds: readonly string[]): Promise<TaskRow[]> {
    const ids = taskIds.filter((id) => id !== '');
    if (ids.length === 0) return [];
    return this.db
      .selectFrom('tasks')
      .selectAll()
      .where('user_id', '=', userId)
      .where('task_id', 'in', ids)
      .orderBy('id')
      .execute();
  }

  /** Unfinished tasks of a platform (progress below 100%), oldest first. */
  async listUnfinished(platform: string, limit: number): Promise<TaskRow[]> {
    return this.db
      .selectFrom('tasks')
      .selectAll()
      .where('platform', '=', platform)
      .where('progress', '<>', FINISHED_PROGRESS)
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  /** Updates a task that is still unfinished; false when it was finished meanwhile. */
  async updateUnfinished(id: number, changes: TaskChanges, executor: Executor = this.db): Promise<boolean> {
    const result = await executor
      .updateTable('tasks')
      .set(changes)
      .where('id', '=', id)
      .where('progress', '<>', FINISHED_PROGRESS)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** One page of tasks, newest first. */
  async list(filter: TaskFilter, page: { offset: number; limit: number }): Promise<TaskRow[]> {
    let query = this.db.selectFrom('tasks');
    if (filter.userId) query = query.where('user_id', '=', filter.userId);
    if (filter.channelId) query = query.where('channel_id', '=', filter.channelId);
    if (filter.taskId) query = query.where('task_id', '=', filter.taskId);
    if (filter.platform) query = query.where('platform', '=', filter.platform);
    if (filter.status) query = query.where('status', '=', filter.status);
    if (filter.action) query = query.where('action', '=', filter.action);
    if (filter.start) query = query.where('submit_time', '>=', filter.start);
    if (filter.end) query = query.where('submit_time', '<=', filter.end);
    return query.selectAll().orderBy('id', 'desc').offset(page.offset).limit(page.limit).execute();
  }
}
