import type { ComponentType } from 'preact';
import { DataDetailPage, DataListPage } from './data';
import { ProxyPage } from './proxy';
import { ReportPage } from './report';
import { RequestLogPage } from './request-log';
import { TenantPage } from './tenant';
import { TenantsPage } from './tenants';

/**
 * The console's pages: a path under `/console/` (`:name` segments are parameters), a title for the navigation
 * (none: not in it), and a component given the parameters. A new page is one entry here and its own file; the
 * server serves the console for any path under `/console/`.
 */
export interface Page {
  path: string;
  title?: string;
  /** Given the path's parameters and the address's query (`?q=…`), which the data pages keep their filters in. */
  component: ComponentType<{ params: Record<string, string>; query: URLSearchParams }>;
}

export const PAGES: readonly Page[] = [
  { path: 'tenants', title: 'Tenants', component: TenantsPage },
  { path: 'tenants/:kind/:id', component: TenantPage },
  { path: 'tenants/:kind/:id/log', component: RequestLogPage },
  { path: 'tenants/:kind/:id/report', component: ReportPage },
  // The data browser: every resource of console/src/resources.tsx, its list and its objects.
  { path: 'tenants/:kind/:id/data/:resource', component: DataListPage },
  { path: 'tenants/:kind/:id/data/:resource/:item', component: DataDetailPage },
  { path: 'proxy', title: 'Proxy departures', component: ProxyPage },
];

/** The page of a path under `/console/`, with its parameters; the first page for an unknown path. */
export function route(path: string): { page: Page; params: Record<string, string> } {
  const parts = path.split('/').filter(Boolean);
  for (const page of PAGES) {
    const pattern = page.path.split('/');
    if (pattern.length !== parts.length) continue;
    const params: Record<string, string> = {};
    const ok = pattern.every((segment, i) => {
      const part = parts[i] ?? '';
      if (segment.startsWith(':')) {
        params[segment.slice(1)] = decodeURIComponent(part);
        return true;
      }
      return segment === part;
    });
    if (ok) return { page, params };
  }
  return { page: PAGES[0] as Page, params: {} };
}
