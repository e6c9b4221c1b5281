import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { isApiError, showApiError } from './api-client';

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: { silentError?: boolean };
    mutationMeta: { silentError?: boolean };
  }
}

/**
 * The console's QueryClient. Errors the api-client has not shown yet (success:false) are shown
 * here once, unless a query or mutation opts out with `meta: { silentError: true }`.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (!query.meta?.silentError) showApiError(error);
      },
    }),
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => {
        if (!mutation.meta?.silentError) showApiError(error);
      },
    }),
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        retry: (failureCount, error) => !isApiError(error) && failureCount < 2,
      },
      mutations: { retry: false },
    },
  });
}
