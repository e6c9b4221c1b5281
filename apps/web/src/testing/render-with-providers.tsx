import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { createMemoryRouter, type RouteObject, RouterProvider, useLocation } from 'react-router';
import { AppProviders } from '../app/provider';
import { createQueryClient } from '../lib/query-client';
import { type SessionUser, setSessionUser } from '../lib/session';
import { type SiteStatus, saveSiteStatus } from '../lib/site-status';

/** Renders the current location, so tests can assert where a page navigated to. */
export function LocationProbe() {
  const location = useLocation();
  return <div data-testid="location">{`${location.pathname}${location.search}`}</div>;
}

export interface RenderOptions {
  /** The URL the memory router starts at. */
  route?: string;
  /** The route pattern `ui` is mounted at (default: every path). */
  path?: string;
  /** Full route objects instead of `ui` (e.g. the app's own route table). */
  routes?: RouteObject[];
  user?: SessionUser | null;
  status?: SiteStatus;
}

/**
 * Renders UI with the app's providers (i18n in Chinese, antd App, a fresh QueryClient) inside a
 * memory router. Any path other than `path` renders a LocationProbe.
 */
export function renderWithProviders(ui: ReactElement | null, options: RenderOptions = {}) {
  if (options.user) setSessionUser(options.user);
  if (options.status) saveSiteStatus(options.status);
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { retry: false, staleTime: Number.POSITIVE_INFINITY } });
  const path = options.path ?? options.route?.split('?')[0] ?? '/';
  const routes: RouteObject[] = options.routes ?? [
    { path, element: ui },
    { path: '*', element: <LocationProbe /> },
  ];
  const router = createMemoryRouter(routes, { initialEntries: [options.route ?? path] });
  const result = render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...result, router, queryClient, user: userEvent.setup({ delay: null }) };
}

export const adminUser: SessionUser = {
  id: 1,
  username: 'root',
  display_name: 'Root',
  role: 100,
  status: 1,
  group: 'default',
};
export const normalUser: SessionUser = {
  id: 2,
  username: 'alice',
  display_name: 'Alice',
  role: 1,
  status: 1,
  group: 'default',
};
