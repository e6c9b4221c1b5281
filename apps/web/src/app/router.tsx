import { useQueryClient } from '@tanstack/react-query';
import { type ReactElement, useEffect, useMemo } from 'react';
import {
  createBrowserRouter,
  type RouteObject,
  ScrollRestoration,
  useLocation,
  useNavigate,
} from 'react-router';
import type { Access } from '../lib/access';
import { configureApiClient, EXPIRED_LOGIN_PATH } from '../lib/api-client';
import { LandingContext, type LandingPaths } from '../lib/landing';
import { AppLayout, type RouteHandle } from './layouts/app-layout';
import { lazyPage } from './lazy-page';
import type { MenuKey } from './navigation';
import { NotFoundPage } from './not-found-page';
import { RequireAccess } from './require-access';
import { RouteErrorPage } from './route-error-page';
import { SettingsPage } from './settings-page';
import { settingsTabs } from './settings-tabs';
import { StatusLoader } from './status-loader';

/** One row of the route table. */
export interface AppRoute {
  path: string;
  element: ReactElement;
  /** public: anyone; user: logged in (else → /login); admin/root: role check (else 403). */
  access: Access;
  /** Links the sidebar entry with this key (app/navigation.tsx) to the route; no key, no entry. */
  menuKey?: MenuKey;
  /** 'bare' = no content padding and no sidebar (the home page). */
  chrome?: RouteHandle['chrome'];
}

/**
 * The route table. Adding a page is one line here (plus its sidebar entry appearing by itself
 * when `menuKey` is set). Routes of features not built yet are simply absent.
 */
export const appRoutes: AppRoute[] = [
  {
    path: '/',
    access: 'public',
    menuKey: 'home',
    chrome: 'bare',
    element: lazyPage(() => import('../features/home/pages/home-page'), 'HomePage'),
  },
  {
    path: '/about',
    access: 'public',
    menuKey: 'about',
    element: lazyPage(() => import('../features/about/pages/about-page'), 'AboutPage'),
  },
  {
    path: '/login',
    access: 'public',
    element: lazyPage(() => import('../features/auth/pages/login-page'), 'LoginPage'),
  },
  {
    path: '/register',
    access: 'public',
    element: lazyPage(() => import('../features/auth/pages/register-page'), 'RegisterPage'),
  },
  {
    path: '/reset',
    access: 'public',
    element: lazyPage(
      () => import('../features/auth/pages/password-reset-request-page'),
      'PasswordResetRequestPage',
    ),
  },
  {
    path: '/user/reset',
    access: 'public',
    element: lazyPage(
      () => import('../features/auth/pages/password-reset-confirm-page'),
      'PasswordResetConfirmPage',
    ),
  },
  {
    path: '/oauth/github',
    access: 'public',
    element: lazyPage(() => import('../features/auth/pages/oauth-callback-page'), 'OAuthCallbackPage', {
      provider: 'github',
    }),
  },
  {
    path: '/oauth/linuxdo',
    access: 'public',
    element: lazyPage(() => import('../features/auth/pages/oauth-callback-page'), 'OAuthCallbackPage', {
      provider: 'linuxdo',
    }),
  },
  { path: '/setting', access: 'user', menuKey: 'setting', element: <SettingsPage tabs={settingsTabs} /> },
  {
    path: '/user',
    access: 'admin',
    menuKey: 'user',
    element: lazyPage(() => import('../features/users/pages/user-list-page'), 'UserListPage'),
  },
  {
    path: '/user/edit/:id',
    access: 'admin',
    element: lazyPage(() => import('../features/users/pages/user-edit-page'), 'UserEditPage'),
  },
  {
    path: '/user/edit',
    access: 'admin',
    element: lazyPage(() => import('../features/users/pages/user-edit-page'), 'UserEditPage'),
  },
  // Console part 2 — operations: channels, tokens, redemptions (add routes below this line).
  {
    path: '/channel',
    access: 'admin',
    menuKey: 'channel',
    element: lazyPage(() => import('../features/channels/pages/channel-list-page'), 'ChannelListPage'),
  },
  {
    path: '/channel/add',
    access: 'admin',
    element: lazyPage(() => import('../features/channels/pages/channel-edit-page'), 'ChannelEditPage'),
  },
  {
    path: '/channel/edit/:id',
    access: 'admin',
    element: lazyPage(() => import('../features/channels/pages/channel-edit-page'), 'ChannelEditPage'),
  },
  {
    path: '/token',
    access: 'user',
    menuKey: 'token',
    element: lazyPage(() => import('../features/tokens/pages/token-list-page'), 'TokenListPage'),
  },
  {
    path: '/redemption',
    access: 'admin',
    menuKey: 'redemption',
    element: lazyPage(
      () => import('../features/redemptions/pages/redemption-list-page'),
      'RedemptionListPage',
    ),
  },
  // Console part 2 — money and records: wallet, logs, dashboard, tasks, pricing, playground, chat.
  {
    path: '/topup',
    access: 'user',
    menuKey: 'topup',
    element: lazyPage(() => import('../features/wallet/pages/wallet-page'), 'WalletPage'),
  },
  {
    path: '/log',
    access: 'user',
    menuKey: 'log',
    element: lazyPage(() => import('../features/logs/pages/log-page'), 'LogPage'),
  },
  {
    path: '/pricing',
    access: 'public',
    menuKey: 'pricing',
    element: lazyPage(() => import('../features/pricing/pages/pricing-page'), 'PricingPage'),
  },
  {
    path: '/playground',
    access: 'user',
    menuKey: 'playground',
    element: lazyPage(() => import('../features/playground/pages/playground-page'), 'PlaygroundPage'),
  },
  {
    path: '/detail',
    access: 'user',
    menuKey: 'detail',
    element: lazyPage(() => import('../features/dashboard/pages/dashboard-page'), 'DashboardPage'),
  },
  {
    path: '/midjourney',
    access: 'user',
    menuKey: 'midjourney',
    element: lazyPage(() => import('../features/tasks/pages/midjourney-page'), 'MidjourneyPage'),
  },
  {
    path: '/task',
    access: 'user',
    menuKey: 'task',
    element: lazyPage(() => import('../features/tasks/pages/task-page'), 'TaskPage'),
  },
  {
    path: '/chat',
    access: 'user',
    menuKey: 'chat',
    element: lazyPage(() => import('../features/chat/pages/chat-page'), 'ChatPage'),
  },
  {
    path: '/chat/:id',
    access: 'user',
    element: lazyPage(() => import('../features/chat/pages/chat-page'), 'ChatPage'),
  },
  {
    path: '/chat2link',
    access: 'user',
    element: lazyPage(() => import('../features/chat/pages/chat2link-page'), 'Chat2LinkPage'),
  },
];

const routedPaths = new Set(appRoutes.map((route) => route.path));

/** Menu keys that have a page; the sidebar and header only offer these. */
export const availableMenuKeys: ReadonlySet<string> = new Set(
  appRoutes.flatMap((route) => (route.menuKey ? [route.menuKey] : [])),
);

/**
 * Spec: password login lands on /token, third-party login on /. Until those pages are routed the
 * personal settings tab is the landing page; this switches by itself when the routes are added.
 */
export const landingPaths: LandingPaths = {
  afterPasswordLogin: routedPaths.has('/token') ? '/token' : '/setting?tab=personal',
  afterThirdPartyLogin: routedPaths.has('/')
    ? '/'
    : routedPaths.has('/token')
      ? '/token'
      : '/setting?tab=personal',
};

/** Connects the api-client's 401 handling to the router (no full page reload). */
function ApiClientNavigation() {
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const onLoginPage = location.pathname === '/login';
  useEffect(
    () =>
      configureApiClient({
        onUnauthorized: () => {
          queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'status' });
          if (!onLoginPage) void navigate(EXPIRED_LOGIN_PATH);
        },
      }),
    [navigate, queryClient, onLoginPage],
  );
  return null;
}

/** The root element: status loading, API navigation hooks, landing paths and the shell. */
export function RootLayout({ routes = appRoutes }: { routes?: AppRoute[] }) {
  const menuKeys = useMemo(
    () => new Set(routes.flatMap((route) => (route.menuKey ? [route.menuKey] : []))),
    [routes],
  );
  return (
    <LandingContext.Provider value={landingPaths}>
      <StatusLoader />
      <ApiClientNavigation />
      {/* A new page (after a form's save too) opens at its top; back and forward restore the position. */}
      <ScrollRestoration />
      <AppLayout menuKeys={menuKeys} />
    </LandingContext.Provider>
  );
}

/** Turns the table into react-router route objects (guarded, with layout handles). */
export function buildRouteObjects(routes: AppRoute[] = appRoutes): RouteObject[] {
  return [
    {
      element: <RootLayout routes={routes} />,
      errorElement: <RouteErrorPage />,
      children: [
        ...routes.map(
          (route): RouteObject => ({
            path: route.path,
            handle: { chrome: route.chrome ?? 'console' } satisfies RouteHandle,
            element: <RequireAccess access={route.access}>{route.element}</RequireAccess>,
          }),
        ),
        { path: '*', element: <NotFoundPage /> },
      ],
    },
  ];
}

export function createAppRouter() {
  return createBrowserRouter(buildRouteObjects());
}
