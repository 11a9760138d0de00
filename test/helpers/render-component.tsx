// Renders a console component the way the app does: inside a QueryClientProvider (no retries, no
// refetch timers in a test) and a ViewerProvider holding a role's real permissions. A test seeds
// what a query would have fetched with `queries` (key → data). Nothing goes over the network:
// happy-dom's fetch is real, so a component that still fetches gets a rejection saying so (the
// hooks that unmount and refuse fetch are in test/setup/component-hooks.ts, registered per file).
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { AppRouterContext, type AppRouterInstance } from 'next/dist/shared/lib/app-router-context.shared-runtime';
import { PathnameContext, SearchParamsContext } from 'next/dist/shared/lib/hooks-client-context.shared-runtime';
import type { ReactElement } from 'react';
import { ViewerProvider } from '@/components/viewer';
import { ROLE_PERMISSIONS, type Role } from '@/lib/auth/permissions';

/** Navigation moves happy-dom's own history: a test reads where a component sent the page from `location`. */
const router: AppRouterInstance = {
  back: () => window.history.back(),
  forward: () => window.history.forward(),
  refresh: () => {},
  push: (href) => window.history.pushState(null, '', href),
  replace: (href) => window.history.replaceState(null, '', href),
  prefetch: () => {},
  bfcacheId: 'component-test',
};

/**
 * `url` is the page's address as Next's navigation hooks (usePathname, useSearchParams) answer it,
 * through the same contexts Next's app router provides them with.
 */
export function renderComponent(ui: ReactElement, opts: { role?: Role; queries?: [readonly unknown[], unknown][]; url?: string } = {}) {
  const role = opts.role ?? 'admin';
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Number.POSITIVE_INFINITY, refetchInterval: false } } });
  for (const [key, data] of opts.queries ?? []) client.setQueryData(key, data);
  const viewer = { userId: 'u-test', email: `${role}@example.test`, role, permissions: [...ROLE_PERMISSIONS[role]] };
  const url = new URL(opts.url ?? '/', 'http://localhost');
  const result = render(
    <AppRouterContext.Provider value={router}>
      <PathnameContext.Provider value={url.pathname}>
        <SearchParamsContext.Provider value={url.searchParams}>
          <QueryClientProvider client={client}>
            <ViewerProvider viewer={viewer}>{ui}</ViewerProvider>
          </QueryClientProvider>
        </SearchParamsContext.Provider>
      </PathnameContext.Provider>
    </AppRouterContext.Provider>,
  );
  return { ...result, client };
}
