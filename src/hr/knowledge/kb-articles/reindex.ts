import type { Db, DialectName } from '../../../platform/db/database.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import { KbArticlesRepository } from './repository.js';
import { searchDocument } from './service.js';

/**
 * Writes the full-text row of every article of the client again, from its versions and keywords: the rows are
 * derived, of another shape on each database, so a portable snapshot leaves them out and its import rebuilds them
 * here, in its transaction (`db`).
 */
export async function reindexArticles(db: Db, dialect: DialectName, clientId: HrTenantId): Promise<number> {
  const repo = new KbArticlesRepository(db, dialect);
  const pks = await repo.allPks(clientId);
  for (let i = 0; i < pks.length; i += 200) {
    const rows = await repo.rowsByPk(clientId, pks.slice(i, i + 200));
    for (const article of await repo.details(clientId, rows)) {
      await repo.writeSearch(article.row.pk, searchDocument(article.versions, article.row.localizedSearchKeywords));
    }
  }
  return pks.length;
}
