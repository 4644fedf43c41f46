import { type Kysely, sql } from 'kysely';

type AnyDb = Kysely<Record<string, unknown>>;

/**
 * The folders every client starts with were labelled in `en` and `fr`; the reference's language codes are `en-us`
 * and `fr-fr`, as every other resource writes them. Rewrites the stored labels (folders are read-only in the API,
 * so every row is one Atrium wrote).
 */
export async function up(db: AnyDb): Promise<void> {
  await sql`update hr_folders set localized_labels = replace(replace(localized_labels,
    '"language_code":"en"', '"language_code":"en-us"'), '"language_code":"fr"', '"language_code":"fr-fr"')`.execute(db);
}
