import type { DatabaseHandle } from '../database.ts';

/** The channels table and its abilities index. */
export class ChannelRepository {
  constructor(private readonly handle: DatabaseHandle) {}

  protected get db() {
    return this.handle.db;
  }
}
