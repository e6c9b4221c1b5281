export * from './error-codes.ts';
export * from './constants/roles.ts';
export * from './constants/statuses.ts';
export * from './quota.ts';
export * from './api/user-schemas.ts';
export * from './constants/channel-types.ts';
