import type { Kysely } from 'kysely';

type AnyDb = Kysely<Record<string, unknown>>;

/**
 * The page count of a PDF upload and of a document made from one (`page_count`, `X-Page-Count`; docs/hr-api.md):
 * counted once when the file is uploaded, null for anything that is not a readable PDF and for rows written
 * before this migration.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('hr_uploads').addColumn('page_count', 'integer').execute();
  await db.schema.alterTable('hr_documents').addColumn('page_count', 'integer').execute();
}
