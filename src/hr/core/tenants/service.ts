import type { Tables } from '../../../platform/db/schema.js';
import type { UnitOfWork } from '../../../platform/db/unit-of-work.js';
import { NotFoundError } from '../../../platform/errors.js';
import { hashSecret, newId, newSecret } from '../../../platform/security/secrets.js';
import { now } from '../../../platform/time.js';
import type { TenantsRepository } from './repository.js';

export interface CreatedApplication {
  client_id: string;
  application_id: string;
  /** Shown once: only its hash is stored. */
  application_secret: string;
}

/** The repositories tenant writes touch. */
export interface TenantsWork {
  tenants: TenantsRepository;
}

/** Creating clients and their applications (the CLI's `hr` commands). */
export class TenantsService {
  private readonly repo: TenantsRepository;

  constructor(private readonly work: UnitOfWork<Tables, TenantsWork>) {
    this.repo = work.read.tenants;
  }

  async createClient(name: string): Promise<{ client_id: string }> {
    const id = newId();
    await this.repo.insertClient({ id, name, created_at: now() });
    return { client_id: id };
  }

  /** The client of that name, created when missing (used by `atrium seed`). */
  async ensureClient(name: string): Promise<{ client_id: string }> {
    const existing = await this.repo.findClientByName(name);
    return existing ? { client_id: existing.id } : this.createClient(name);
  }

  async createApplication(clientId: string, name: string, readOnly: boolean): Promise<CreatedApplication> {
    const client = await this.repo.findClient(clientId);
    if (!client) throw new NotFoundError('client', clientId);
    const id = newId();
    const secret = newSecret();
    await this.repo.insertApplication({
      id,
      client_id: clientId,
      name,
      secret_hash: hashSecret(secret),
      read_only: readOnly ? 1 : 0,
      revoked_at: null,
      created_at: now(),
    });
    return { client_id: clientId, application_id: id, application_secret: secret };
  }

  async revokeApplication(applicationId: string): Promise<void> {
    const at = now();
    const found = await this.work.run(({ tenants }) => tenants.revokeApplication(applicationId, at));
    if (!found) throw new NotFoundError('application', applicationId);
  }
}
