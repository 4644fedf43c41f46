import type { ComponentType } from 'preact';
import { TenantsPage } from './tenants';

/**
 * The console's pages: a path under `/console/`, a title for the navigation, and a component. A new page is one
 * entry here and its own file (the server serves the console's page for any path under `/console/`).
 */
export interface Page {
  path: string;
  title: string;
  component: ComponentType;
}

export const PAGES: readonly Page[] = [{ path: 'tenants', title: 'Tenants', component: TenantsPage }];
