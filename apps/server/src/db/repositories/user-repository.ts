import {
  type Insertable,
  type Kysely,
  type Selectable,
  sql,
  type Transaction,
  type Updateable,
} from 'kysely';
import type { DatabaseHandle } from '../database.ts';
import { containsIgnoringCase } from '../like-pattern.ts';
import type { Database, UserTable } from '../schema.ts';

export type UserRow = Selectable<UserTable>;
export type NewUser = Insertable<UserTable>;
export type UserChanges = Updateable<UserTable>;
type Executor = Kysely<Database> | Transaction<Database>;

/** Page of rows plus the total count, the shape of the console's paginated lists. */
export interface Page<T> {
  items: T[];
  total: number;
}

/** Columns holding a third-party account id. */
export type IdentityColumn = 'github_id' | 'linux_do_id' | 'wechat_id' | 'telegram_id';

export interface UserSearch {
  keyword?: string;
  group?: string;
  offset: number;
  limit: number;
}

/** The users table. Quota changes are single conditional statements so they stay atomic. */
export class UserRepository {
  /**
   * @param onChange called with the user id after any update, so caches on every node drop it
   * (the app wires it to the change bus).
   */
  constructor(
    private readonly handle: DatabaseHandle,
    private readonly onChange: (userId: number) => void = () => undefined,
  ) {}

  private get db() {
    return this.handle.db;
  }

  async findById(id: number, executor: Executor = this.db): Promise<UserRow | undefined> {
    return executor.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Live (not deleted) user by username or e-mail, for password login. */
  async findActiveByLogin(login: string): Promise<UserRow | undefined> {
    return this.db
      .selectFrom('users')
      .selectAll()
      .where('deleted_at', 'is', null)
      .where((eb) =>
        eb.or([eb('username', '=', login), eb.and([eb('email', '=', login), eb('email', '!=', '')])]),
      )
      .orderBy('id')
      .executeTakeFirst();
  }

  async findByUsername(username: string, executor: Executor = this.db): Promise<UserRow | undefined> {
    return executor.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();
  }

  async findActiveByEmail(email: string): Promise<UserRow | undefined> {
    if (email === '') return undefined;
    return this.db
      .selectFrom('users')
      .selectAll()
      .where('email', '=', email)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
  }

  async findByAccessToken(accessToken: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('access_token', '=', accessToken).executeTakeFirst();
  }

  async findActiveByAffCode(affCode: string, executor: Executor = this.db): Promise<UserRow | undefined> {
    return executor
      .selectFrom('users')
      .selectAll()
      .where('aff_code', '=', affCode)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
  }

  /** The user (deactivated ones included: their bindings stay taken) holding a third-party id. */
  async findByIdentity(
    column: IdentityColumn,
    value: string,
    executor: Executor = this.db,
  ): Promise<UserRow | undefined> {
    if (value === '') return undefined;
    return executor
      .selectFrom('users')
      .selectAll()
      .where(column, '=', value)
      .orderBy('id')
      .executeTakeFirst();
  }

  /** Highest user id (0 when empty), for names like github_<n>. */
  async maxId(executor: Executor = this.db): Promise<number> {
    const row = await executor
      .selectFrom('users')
      .select((eb) => eb.fn.max('id').as('max'))
      .executeTakeFirst();
    return Number(row?.max ?? 0);
  }

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirst();
    return Number(row?.count ?? 0);
  }

  /** Inserts a user and returns its id (RETURNING where supported, insertId on MySQL). */
  async create(user: NewUser, executor: Executor = this.db): Promise<number> {
    const values = { created_time: Math.floor(Date.now() / 1000), ...user };
    if (this.handle.kind === 'mysql') {
      const result = await executor.insertInto('users').values(values).executeTakeFirstOrThrow();
      return Number(result.insertId);
    }
    const row = await executor.insertInto('users').values(values).returning('id').executeTakeFirstOrThrow();
    return row.id;
  }

  async update(id: number, changes: UserChanges, executor: Executor = this.db): Promise<void> {
    if (Object.keys(changes).length === 0) return;
    await executor.updateTable('users').set(changes).where('id', '=', id).execute();
    this.onChange(id);
  }

  /** Adds (or with a negative delta removes) quota; returns false when the user does not exist. */
  async addQuota(id: number, delta: number, executor: Executor = this.db): Promise<boolean> {
    const result = await executor
      .updateTable('users')
      .set({ quota: sql`quota + ${delta}` })
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Moves invite rewards into the balance if enough are available; false otherwise. */
  async transferAffQuota(id: number, amount: number): Promise<boolean> {
    const result = await this.db
      .updateTable('users')
      .set({ aff_quota: sql`aff_quota - ${amount}`, quota: sql`quota + ${amount}` })
      .where('id', '=', id)
      .where('aff_quota', '>=', amount)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Credits the inviter of a new user. */
  async rewardInviter(id: number, amount: number, executor: Executor = this.db): Promise<void> {
    await executor
      .updateTable('users')
      .set({
        aff_count: sql`aff_count + 1`,
        aff_quota: sql`aff_quota + ${amount}`,
        aff_history: sql`aff_history + ${amount}`,
      })
      .where('id', '=', id)
      .execute();
  }

  /** Lists users newest first, including deactivated ones (the console shows their state). */
  async search(criteria: UserSearch): Promise<Page<UserRow>> {
    let query = this.db.selectFrom('users');
    const keyword = criteria.keyword?.trim();
    if (keyword) {
      const numeric = /^\d+$/.test(keyword) ? Number(keyword) : null;
      query = query.where((eb) =>
        eb.or([
          ...(numeric !== null && numeric <= 2_147_483_647 ? [eb('id', '=', numeric)] : []),
          containsIgnoringCase('username', keyword),
          containsIgnoringCase('email', keyword),
          containsIgnoringCase('display_name', keyword),
        ]),
      );
    }
    if (criteria.group) query = query.where('group', '=', criteria.group);
    const [items, total] = await Promise.all([
      query.selectAll().orderBy('id', 'desc').limit(criteria.limit).offset(criteria.offset).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirst(),
    ]);
    return { items, total: Number(total?.count ?? 0) };
  }

  /** Runs work in one transaction. */
  transaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }
}
