export * from './api/channel-schemas.ts';
export * from './api/token-schemas.ts';
export * from './api/user-schemas.ts';
export * from './constants/channel-types.ts';
export * from './constants/roles.ts';
export * from './constants/statuses.ts';
export * from './error-codes.ts';
export * from './quota.ts';
