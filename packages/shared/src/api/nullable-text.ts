import { Type } from '@sinclair/typebox';

/**
 * An optional body text field that may also be sent as null. The reference decodes bodies with
 * Go's encoding/json, where null leaves a string field empty, and its console sends null for
 * values it never set (an invite code without `?aff=`, fields of a copied row): null means ''.
 */
export const NullableText = (maxLength: number) =>
  Type.Optional(Type.Union([Type.String({ maxLength }), Type.Null()]));

/** The text a NullableText value stands for: '' for null or absent. */
export const textOf = (value: string | null | undefined): string => value ?? '';
