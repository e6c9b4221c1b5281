import type { DatabaseHandle } from '../database.ts';

/** The tokens table (relay API keys). */
export class TokenRepository {
  constructor(private readonly handle: DatabaseHandle) {}

  protected get db() {
    return this.handle.db;
  }
}
