/** User status: 1 enabled, 2 banned, 3 unknown (the console offers no Enable action). */
export const UserStatus = { Enabled: 1, Disabled: 2, Unknown: 3 } as const;

/** Token status: the user toggles 1/2 only; 3 and 4 are set by the gateway. */
export const TokenStatus = { Enabled: 1, Disabled: 2, Expired: 3, Exhausted: 4 } as const;

/** Channel status: 1 enabled, 2 disabled by hand, 3 disabled automatically. */
export const ChannelStatus = { Unknown: 0, Enabled: 1, ManuallyDisabled: 2, AutoDisabled: 3 } as const;

/** Redemption code status. */
export const RedemptionStatus = { Unused: 1, Disabled: 2, Used: 3 } as const;

/** Log row types. 5 (error) is Switchyard's own addition for failed relays. */
export const LogType = { Unknown: 0, TopUp: 1, Consume: 2, Manage: 3, System: 4, Error: 5 } as const;
