import { sql } from 'kysely';
import { HrRepository } from '../../../platform/db/repository.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';

/** How many wrong access codes lock a signer. */
export const ACCESS_CODE_ATTEMPTS = 5;

/** A signer's wrong access codes (docs/hr-api.md, "Electronic signature"): counted, and the lock they lead to. */
export class SignerCodeAttemptsRepository extends HrRepository {
  /** When the signer was locked, or null. */
  async lockedAt(clientId: HrTenantId, signerId: string): Promise<number | null> {
    const row = await this.tenant(clientId)
      .selectFrom('hr_signer_code_attempts as a')
      .select('a.locked_at')
      .where('a.signer_id', '=', signerId)
      .executeTakeFirst();
    return row?.locked_at == null ? null : Number(row.locked_at);
  }

  /** Counts one wrong code; answers whether it locked the signer (the attempt that reached the limit). */
  async fail(clientId: HrTenantId, signerId: string, at: number): Promise<boolean> {
    await this.tenant(clientId).insertIfAbsent(
      'hr_signer_code_attempts',
      { signer_id: signerId, failures: 0, locked_at: null, updated_at: at },
      ['client_id', 'signer_id'],
    );
    const row = await this.tenant(clientId)
      .updateTable('hr_signer_code_attempts as a')
      .set({ failures: sql`failures + 1`, updated_at: at })
      .where('a.signer_id', '=', signerId)
      .returning(['failures', 'locked_at'])
      .executeTakeFirstOrThrow();
    if (Number(row.failures) < ACCESS_CODE_ATTEMPTS || row.locked_at !== null) return false;
    await this.tenant(clientId)
      .updateTable('hr_signer_code_attempts as a')
      .set({ locked_at: at })
      .where('a.signer_id', '=', signerId)
      .execute();
    return true;
  }

  /** Forgets a signer's wrong codes and lock (a right code, or the sender's reminder). */
  async clear(clientId: HrTenantId, signerIds: readonly string[]): Promise<void> {
    if (signerIds.length === 0) return;
    await this.tenant(clientId)
      .deleteFrom('hr_signer_code_attempts as a')
      .where('a.signer_id', 'in', signerIds)
      .execute();
  }
}
