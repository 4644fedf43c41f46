import type { Tables } from '../../../platform/db/schema.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { UnitOfWork } from '../../../platform/db/unit-of-work.js';
import { NotFoundError } from '../../../platform/errors.js';
import { hashSecret, newId, newSecret } from '../../../platform/security/secrets.js';
import { type Clock, formatDateTime } from '../../../platform/time.js';
import type { TenantsRepository } from './repository.js';

export interface CreatedApplication {
  client_id: string;
  application_id: string;
  /** Shown once: only its hash is stored. */
  application_secret: string;
}

/** A client as `atrium tenants list` shows it: never a secret nor its hash. */
export interface ListedClient {
  client_id: string;
  name: string;
  created_at: string;
  applications: {
    application_id: string;
    name: string;
    read_only: boolean;
    created_at: string;
    revoked_at: string | null;
  }[];
}

/** The repositories tenant writes touch. */
export interface TenantsWork {
  tenants: TenantsRepository;
}

/** Creating clients and their applications (the CLI's `hr` commands). */
export class TenantsService {
  private readonly repo: TenantsRepository;

  constructor(
    private readonly work: UnitOfWork<Tables, TenantsWork>,
    private readonly clock: Clock,
  ) {
    this.repo = work.read.tenants;
  }

  async createClient(name: string): Promise<{ client_id: string }> {
    const id = newId();
    await this.repo.insertClient({ id, name, createdAt: this.clock.now() });
    return { client_id: id };
  }

  /** Throws NotFoundError unless the client exists (a CLI command's `--client-id`). */
  async requireClient(clientId: HrTenantId): Promise<void> {
    if (!(await this.repo.findClient(clientId))) throw new NotFoundError('client', clientId);
  }

  /** The client of that name, created when missing (used by `atrium seed`). */
  async ensureClient(name: string): Promise<{ client_id: string }> {
    const existing = await this.repo.findClientByName(name);
    return existing ? { client_id: existing.id } : this.createClient(name);
  }

  /** Every client with its applications (revoked ones included), oldest first. */
  async list(): Promise<ListedClient[]> {
    const [clients, applications] = await Promise.all([this.repo.listClients(), this.repo.listApplications()]);
    return clients.map((c) => ({
      client_id: c.id,
      name: c.name,
      created_at: formatDateTime(c.createdAt),
      applications: applications
        // tenant-by-hand: the operator's list of every client pairs each with its own applications, read at once.
        .filter((a) => a.clientId === c.id)
        .map((a) => ({
          application_id: a.id,
          name: a.name,
          read_only: a.readOnly,
          created_at: formatDateTime(a.createdAt),
          revoked_at: a.revokedAt === null ? null : formatDateTime(a.revokedAt),
        })),
    }));
  }

  async createApplication(clientId: HrTenantId, name: string, readOnly: boolean): Promise<CreatedApplication> {
    const client = await this.repo.findClient(clientId);
    if (!client) throw new NotFoundError('client', clientId);
    const id = newId();
    const secret = newSecret();
    await this.repo.insertApplication({
      id,
      clientId,
      name,
      secretHash: hashSecret(secret),
      readOnly,
      revokedAt: null,
      createdAt: this.clock.now(),
    });
    return { client_id: clientId, application_id: id, application_secret: secret };
  }

  async revokeApplication(applicationId: string): Promise<void> {
    const at = this.clock.now();
    const found = await this.work.run(({ tenants }) => tenants.revokeApplication(applicationId, at));
    if (!found) throw new NotFoundError('application', applicationId);
  }
}
