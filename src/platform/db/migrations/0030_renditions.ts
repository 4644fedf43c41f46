import type { Kysely } from 'kysely';
import type { DialectName } from '../database.js';
import { textColumnsCollateC } from './0010_collation.js';

type AnyDb = Kysely<Record<string, unknown>>;

/** The rendition cache (platform/renditions): PNG pages of stored files, and their page counts. */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  await db.schema
    .createTable('renditions')
    .addColumn('source_sha256', 'varchar(64)', (c) => c.notNull())
    .addColumn('page', 'integer', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('crop', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('renditions_pk', ['source_sha256', 'page', 'width', 'crop'])
    .execute();
  await db.schema.createIndex('renditions_sha256').on('renditions').column('sha256').execute();
  await db.schema
    .createTable('rendition_pages')
    .addColumn('source_sha256', 'varchar(64)', (c) => c.notNull().primaryKey())
    .addColumn('pages', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  if (dialect === 'postgres') await textColumnsCollateC(db);
}
