import type { Kysely } from 'kysely';
import type { DialectName } from '../database.js';
import { textColumnsCollateC } from './0010_collation.js';

type AnyDb = Kysely<Record<string, unknown>>;

/**
 * The Academy directory's extras (docs/academy-directory.md): a course's status, language, lectures, exams, skills,
 * coupons and invitations; a curriculum's status; a user's badges; content items; and enrollments (course and
 * curriculum students, with progress and completion). Lists owned by one course or user are JSON columns, replaced
 * with their owner by the import; existing rows get empty lists and the status `active`.
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  await db.schema
    .alterTable('academy_courses')
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('active'))
    .execute();
  await db.schema.alterTable('academy_courses').addColumn('language', 'varchar(16)').execute();
  // `|1|5|`: the course's skill ids, for the `skills` filter (a LIKE on `|id|`).
  await db.schema
    .alterTable('academy_courses')
    .addColumn('skill_index', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  for (const column of ['lectures', 'exams', 'skills', 'coupons', 'invitations']) {
    await db.schema
      .alterTable('academy_courses')
      .addColumn(column, 'text', (c) => c.notNull().defaultTo('[]'))
      .execute();
  }
  await db.schema
    .alterTable('academy_curriculums')
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('active'))
    .execute();
  await db.schema
    .alterTable('academy_users')
    .addColumn('badges', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();

  await db.schema
    .createTable('academy_content')
    .addColumn('academy_id', 'integer', (c) => c.notNull().references('academies.id'))
    .addColumn('id', 'integer', (c) => c.notNull())
    .addColumn('title', 'varchar(255)', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('type_id', 'integer', (c) => c.notNull())
    .addColumn('sub_type_id', 'integer', (c) => c.notNull())
    .addColumn('category_id', 'integer')
    .addColumn('tags', 'text', (c) => c.notNull())
    // `|safety|fire|`: the tags folded to lower case, for the `tags` filter (a LIKE on `|tag|`).
    .addColumn('tag_index', 'text', (c) => c.notNull())
    .addColumn('url', 'text')
    .addColumn('time_added', 'bigint', (c) => c.notNull())
    .addColumn('time_modified', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('academy_content_pk', ['academy_id', 'id'])
    .execute();

  await db.schema
    .createTable('academy_enrollments')
    .addColumn('academy_id', 'integer', (c) => c.notNull().references('academies.id'))
    // `course` or `curriculum`.
    .addColumn('kind', 'varchar(10)', (c) => c.notNull())
    .addColumn('item_id', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('role', 'varchar(20)', (c) => c.notNull())
    .addColumn('coupon_id', 'integer')
    .addColumn('enrolled_date', 'varchar(10)', (c) => c.notNull())
    .addColumn('progress', 'integer', (c) => c.notNull())
    .addColumn('time_spent', 'integer', (c) => c.notNull())
    .addColumn('completion_date', 'varchar(10)')
    .addColumn('completed_by_admin', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('academy_enrollments_pk', ['academy_id', 'kind', 'item_id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('academy_enrollments_user')
    .on('academy_enrollments')
    .columns(['academy_id', 'kind', 'user_id'])
    .execute();

  if (dialect === 'postgres') await textColumnsCollateC(db);
}
