import type { Db } from './database.js';

/** A value shared by every process, made once by whichever process needs it first. */
export async function settingOrCreate(db: Db, key: string, make: () => string): Promise<string> {
  await db
    .insertInto('settings')
    .values({ key, value: make() })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirstOrThrow();
  return row.value;
}
