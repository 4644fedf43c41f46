import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Encryption at rest of every reversible secret (HR signing keys, the cursor MAC secret, and later webhook
 * signature keys): AES-256-GCM under one master key, with the secret's purpose (`signing_key:<kid>`,
 * `setting:cursor_secret`, …) as associated data, so a sealed value copied into another row does not open.
 *
 * The master key comes from `ATRIUM_MASTER_KEY` (32 bytes: 64 hex digits, or base64/base64url), or else from a key
 * file (`ATRIUM_MASTER_KEY_FILE`, default `<ATRIUM_DATA_DIR>/master.key`) that the first start creates with mode
 * 0600. Irreversible secrets (application secrets, Academy keys) stay SHA-256 hashes and never come here.
 * docs/security.md describes backup, loss and rotation.
 */

const PREFIX = 'enc:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;
/** The sealed value of the settings row that proves a master key is the database's own. */
const CHECK_PURPOSE = 'master-key-check';
const CHECK_PLAINTEXT = 'atrium master key check v1';

/** A master key that cannot be read or does not open this database's secrets: the process must not start. */
export class MasterKeyError extends Error {
  override name = 'MasterKeyError';
}

/** Whether a stored value is sealed (else it is a plain-text value written before encryption at rest). */
export function isSealed(stored: string): boolean {
  return stored.startsWith(PREFIX);
}

export class SecretBox {
  private readonly key: Buffer;
  /** Where the key came from, for `atrium doctor` and error messages (never the key itself). */
  readonly source: string;

  constructor(key: Buffer, source: string) {
    if (key.length !== KEY_BYTES) throw new MasterKeyError(`the master key must be ${KEY_BYTES} bytes`);
    this.key = Buffer.from(key);
    this.source = source;
  }

  /** Short fingerprint of the key (not reversible), shown by `atrium doctor` to compare machines. */
  fingerprint(): string {
    return createHash('sha256').update('atrium-master-key-fingerprint').update(this.key).digest('hex').slice(0, 16);
  }

  /**
   * A key of its own for one purpose (HKDF-SHA256 of the master key): for MACs that need no stored secret, such as
   * the signers' links. It changes with the master key.
   */
  deriveKey(purpose: string): Buffer {
    return Buffer.from(hkdfSync('sha256', this.key, Buffer.alloc(0), `atrium:${purpose}`, 32));
  }

  seal(purpose: string, plaintext: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(purpose, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return `${PREFIX}${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
  }

  /** Opens a sealed value; a wrong key, a wrong purpose or altered bytes throw MasterKeyError. */
  open(purpose: string, stored: string): string {
    if (!isSealed(stored)) throw new MasterKeyError(`the stored ${purpose} is not encrypted`);
    const raw = Buffer.from(stored.slice(PREFIX.length), 'base64url');
    if (raw.length < IV_BYTES + TAG_BYTES) throw new MasterKeyError(`the stored ${purpose} is truncated`);
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(purpose, 'utf8'));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      throw new MasterKeyError(
        `the master key (${this.source}) does not open the stored ${purpose}: it is not the key this database was encrypted with`,
      );
    }
  }

  /** The value of the check row, made once per database. */
  checkValue(): string {
    return this.seal(CHECK_PURPOSE, CHECK_PLAINTEXT);
  }

  /** Throws MasterKeyError unless the check row was sealed with this key. */
  verifyCheck(stored: string): void {
    if (this.open(CHECK_PURPOSE, stored) !== CHECK_PLAINTEXT) {
      throw new MasterKeyError('the master key check row holds an unexpected value');
    }
  }
}

/** Parses `ATRIUM_MASTER_KEY`: 64 hex digits, or the base64 / base64url form of 32 bytes. */
export function parseMasterKey(text: string, name: string): Buffer {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)) {
    const key = Buffer.from(trimmed.replace(/\+/g, '-').replace(/\//g, '_').replace(/=$/, ''), 'base64url');
    if (key.length === KEY_BYTES) return key;
  }
  throw new MasterKeyError(`${name} must be 32 bytes written as 64 hex digits or base64 (e.g. openssl rand -hex 32)`);
}

export interface MasterKeySettings {
  /** `ATRIUM_MASTER_KEY`, when set. */
  masterKey: string | undefined;
  /** `ATRIUM_MASTER_KEY_FILE`: the key file used when no `ATRIUM_MASTER_KEY` is given. */
  masterKeyFile: string;
}

/** Where a database's own key goes, in the words of an error: "set ATRIUM_MASTER_KEY or put its master.key file in /data". */
export function whereTheKeyGoes(settings: MasterKeySettings): string {
  const file = settings.masterKeyFile;
  const where =
    path.basename(file) === 'master.key'
      ? `put its master.key file in ${path.dirname(file)}`
      : `put its key file at ${file}`;
  return `set ATRIUM_MASTER_KEY to that key, or ${where} (docs/security.md)`;
}

/** Why a database that holds sealed secrets cannot start without its key file, and what to do. */
export function missingKeyMessage(settings: MasterKeySettings): string {
  return `this database was encrypted with another master key, and there is no ${settings.masterKeyFile}: ${whereTheKeyGoes(settings)}`;
}

/**
 * The master key: `ATRIUM_MASTER_KEY`, else the key file, created (0600, its directory 0700) when missing and
 * `create` allows it (a database that holds no sealed secret yet). The file is written to a temporary name and
 * linked into place, so processes starting together all end up with the one key that won, and none reads a
 * half-written file. Without `create`, a missing file throws MasterKeyError and nothing is written.
 */
export function loadSecretBox(settings: MasterKeySettings, options: { create?: boolean } = {}): SecretBox {
  if (settings.masterKey !== undefined && settings.masterKey.trim() !== '') {
    return new SecretBox(parseMasterKey(settings.masterKey, 'ATRIUM_MASTER_KEY'), 'ATRIUM_MASTER_KEY');
  }
  const file = settings.masterKeyFile;
  if (!fs.existsSync(file)) {
    if (options.create === false) {
      throw new MasterKeyError(missingKeyMessage(settings));
    }
    const dir = path.dirname(file);
    if (!fs.existsSync(dir)) {
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      fs.chmodSync(dir, 0o700);
    }
    const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    const fd = fs.openSync(temp, 'wx', 0o600);
    try {
      fs.writeSync(fd, `${randomBytes(KEY_BYTES).toString('hex')}\n`);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    try {
      fs.linkSync(temp, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      fs.rmSync(temp, { force: true });
    }
  }
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new MasterKeyError(`cannot read the master key file ${file}: ${(error as Error).message}`);
  }
  return new SecretBox(parseMasterKey(text, `the master key file ${file}`), file);
}
