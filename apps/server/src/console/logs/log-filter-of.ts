import { type LogFilterQuery, queryInteger } from '@switchyard/shared';
import type { LogFilter } from '../../db/repositories/log-repository.ts';

/**
 * The filters of a list, stat or export query; self routes drop username and channel and pin
 * user_id. The one reading of LogFilterQuery, so the export answers exactly the rows the list shows.
 */
export function filterOf(query: LogFilterQuery, userId: number | null): LogFilter {
  const filter: LogFilter = {
    type: queryInteger(query.type),
    tokenName: query.token_name?.trim() ?? '',
    modelName: query.model_name?.trim() ?? '',
    start: queryInteger(query.start_timestamp),
    end: queryInteger(query.end_timestamp),
    group: query.group?.trim() ?? '',
  };
  if (userId !== null) return { ...filter, userId };
  return { ...filter, username: query.username?.trim() ?? '', channelId: queryInteger(query.channel) };
}
