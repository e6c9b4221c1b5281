import { type Static, Type } from '@sinclair/typebox';

/**
 * Bodies and queries of the channel operation routes (admin). Loose where the console's own
 * messages must come back (empty selections, non-integer priority or weight): those checks are
 * done by `channel-tag-rules.ts`, so a wrong value gets the console's message, not a schema error.
 */

const INT32_MAX = 2_147_483_647;
/** Most channels one batch call may name. */
export const BATCH_IDS_MAX = 1000;

export const ChannelIdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: INT32_MAX }) });

/** GET /api/channel/test/:id?model= */
export const ChannelTestQuery = Type.Object({ model: Type.Optional(Type.String({ maxLength: 255 })) });
export type ChannelTestQuery = Static<typeof ChannelTestQuery>;

const Ids = Type.Optional(
  Type.Array(Type.Integer({ minimum: 1, maximum: INT32_MAX }), { maxItems: BATCH_IDS_MAX }),
);

/** POST /api/channel/batch {ids} */
export const ChannelBatchBody = Type.Object({ ids: Ids });
export type ChannelBatchBody = Static<typeof ChannelBatchBody>;

/** POST /api/channel/batch/tag {ids, tag} */
export const ChannelBatchTagBody = Type.Object({
  ids: Ids,
  tag: Type.Optional(Type.Union([Type.String({ maxLength: 255 }), Type.Null()])),
});
export type ChannelBatchTagBody = Static<typeof ChannelBatchTagBody>;

/** POST /api/channel/tag/enabled | /api/channel/tag/disabled {tag} */
export const ChannelTagBody = Type.Object({
  tag: Type.Optional(Type.Union([Type.String({ maxLength: 255 }), Type.Null()])),
});
export type ChannelTagBody = Static<typeof ChannelTagBody>;

const OptionalText = (maxLength: number) =>
  Type.Optional(Type.Union([Type.String({ maxLength }), Type.Null()]));
/** A number, or its text as the console's form may send it; checked by the tag rules. */
const LooseInteger = Type.Optional(Type.Union([Type.Number(), Type.String({ maxLength: 32 }), Type.Null()]));

/**
 * PUT /api/channel/tag — every field except `tag` is optional; absent, null or '' means
 * unchanged, except `new_tag`: '' dissolves the tag (the channels become untagged).
 */
export const ChannelTagEditBody = Type.Object({
  tag: Type.Optional(Type.Union([Type.String({ maxLength: 255 }), Type.Null()])),
  new_tag: OptionalText(255),
  model_mapping: OptionalText(16_000),
  models: OptionalText(16_000),
  groups: OptionalText(255),
  priority: LooseInteger,
  weight: LooseInteger,
});
export type ChannelTagEditBody = Static<typeof ChannelTagEditBody>;

/** POST /api/channel/copy/:id?suffix=&reset_balance= */
export const ChannelCopyQuery = Type.Object({
  suffix: Type.Optional(Type.String({ maxLength: 64 })),
  reset_balance: Type.Optional(Type.String({ maxLength: 5 })),
});
export type ChannelCopyQuery = Static<typeof ChannelCopyQuery>;
