import { type ComponentType, lazy, type ReactElement } from 'react';

type PropsOf<C> = C extends ComponentType<infer P> ? P : never;
// biome-ignore lint/complexity/noBannedTypes: `{}` is the "no required props" test.
type PropsArgument<P> = {} extends P ? [props?: P] : [props: P];

/**
 * Builds a route element for a page that is loaded on demand (one chunk per page):
 * `lazyPage(() => import('../features/users/pages/user-list-page'), 'UserListPage')`.
 * The surrounding layout provides the Suspense boundary.
 */
export function lazyPage<M extends Record<string, unknown>, K extends keyof M & string>(
  loader: () => Promise<M>,
  exportName: K,
  ...props: PropsArgument<PropsOf<M[K]>>
): ReactElement {
  const Component = lazy(async () => {
    const module = await loader();
    return { default: module[exportName] as ComponentType<PropsOf<M[K]>> };
  });
  const [componentProps] = props;
  return <Component {...((componentProps ?? {}) as PropsOf<M[K]> & object)} />;
}
