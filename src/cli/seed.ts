import type { CreatedApplication } from '../hr/core/tenants/service.js';
import type { Services } from '../services.js';
import { seedAcademy } from './seed-academy.js';

export const DEMO_CLIENT_NAME = 'Atrium demo client';

/** A small, realistic organization tree for the demo HR client. */
const DEMO_ORGANIZATIONS: { id: string; name: string; parent?: string; city?: string; country?: string }[] = [
  { id: 'acme', name: 'Acme Group', city: 'Paris', country: 'FR' },
  { id: 'acme-fr', name: 'Acme France', parent: 'acme', city: 'Paris', country: 'FR' },
  { id: 'acme-fr-hr', name: 'Human Resources France', parent: 'acme-fr', city: 'Lyon', country: 'FR' },
  { id: 'acme-fr-it', name: 'IT France', parent: 'acme-fr', city: 'Paris', country: 'FR' },
  { id: 'acme-de', name: 'Acme Deutschland', parent: 'acme', city: 'Berlin', country: 'DE' },
  { id: 'acme-de-sales', name: 'Vertrieb Deutschland', parent: 'acme-de', city: 'München', country: 'DE' },
  { id: 'acme-us', name: 'Acme Inc.', parent: 'acme', city: 'New York', country: 'US' },
  { id: 'acme-us-support', name: 'Customer Support US', parent: 'acme-us', city: 'Austin', country: 'US' },
];

export interface SeedResult {
  hr: CreatedApplication;
  academy: { acadId: number; apikey: string };
}

/**
 * Fills a demo tenant of each API and prints fresh credentials. Running it again reuses
 * the tenant and its data (upserts) and adds a new application, so earlier
 * credentials keep working.
 */
export async function seed(services: Services): Promise<SeedResult> {
  const { client_id } = await services.tenants.ensureClient(DEMO_CLIENT_NAME);
  for (const org of DEMO_ORGANIZATIONS) {
    await services.organizations.put(client_id, org.id, {
      name: org.name,
      parent_organization_id: org.parent ?? null,
      city: org.city ?? null,
      country: org.country ?? null,
    });
  }
  await services.organizationGroups.put(client_id, 'europe', {
    name: 'Europe',
    organizations_ids: ['acme-fr', 'acme-fr-hr', 'acme-fr-it', 'acme-de', 'acme-de-sales'],
  });
  const hr = await services.tenants.createApplication(client_id, `Seed application ${new Date().toISOString()}`, false);
  return { hr, academy: await seedAcademy(services) };
}
