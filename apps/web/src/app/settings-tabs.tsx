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
  // Site options: GET/PUT /api/option/ are root-only on the server (as in the reference), so these
  // tabs are shown to the super administrator only.
  {
    key: 'operation',
    labelKey: 'settings.tabs.operation',
    access: 'root',
    element: lazyPage(
      () => import('../features/settings/pages/operation-settings-page'),
      'OperationSettingsPage',
    ),
  },
  {
    key: 'ratelimit',
    labelKey: 'settings.tabs.ratelimit',
    access: 'root',
    element: lazyPage(
      () => import('../features/settings/pages/ratelimit-settings-page'),
      'RateLimitSettingsPage',
    ),
  },
  {
    key: 'models',
    labelKey: 'settings.tabs.models',
    access: 'root',
    element: lazyPage(() => import('../features/settings/pages/model-settings-page'), 'ModelSettingsPage'),
  },
  {
    key: 'system',
    labelKey: 'settings.tabs.system',
    access: 'root',
    element: lazyPage(() => import('../features/settings/pages/system-settings-page'), 'SystemSettingsPage'),
  },
  {
    key: 'other',
    labelKey: 'settings.tabs.other',
    access: 'root',
    element: lazyPage(() => import('../features/settings/pages/other-settings-page'), 'OtherSettingsPage'),
  },
];
