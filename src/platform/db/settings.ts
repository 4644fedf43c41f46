import {
  isSealed,
  loadSecretBox,
  MasterKeyError,
  type MasterKeySettings,
  type SecretBox,
  whereTheKeyGoes,
} from '../security/secret-box.js';
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

/**
 * A secret shared by every process (the cursor MAC secret), stored sealed by the master key. A value written in
 * plain text by an earlier release is sealed in place on first read; a concurrent process sealing the same row
 * changes nothing (the update matches the plain-text value only).
 */
export async function secretSettingOrCreate(db: Db, box: SecretBox, key: string, make: () => string): Promise<string> {
  const purpose = `setting:${key}`;
  const stored = await settingOrCreate(db, key, () => box.seal(purpose, make()));
  if (isSealed(stored)) return box.open(purpose, stored);
  await db
    .updateTable('settings')
    .set({ value: box.seal(purpose, stored) })
    .where('key', '=', key)
    .where('value', '=', stored)
    .execute();
  return stored;
}

/**
 * Proves the master key is this database's own before anything is decrypted: the first start stores a value sealed
 * by its key; every later start (and every other process or machine) must open it, or fails with MasterKeyError.
 */
export async function checkMasterKey(db: Db, box: SecretBox): Promise<void> {
  box.verifyCheck(await settingOrCreate(db, 'master_key_check', () => box.checkValue()));
}

/** Whether the database already holds a value sealed by a master key (its check row, a secret setting). */
export async function holdsSealedSecrets(db: Db): Promise<boolean> {
  const row = await db
    .selectFrom('settings')
    .select('key')
    .where((eb) => eb.or([eb('key', '=', 'master_key_check'), eb('value', 'like', 'enc:v1:%')]))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The master key of this database, proven (checkMasterKey). The key file is created only for a database that holds
 * no sealed secret yet: a restored database whose key is missing, or another key, fails with MasterKeyError saying
 * where its key goes, and no key file is written.
 */
export async function openMasterKey(db: Db, settings: MasterKeySettings): Promise<SecretBox> {
  const box = loadSecretBox(settings, { create: !(await holdsSealedSecrets(db)) });
  try {
    await checkMasterKey(db, box);
  } catch (error) {
    if (!(error instanceof MasterKeyError)) throw error;
    throw new MasterKeyError(
      `this database was encrypted with another master key: the one in ${box.source} does not open it; ${whereTheKeyGoes(settings)}`,
    );
  }
  return box;
}
