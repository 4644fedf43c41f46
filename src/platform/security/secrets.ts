import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';

/**
 * Secrets and API keys are 256-bit random values, so a single SHA-256 is a
 * sound way to store them: there is nothing to brute-force, and a token
 * request stays cheap (a slow password hash would cost tens of ms per call).
 */
export function newSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** The stored form of a secret: hex SHA-256. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Constant-time comparison of two strings; false when lengths differ. */
export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a, 'utf8');
  const bb = Buffer.from(b, 'utf8');
  if (ab.length !== bb.length) {
    // Compare against itself so the time taken does not depend on where the inputs differ.
    timingSafeEqual(ab, ab);
    return false;
  }
  return timingSafeEqual(ab, bb);
}

/** Checks a presented secret against its stored hash, in constant time. */
export function verifySecret(presented: string, storedHash: string): boolean {
  return safeEqual(hashSecret(presented), storedHash);
}

export function newId(): string {
  return randomUUID();
}
