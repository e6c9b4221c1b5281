/** Query keys of the about page feature. */
export const aboutKeys = {
  all: ['about'] as const,
  content: () => [...aboutKeys.all, 'content'] as const,
};
