import { createContext, useContext } from 'react';

/**
 * Where sign-ins land (spec: password login → /token, third-party login → /). The app computes
 * the value from its route table so features never hard-code routes that may not exist yet.
 */
export interface LandingPaths {
  afterPasswordLogin: string;
  afterThirdPartyLogin: string;
}

export const LandingContext = createContext<LandingPaths>({
  afterPasswordLogin: '/token',
  afterThirdPartyLogin: '/',
});

export const useLandingPaths = (): LandingPaths => useContext(LandingContext);
