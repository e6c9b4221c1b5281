/** Query keys of the site settings feature; mutations invalidate through these. */
export const settingsKeys = {
  all: ['settings'] as const,
  options: () => [...settingsKeys.all, 'options'] as const,
  enabledModels: () => [...settingsKeys.all, 'enabled-models'] as const,
};
