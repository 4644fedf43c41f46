import type { CreatedApplication } from '../hr/core/tenants/service.js';
import { withLightCommits } from '../platform/db/transaction.js';
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

/** `--size`: how many demo employees each size makes (`--employees N` sets the number itself). */
export const SEED_SIZES = { small: 100, large: 10_000 } as const;
export type SeedSize = keyof typeof SEED_SIZES;

export interface SeedOptions {
  /** Demo employees to make (or update: they are upserted by `external_id`, `demo-1` …). */
  employees: number;
  /** Called once with the work's size, then after each employee (the CLI's progress bar). */
  progress?: { start(total: number): void; tick(): void; stop(): void };
}

export interface SeedResult {
  hr: CreatedApplication;
  academy: { acadId: number; apikey: string };
  /** What the run made or updated. */
  summary: { organizations: number; organization_groups: number; employees: number };
}

/** Organizations that employees belong to: the leaves of the demo tree. */
const LEAVES = DEMO_ORGANIZATIONS.filter((org) => !DEMO_ORGANIZATIONS.some((child) => child.parent === org.id));

/** ASCII letters only (employee emails are ASCII): `Chloé Müller` → `chloe`, `muller`. */
function ascii(name: string): string {
  return name
    .normalize('NFD')
    .toLowerCase()
    .replace(/[^a-z]/g, '');
}

/**
 * Fills a demo tenant of each API and prints fresh credentials. Running it again reuses
 * the tenant and its data (upserts) and adds a new application, so earlier
 * credentials keep working.
 *
 * The demo employees are made with @faker-js/faker from a fixed seed, so each run makes the same people: employee
 * `i` has external_id `demo-i` and employee number `E00000i`, in one of the leaf organizations, in turn.
 */
export async function seed(services: Services, options: SeedOptions): Promise<SeedResult> {
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
  if (options.employees > 0) await seedEmployees(services, client_id, options);
  const hr = await services.tenants.createApplication(client_id, `Seed application ${new Date().toISOString()}`, false);
  return {
    hr,
    academy: await seedAcademy(services),
    summary: { organizations: DEMO_ORGANIZATIONS.length, organization_groups: 1, employees: options.employees },
  };
}

async function seedEmployees(services: Services, clientId: string, options: SeedOptions): Promise<void> {
  // Loaded here: the library is large, and only a seed with employees needs it.
  const { Faker, de, en, fr, base } = await import('@faker-js/faker');
  const locales = { FR: new Faker({ locale: [fr, en, base] }), DE: new Faker({ locale: [de, en, base] }) };
  const other = new Faker({ locale: [en, base] });
  for (const [i, faker] of [...Object.values(locales), other].entries()) faker.seed(20_310_615 + i);
  const { progress } = options;
  progress?.start(options.employees);
  try {
    // The rows commit without a flush each; the application made next is an ordinary commit and flushes them all
    // (withLightCommits): a power cut in the middle loses only rows that the next run makes again.
    await withLightCommits(async () => {
      for (let i = 1; i <= options.employees; i++) {
        const org = LEAVES[(i - 1) % LEAVES.length] as (typeof LEAVES)[number];
        const faker = locales[org.country as keyof typeof locales] ?? other;
        const sex = faker.person.sexType();
        const firstname = faker.person.firstName(sex);
        const lastname = faker.person.lastName(sex);
        const number = String(i).padStart(6, '0');
        await services.employees.upsertByExternalId(clientId, `demo-${i}`, {
          firstname,
          lastname,
          email: `${ascii(firstname) || 'employee'}.${ascii(lastname) || 'demo'}.${i}@acme.example`,
          language: org.country === 'FR' ? 'fr' : org.country === 'DE' ? 'de' : 'en',
          country: org.country ?? null,
          city: org.city ?? null,
          birth_date: faker.date
            .birthdate({ mode: 'age', min: 20, max: 64, refDate: '2026-01-01' })
            .toISOString()
            .slice(0, 10),
          starting_date: faker.date.past({ years: 15, refDate: '2026-01-01' }).toISOString().slice(0, 10),
          mobile_phone_number: faker.string.numeric({ length: 12, allowLeadingZeros: true }),
          registration_references: [{ organization_id: org.id, employee_number: `E${number}` }],
        });
        progress?.tick();
      }
    });
  } finally {
    progress?.stop();
  }
}
