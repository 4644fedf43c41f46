import type { Kysely } from 'kysely';
import type { DialectName } from '../database.js';
import { withSerialKey } from './0001_foundation.js';

type AnyDb = Kysely<Record<string, unknown>>;

/** Academies, their keys, the directory events refer to, events, instructors and registrations. */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  await withSerialKey(db.schema.createTable('academies'), 'id', dialect)
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('super_admin_id', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await withSerialKey(db.schema.createTable('academy_api_keys'), 'id', dialect)
    .addColumn('academy_id', 'integer', (c) => c.notNull().references('academies.id'))
    .addColumn('key_hash', 'varchar(128)', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint')
    .execute();

  await db.schema
    .createTable('academy_users')
    .addColumn('academy_id', 'integer', (c) => c.notNull().references('academies.id'))
    .addColumn('id', 'integer', (c) => c.notNull())
    .addColumn('firstname', 'varchar(255)', (c) => c.notNull())
    .addColumn('middlename', 'varchar(255)')
    .addColumn('lastname', 'varchar(255)', (c) => c.notNull())
    .addColumn('preferred_name', 'varchar(255)')
    .addColumn('email', 'varchar(320)', (c) => c.notNull())
    .addColumn('role', 'varchar(40)', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull())
    .addColumn('external_id', 'varchar(255)')
    .addColumn('hired_date', 'varchar(10)')
    .addColumn('joined_date', 'varchar(10)')
    .addColumn('image', 'text')
    .addColumn('units', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('academy_users_pk', ['academy_id', 'id'])
    .execute();

  await db.schema
    .createTable('academy_categories')
    .addColumn('academy_id', 'integer', (c) => c.notNull().references('academies.id'))
    .addColumn('id', 'integer', (c) => c.notNull())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addPrimaryKeyConstraint('academy_categories_pk', ['academy_id', 'id'])
    .execute();

  await db.schema
    .createTable('academy_courses')
    .addColumn('academy_id', 'integer', (c) => c.notNull().references('academies.id'))
    .addColumn('id', 'integer', (c) => c.notNull())
    .addColumn('title', 'varchar(255)', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('category_ids', 'text', (c) => c.notNull())
    .addColumn('external_id', 'varchar(255)')
    .addPrimaryKeyConstraint('academy_courses_pk', ['academy_id', 'id'])
    .execute();

  await db.schema
    .createTable('academy_curriculums')
    .addColumn('academy_id', 'integer', (c) => c.notNull().references('academies.id'))
    .addColumn('id', 'integer', (c) => c.notNull())
    .addColumn('title', 'varchar(255)', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('category_id', 'integer')
    .addColumn('external_id', 'varchar(255)')
    .addPrimaryKeyConstraint('academy_curriculums_pk', ['academy_id', 'id'])
    .execute();

  await db.schema
    .createTable('academy_venues')
    .addColumn('academy_id', 'integer', (c) => c.notNull().references('academies.id'))
    .addColumn('id', 'integer', (c) => c.notNull())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('seats', 'integer', (c) => c.notNull())
    .addColumn('address', 'varchar(255)')
    .addColumn('city', 'varchar(255)')
    .addColumn('latitude', 'double precision')
    .addColumn('longitude', 'double precision')
    .addPrimaryKeyConstraint('academy_venues_pk', ['academy_id', 'id'])
    .execute();

  await withSerialKey(db.schema.createTable('academy_events'), 'id', dialect)
    .addColumn('academy_id', 'integer', (c) => c.notNull().references('academies.id'))
    .addColumn('kind', 'varchar(3)', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('bundle_title', 'text')
    .addColumn('picture', 'text')
    .addColumn('time_offset', 'double precision')
    .addColumn('timezone_id', 'integer')
    .addColumn('registration_deadline', 'integer', (c) => c.notNull())
    .addColumn('based', 'integer', (c) => c.notNull())
    .addColumn('auto_approved', 'integer', (c) => c.notNull())
    .addColumn('max_attendees', 'integer', (c) => c.notNull())
    .addColumn('block_reservations', 'integer', (c) => c.notNull())
    .addColumn('visible', 'integer', (c) => c.notNull())
    .addColumn('category_id', 'integer')
    .addColumn('course_id', 'integer')
    .addColumn('curriculum_id', 'integer')
    .addColumn('part_of_course', 'integer', (c) => c.notNull())
    .addColumn('part_of_curriculum', 'integer', (c) => c.notNull())
    .addColumn('custom_cal_message', 'text')
    .addColumn('auto_archive', 'integer', (c) => c.notNull())
    .addColumn('passing_score', 'integer', (c) => c.notNull())
    .addColumn('completion_percentage', 'integer', (c) => c.notNull())
    .addColumn('venue_id', 'integer')
    .addColumn('venue_seats', 'integer')
    .addColumn('location', 'text')
    .addColumn('latitude', 'double precision')
    .addColumn('longitude', 'double precision')
    .addColumn('canceled', 'integer', (c) => c.notNull())
    .addColumn('sessions', 'text', (c) => c.notNull())
    .addColumn('external_instructors', 'text', (c) => c.notNull())
    .addColumn('bundle_id', 'integer')
    .addColumn('can_multi', 'varchar(3)')
    .addColumn('must_retake', 'integer', (c) => c.notNull())
    .addColumn('retake_every', 'integer', (c) => c.notNull())
    // start_at and end_at index the sessions for ordering and date filters; only the code that
    // writes sessions writes them, in the same statement.
    .addColumn('start_at', 'bigint', (c) => c.notNull())
    .addColumn('end_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('academy_events_list')
    .on('academy_events')
    .columns(['academy_id', 'kind', 'start_at', 'id'])
    .execute();
  await db.schema.createIndex('academy_events_bundle').on('academy_events').columns(['bundle_id', 'id']).execute();

  await db.schema
    .createTable('academy_event_instructors')
    .addColumn('event_id', 'integer', (c) => c.notNull().references('academy_events.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('is_primary', 'integer', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('academy_event_instructors_pk', ['event_id', 'user_id'])
    .execute();

  await db.schema
    .createTable('academy_registrations')
    .addColumn('event_id', 'integer', (c) => c.notNull().references('academy_events.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('approval', 'varchar(10)', (c) => c.notNull())
    .addColumn('state', 'varchar(12)', (c) => c.notNull())
    .addColumn('attendance_minutes', 'integer', (c) => c.notNull())
    .addColumn('registered_at', 'bigint', (c) => c.notNull())
    .addColumn('completed_at', 'bigint')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('academy_registrations_pk', ['event_id', 'user_id'])
    .execute();
  await db.schema.createIndex('academy_registrations_user').on('academy_registrations').columns(['user_id']).execute();
}
