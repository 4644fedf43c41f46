import { type Kysely, sql } from 'kysely';
import type { DialectName } from '../database.js';
import { withSerialKey } from './0001_foundation.js';

type AnyDb = Kysely<Record<string, unknown>>;

/**
 * The knowledge portal of People Assist: categories, articles with one
 * version per language, their categories, tags and employee perimeters, and
 * a full-text index of each article (FTS5 on SQLite, a tsvector on
 * PostgreSQL), kept in step with every write in the same transaction.
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  await withSerialKey(db.schema.createTable('pa_kb_categories'), 'pk', dialect)
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().references('hr_clients.id'))
    .addColumn('id', 'varchar(36)', (c) => c.notNull())
    .addColumn('slug', 'varchar(255)', (c) => c.notNull())
    .addColumn('sort_order', 'double precision', (c) => c.notNull())
    .addColumn('order_key', 'varchar(16)', (c) => c.notNull())
    .addColumn('original_language_code', 'varchar(35)', (c) => c.notNull())
    .addColumn('icon_class', 'varchar(255)')
    .addColumn('disable_default_form', 'integer', (c) => c.notNull())
    .addColumn('default_form_id', 'varchar(255)')
    .addColumn('visible_to_employee', 'integer', (c) => c.notNull())
    .addColumn('localized_name', 'text', (c) => c.notNull())
    .addColumn('localized_description', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('pa_kb_categories_client_id_uq', ['client_id', 'id'])
    .execute();
  await db.schema
    .createIndex('pa_kb_categories_order')
    .on('pa_kb_categories')
    .columns(['client_id', 'order_key', 'pk'])
    .execute();

  await withSerialKey(db.schema.createTable('pa_kb_articles'), 'pk', dialect)
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().references('hr_clients.id'))
    .addColumn('id', 'varchar(36)', (c) => c.notNull())
    .addColumn('slug', 'varchar(255)', (c) => c.notNull())
    .addColumn('author_id', 'varchar(36)')
    .addColumn('last_updater_id', 'varchar(36)')
    .addColumn('last_hits', 'integer', (c) => c.notNull())
    .addColumn('total_hits', 'integer', (c) => c.notNull())
    .addColumn('featured_on_employee_homepage', 'integer', (c) => c.notNull())
    .addColumn('once_on_employee_homepage', 'integer', (c) => c.notNull())
    .addColumn('permanent_on_employee_homepage', 'integer', (c) => c.notNull())
    .addColumn('expiration_date', 'varchar(10)')
    .addColumn('scheduled_publication_date', 'varchar(10)')
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('accessible_by_hr', 'integer', (c) => c.notNull())
    .addColumn('accessible_by_employee', 'integer', (c) => c.notNull())
    .addColumn('role_restrictions', 'text', (c) => c.notNull())
    .addColumn('localized_search_keywords', 'text', (c) => c.notNull())
    .addColumn('sort_title', 'varchar(255)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('pa_kb_articles_client_id_uq', ['client_id', 'id'])
    .execute();
  await db.schema
    .createIndex('pa_kb_articles_updated')
    .on('pa_kb_articles')
    .columns(['client_id', 'updated_at', 'pk'])
    .execute();

  await db.schema
    .createTable('pa_kb_article_versions')
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('article_pk', 'bigint', (c) => c.notNull().references('pa_kb_articles.pk').onDelete('cascade'))
    .addColumn('id', 'varchar(36)', (c) => c.notNull().unique())
    .addColumn('language_code', 'varchar(35)', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('title', 'varchar(255)', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('creator_id', 'varchar(36)')
    .addColumn('updator_id', 'varchar(36)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('pa_kb_article_versions_pk', ['article_pk', 'language_code'])
    .execute();
  await db.schema
    .createIndex('pa_kb_article_versions_language')
    .on('pa_kb_article_versions')
    .columns(['client_id', 'language_code'])
    .execute();

  await db.schema
    .createTable('pa_kb_article_categories')
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('article_pk', 'bigint', (c) => c.notNull().references('pa_kb_articles.pk').onDelete('cascade'))
    .addColumn('category_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('pa_kb_article_categories_pk', ['article_pk', 'category_id'])
    .execute();
  await db.schema
    .createIndex('pa_kb_article_categories_category')
    .on('pa_kb_article_categories')
    .columns(['client_id', 'category_id'])
    .execute();

  await db.schema
    .createTable('pa_kb_article_tags')
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('article_pk', 'bigint', (c) => c.notNull().references('pa_kb_articles.pk').onDelete('cascade'))
    .addColumn('language_code', 'varchar(35)', (c) => c.notNull())
    .addColumn('label', 'varchar(100)', (c) => c.notNull())
    .addColumn('label_key', 'varchar(100)', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('pa_kb_article_tags_pk', ['article_pk', 'language_code', 'label_key'])
    .execute();
  await db.schema
    .createIndex('pa_kb_article_tags_label')
    .on('pa_kb_article_tags')
    .columns(['client_id', 'label_key', 'language_code'])
    .execute();

  await db.schema
    .createTable('pa_kb_article_perimeters')
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('article_pk', 'bigint', (c) => c.notNull().references('pa_kb_articles.pk').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('operator', 'varchar(2)', (c) => c.notNull())
    .addColumn('organization_id', 'varchar(255)')
    .addColumn('organization_group_id', 'varchar(255)')
    .addColumn('custom_field_filters', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('pa_kb_article_perimeters_pk', ['article_pk', 'position'])
    .execute();
  await db.schema
    .createIndex('pa_kb_article_perimeters_client')
    .on('pa_kb_article_perimeters')
    .columns(['client_id', 'organization_id'])
    .execute();

  // One full-text row per article: its titles, its search keywords and its bodies (HTML stripped), every
  // language together, already folded to lower case without diacritics by the application (search.ts).
  if (dialect === 'sqlite') {
    await sql`create virtual table pa_kb_article_fts using fts5(title, keywords, body)`.execute(db);
  } else {
    await db.schema
      .createTable('pa_kb_article_fts')
      .addColumn('article_pk', 'bigint', (c) => c.primaryKey().references('pa_kb_articles.pk').onDelete('cascade'))
      .addColumn('document', sql`tsvector`, (c) => c.notNull())
      .execute();
    await sql`create index pa_kb_article_fts_document on pa_kb_article_fts using gin (document)`.execute(db);
  }
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('pa_kb_article_fts').execute();
  for (const table of ['pa_kb_article_perimeters', 'pa_kb_article_tags', 'pa_kb_article_categories'])
    await db.schema.dropTable(table).execute();
  await db.schema.dropTable('pa_kb_article_versions').execute();
  await db.schema.dropTable('pa_kb_articles').execute();
  await db.schema.dropTable('pa_kb_categories').execute();
}
