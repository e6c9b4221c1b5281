/** Query keys of the personal settings feature. */
export const personalKeys = {
  all: ['personal'] as const,
  self: () => [...personalKeys.all, 'self'] as const,
  affCode: () => [...personalKeys.all, 'aff-code'] as const,
};
