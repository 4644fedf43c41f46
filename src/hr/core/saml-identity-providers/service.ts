import { randomUUID, X509Certificate } from 'node:crypto';
import { isUniqueViolation } from '../../../platform/db/database.js';
import type { Page } from '../../../platform/db/keyset.js';
import type { PageRequest } from '../../../platform/db/listing.js';
import type { Tables } from '../../../platform/db/schema.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { UnitOfWork } from '../../../platform/db/unit-of-work.js';
import { ConflictError, type FieldError, FieldValidationError, NotFoundError } from '../../../platform/errors.js';
import type { Clock } from '../../../platform/time.js';
import type { Audited } from '../../module.js';
import { samlIdentityProviderEvents } from './events.js';
import { presentSamlIdentityProvider } from './present.js';
import type {
  SamlIdentityProviderAttributes,
  SamlIdentityProviderFilter,
  SamlIdentityProviderRecord,
  SamlIdentityProvidersRepository,
} from './repository.js';
import {
  DEFAULT_NEXT_LOGOUT_URL,
  SAML_SCOPES,
  type SamlIdentityProviderListQuery,
  type SamlIdentityProviderPatch,
  type SamlIdentityProviderWrite,
} from './schemas.js';

/** The repositories this service's writes touch, bound to one transaction in `work.run`. */
export interface SamlIdentityProvidersWork {
  samlIdentityProviders: SamlIdentityProvidersRepository;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const PEM_CERTIFICATE = /^-----BEGIN CERTIFICATE-----\r?\n([A-Za-z0-9+/=\r\n]+?)\r?\n?-----END CERTIFICATE-----$/;

/**
 * Why a certificate is refused, or undefined when it is one PEM X.509 certificate (surrounding white space
 * allowed) that `node:crypto` reads and whose DER is the whole of its base64. Nothing else is checked (validity
 * dates, key type, issuer): Atrium signs no one on with it.
 */
export function certificateProblem(pem: string): string | undefined {
  const text = pem.trim();
  if (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(text)) {
    return 'This is a private key: send the identity provider’s public X.509 certificate, never a key.';
  }
  const match = PEM_CERTIFICATE.exec(text);
  if (!match) {
    return 'Not a PEM certificate: one block from -----BEGIN CERTIFICATE----- to -----END CERTIFICATE-----.';
  }
  const der = Buffer.from((match[1] as string).replace(/\s+/g, ''), 'base64');
  try {
    const certificate = new X509Certificate(text);
    if (certificate.raw.length !== der.length) return 'The PEM block holds more than one X.509 certificate.';
  } catch {
    return 'The PEM block is not an X.509 certificate.';
  }
  return undefined;
}

/** Field errors of a write's values: the certificate and the two URLs (only those given, for a PATCH). */
function problems(input: SamlIdentityProviderPatch): FieldError[] {
  const errors: FieldError[] = [];
  for (const field of ['sso_endpoint', 'next_logout_url'] as const) {
    const value = input[field];
    if (value !== undefined && !isHttpUrl(value)) {
      errors.push({ field, code: 'invalid_url', message: 'An absolute http or https URL.' });
    }
  }
  if (input.x509_certificate !== undefined) {
    const problem = certificateProblem(input.x509_certificate);
    if (problem) errors.push({ field: 'x509_certificate', code: 'invalid_certificate', message: problem });
  }
  return errors;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** Every attribute of a POST or PUT body, the left-out ones at their defaults. */
function attributesOf(input: SamlIdentityProviderWrite): SamlIdentityProviderAttributes {
  return {
    name: input.name,
    entityId: input.entity_id,
    ssoEndpoint: input.sso_endpoint,
    x509Certificate: input.x509_certificate,
    activated: input.activated ?? false,
    enableSpSession: input.enable_sp_session ?? false,
    nextLogoutUrl: input.next_logout_url ?? DEFAULT_NEXT_LOGOUT_URL,
    scope: input.scope ?? null,
    workflowType: input.workflow_type ?? null,
  };
}

/** The attributes a PATCH sends. */
function changesOf(input: SamlIdentityProviderPatch): Partial<SamlIdentityProviderAttributes> {
  const changes: Partial<SamlIdentityProviderAttributes> = {};
  if (input.name !== undefined) changes.name = input.name;
  if (input.entity_id !== undefined) changes.entityId = input.entity_id;
  if (input.sso_endpoint !== undefined) changes.ssoEndpoint = input.sso_endpoint;
  if (input.x509_certificate !== undefined) changes.x509Certificate = input.x509_certificate;
  if (input.activated !== undefined) changes.activated = input.activated;
  if (input.enable_sp_session !== undefined) changes.enableSpSession = input.enable_sp_session;
  if (input.next_logout_url !== undefined) changes.nextLogoutUrl = input.next_logout_url;
  if (input.scope !== undefined) changes.scope = input.scope;
  if (input.workflow_type !== undefined) changes.workflowType = input.workflow_type;
  return changes;
}

function eventOf(provider: SamlIdentityProviderRecord) {
  return { id: provider.id, name: provider.name, data: presentSamlIdentityProvider(provider) };
}

/**
 * SAML identity providers (reference §5.7): a client's IdP settings, kept and answered; Atrium signs no one on.
 * At most one active provider per scope and per name (409 otherwise).
 */
export class SamlIdentityProvidersService {
  private readonly repo: SamlIdentityProvidersRepository;

  constructor(
    private readonly work: UnitOfWork<Tables, Audited<SamlIdentityProvidersWork>>,
    private readonly clock: Clock,
  ) {
    this.repo = work.read.samlIdentityProviders;
  }

  list(
    clientId: HrTenantId,
    query: SamlIdentityProviderListQuery,
    request: PageRequest,
  ): Promise<Page<SamlIdentityProviderRecord>> {
    const filter: SamlIdentityProviderFilter = { activated: query.activated, entityId: query.entity_id };
    if (query.scope !== undefined) {
      const scope = query.scope.toLowerCase();
      if (!(SAML_SCOPES as readonly string[]).includes(scope)) {
        throw new FieldValidationError([
          { field: 'scope', code: 'invalid', message: 'A scope is `employee` or `manager` (in any case).' },
        ]);
      }
      filter.scope = scope;
    }
    return this.repo.page(clientId, filter, request);
  }

  async get(clientId: HrTenantId, id: string): Promise<SamlIdentityProviderRecord> {
    const provider = await this.repo.find(clientId, id.toLowerCase());
    if (!provider) throw new NotFoundError('SAML identity provider', id);
    return provider;
  }

  /** POST: a new provider at a new UUID. */
  async create(clientId: HrTenantId, input: SamlIdentityProviderWrite): Promise<SamlIdentityProviderRecord> {
    return (await this.put(clientId, randomUUID(), input)).provider;
  }

  /** PUT: creates the provider at the id (`created`), or replaces every attribute (left-out ones: defaults). */
  async put(
    clientId: HrTenantId,
    rawId: string,
    input: SamlIdentityProviderWrite,
  ): Promise<{ provider: SamlIdentityProviderRecord; created: boolean }> {
    const id = rawId.toLowerCase();
    const errors = problems(input);
    if (!UUID.test(id)) errors.unshift({ field: 'id', code: 'invalid', message: 'A provider’s id is a UUID.' });
    if (errors.length) throw new FieldValidationError(errors);
    const attrs = attributesOf(input);
    return this.work.run(async ({ samlIdentityProviders: repo, audit }) => {
      await this.checkRivals(repo, clientId, id, attrs);
      const at = this.clock.now();
      const created = await unique(() => repo.insertIfAbsent(clientId, id, attrs, at));
      if (!created) await unique(() => repo.update(clientId, id, attrs, at));
      const provider = (await repo.find(clientId, id)) as SamlIdentityProviderRecord;
      await audit.record(clientId, samlIdentityProviderEvents, created ? 'created' : 'updated', eventOf(provider));
      return { provider, created };
    });
  }

  /** PATCH: changes only the attributes sent (`null` unsets `scope` or `workflow_type`). */
  async patch(
    clientId: HrTenantId,
    rawId: string,
    input: SamlIdentityProviderPatch,
  ): Promise<SamlIdentityProviderRecord> {
    const id = rawId.toLowerCase();
    return this.work.run(async ({ samlIdentityProviders: repo, audit }) => {
      const existing = await repo.find(clientId, id);
      if (!existing) throw new NotFoundError('SAML identity provider', rawId);
      const errors = problems(input);
      if (errors.length) throw new FieldValidationError(errors);
      const changes = changesOf(input);
      await this.checkRivals(repo, clientId, id, { ...existing, ...changes });
      await unique(() => repo.update(clientId, id, changes, this.clock.now()));
      const provider = (await repo.find(clientId, id)) as SamlIdentityProviderRecord;
      await audit.record(clientId, samlIdentityProviderEvents, 'updated', eventOf(provider));
      return provider;
    });
  }

  async delete(clientId: HrTenantId, rawId: string): Promise<void> {
    const id = rawId.toLowerCase();
    await this.work.run(async ({ samlIdentityProviders: repo, audit }) => {
      const provider = await repo.find(clientId, id);
      if (!provider) throw new NotFoundError('SAML identity provider', rawId);
      await repo.delete(clientId, id);
      await audit.record(clientId, samlIdentityProviderEvents, 'deleted', eventOf(provider));
    });
  }

  /** 409 when the provider would be active beside another active one of the same scope or name. */
  private async checkRivals(
    repo: SamlIdentityProvidersRepository,
    clientId: HrTenantId,
    id: string,
    attrs: SamlIdentityProviderAttributes,
  ): Promise<void> {
    if (!attrs.activated) return;
    const rival = (await repo.activeRivals(clientId, id, attrs))[0];
    if (!rival) return;
    const why =
      rival.name === attrs.name
        ? `the name ${JSON.stringify(attrs.name)}`
        : attrs.scope === null
          ? 'no scope'
          : `the scope ${attrs.scope}`;
    throw new ConflictError(`SAML IdP already exists: the active provider ${rival.id} has ${why}.`);
  }
}

/** Runs a write; a unique violation (an active rival committed meanwhile) is the same 409 as the check's. */
async function unique<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new ConflictError('SAML IdP already exists: an active provider has the same scope or name.');
    }
    throw error;
  }
}
