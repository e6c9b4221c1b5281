import { Type } from '@sinclair/typebox';

/**
 * An integer query value read as the reference's handlers read it with Go's `strconv.Atoi`:
 * a value that is not an integer (empty, `NaN`, `1.5`, `abc`) counts as 0 instead of being
 * refused. The query validator coerces integer text to a number; anything else stays a string,
 * which `queryInteger` turns into 0.
 */
export const QueryInteger = (options: { minimum?: number; maximum?: number } = {}) =>
  Type.Optional(Type.Union([Type.Integer(options), Type.String({ maxLength: 64 })]));

/** The number a QueryInteger value stands for: 0 when it was not sent or is not an integer. */
export const queryInteger = (value: number | string | undefined): number =>
  typeof value === 'number' ? value : 0;
