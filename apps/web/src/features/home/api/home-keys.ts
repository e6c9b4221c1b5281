/** Query keys of the home page feature. */
export const homeKeys = {
  all: ['home'] as const,
  content: () => [...homeKeys.all, 'content'] as const,
  notice: () => [...homeKeys.all, 'notice'] as const,
};
