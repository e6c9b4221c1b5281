import { type Static, Type } from '@sinclair/typebox';
import { QueryInteger } from '@switchyard/shared';

/**
 * Query strings of the drawing and task lists. Integers are read as the reference reads them
 * (QueryInteger: empty or non-integer values such as `NaN` count as 0, "not given"). Paging as in
 * the reference: `p` from 0; `page_size` 1..100 (default 10; the reference console never sends it).
 */
const Timestamp = QueryInteger({ minimum: 0, maximum: 100_000_000_000_000 });
const Id = Type.Optional(Type.String({ maxLength: 191 }));

/**
 * `GET /api/mj/` (admin) and `GET /api/mj/self/`: `mj_id` exact; `start_timestamp` /
 * `end_timestamp` bound `submit_time` (milliseconds as the reference console sends them; values
 * below 10^11 are read as seconds); `channel_id` (admin only, ignored on self).
 */
export const MidjourneyListQuery = Type.Object({
  p: QueryInteger(),
  page_size: QueryInteger(),
  mj_id: Id,
  channel_id: QueryInteger({ minimum: 0, maximum: 2_147_483_647 }),
  start_timestamp: Timestamp,
  end_timestamp: Timestamp,
});
export type MidjourneyListQuery = Static<typeof MidjourneyListQuery>;

/**
 * `GET /api/task/` (admin) and `GET /api/task/self`: `task_id`, `platform`, `status`, `action`
 * exact; `start_timestamp` / `end_timestamp` bound `submit_time` (seconds); `channel_id` (admin).
 */
export const TaskListQuery = Type.Object({
  p: QueryInteger(),
  page_size: QueryInteger(),
  task_id: Id,
  platform: Type.Optional(Type.String({ maxLength: 30 })),
  status: Type.Optional(Type.String({ maxLength: 20 })),
  action: Type.Optional(Type.String({ maxLength: 40 })),
  channel_id: QueryInteger({ minimum: 0, maximum: 2_147_483_647 }),
  start_timestamp: Timestamp,
  end_timestamp: Timestamp,
});
export type TaskListQuery = Static<typeof TaskListQuery>;
