/** Query keys of the wallet feature. */
export const walletKeys = {
  all: ['wallet'] as const,
  self: () => [...walletKeys.all, 'self'] as const,
};
