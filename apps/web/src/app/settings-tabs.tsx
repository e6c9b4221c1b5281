import type { ReactElement } from 'react';
import type { Access } from '../lib/access';
import { lazyPage } from './lazy-page';

/** One tab of /setting. `labelKey` is in the `common` namespace (`settings.tabs.<key>`). */
export interface SettingsTabDefinition {
  key: string;
  labelKey: string;
  access: Access;
  element: ReactElement;
}

/**
 * The /setting tab list, in display order. Each feature contributes its tab here (composition
 * happens in app/, features never import each other). Admin tabs are hidden from other users.
 * Spec tab keys: personal (everyone); operation, ratelimit, models, system, other (admins).
 */
export const settingsTabs: SettingsTabDefinition[] = [
  {
    key: 'personal',
    labelKey: 'settings.tabs.personal',
    access: 'user',
    element: lazyPage(
      () => import('../features/personal/pages/personal-settings-page'),
      'PersonalSettingsPage',
    ),
  },
];
