import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@shared/contract';
import { MESSAGES } from '@shared/messages';

const KEY_LENGTH = 32;
/** scrypt cost: N = 2^14, r = 8, p = 1 (16 MiB, about 40 ms here), the OWASP minimum for scrypt. */
const DEFAULT_PARAMS = { N: 16384, r: 8, p: 1 };

function scrypt(password: string, salt: Buffer, params: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scryptCallback(password.normalize('NFC'), salt, KEY_LENGTH, { ...params, maxmem: 64 * 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/** Hash as `scrypt$N$r$p$salt$key`, base64url parts, so the cost can be raised later per hash. */
export async function hashPassword(password: string, params: { N: number; r: number; p: number } = DEFAULT_PARAMS): Promise<string> {
  const salt = randomBytes(16);
  const { N, r, p } = params;
  const key = await scrypt(password, salt, { N, r, p });
  return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [, N, r, p, salt, key] = parts;
  const expected = Buffer.from(key, 'base64url');
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), { N: Number(N), r: Number(r), p: Number(p) });
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/**
 * A hash of a random secret nobody knows: accounts created by an admin get it until they set their own
 * password, and sign-in verifies against one when the account does not exist, so both paths take as long.
 */
export function unusablePasswordHash(): Promise<string> {
  return hashPassword(randomBytes(32).toString('base64url'));
}

/**
 * About 49,000 most common passwords, shipped by zxcvbn-ts; only those long enough to pass the length rule
 * matter. Loaded on first use: decompressing the list would slow every server start.
 */
let commonPasswords: Promise<Set<string>> | null = null;
export function loadCommonPasswords(): Promise<Set<string>> {
  commonPasswords ??= import('@zxcvbn-ts/language-common').then(({ dictionary }) => {
    const list = dictionary['passwords-common'] as string[];
    return new Set(list.filter((password) => password.length >= PASSWORD_MIN_LENGTH));
  });
  return commonPasswords;
}

/** The French message that refuses `password`, or null when it is acceptable. */
export async function passwordProblem(password: string): Promise<string | null> {
  if (password.length < PASSWORD_MIN_LENGTH) return MESSAGES.passwordTooShort;
  if (password.length > PASSWORD_MAX_LENGTH) return MESSAGES.passwordTooLong;
  // Eight spaces pass the length rule but are no secret.
  if (!/\S/u.test(password)) return MESSAGES.passwordBlank;
  if ((await loadCommonPasswords()).has(password.toLowerCase())) return MESSAGES.passwordTooCommon;
  return null;
}
