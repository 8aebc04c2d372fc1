import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { SignJWT } from 'jose';
import type { Clock } from '../clock';

export const ACCESS_TOKEN_TTL_MS = 15 * 60 * 1000;
/** Absolute session lifetime: the spec's 1-day session cookies. */
export const SESSION_TTL_MS = 24 * 60 * 60 * 1000;
export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;
/** A device token (sign-in throttling's own lane for a known device) lasts this long after its last sign-in. */
export const DEVICE_TOKEN_TTL_MS = 90 * 24 * 60 * 60 * 1000;
/**
 * How long a just-rotated refresh token may come back and get the same successor instead of being taken for a
 * stolen copy: two windows refreshing at once, or a retry after a lost answer (the leeway Auth0 and Okta give).
 */
export const REFRESH_REUSE_GRACE_MS = 10_000;

const ALGORITHM = 'HS256';
const ISSUER = 'backoffice-api';
const AUDIENCE = 'backoffice';

export type TokenType = 'access' | 'refresh';

export interface VerifiedToken {
  accountId: number;
  jti: string;
  familyId?: string;
  issuedAt: Date;
  expiresAt: Date;
}

/** Signs and verifies the two kinds of JWT (and the opaque device tokens). A token of one kind is never accepted as another. */
export class TokenService {
  constructor(
    private readonly key: Uint8Array,
    private readonly clock: Clock,
  ) {}

  /**
   * An access token of the session `familyId`, expiring in 15 minutes but never after `sessionEndsAt` (its `exp`
   * is capped, not only the answer's expiresAt). It carries the family, so the guard refuses it once the family
   * is revoked (refresh-token reuse).
   */
  async signAccess(accountId: number, familyId: string, sessionEndsAt: Date): Promise<{ value: string; expiresAt: Date }> {
    const now = this.clock.now().getTime();
    // `exp` counts whole seconds: round the session's end down so the token never outlives it.
    const end = Math.min(now + ACCESS_TOKEN_TTL_MS, Math.floor(sessionEndsAt.getTime() / 1000) * 1000);
    const expiresAt = new Date(end);
    // Millisecond issue time: a password change cuts every token issued before it, even within the same second.
    const value = await this.sign({ typ: 'access', iat_ms: now, fam: familyId }, accountId, randomUUID(), expiresAt);
    return { value, expiresAt };
  }

  /**
   * An HMAC-SHA256 of `data` under a key derived from the signing key for one `purpose` (signed storage URLs), so
   * that the JWT key itself signs nothing but JWTs and a MAC of one purpose is never valid for another.
   */
  mac(purpose: string, data: string): Buffer {
    const derived = createHmac('sha256', this.key).update(`backoffice-mac:${purpose}`).digest();
    return createHmac('sha256', derived).update(data).digest();
  }

  async signRefresh(accountId: number, jti: string, familyId: string, expiresAt: Date): Promise<string> {
    return this.sign({ typ: 'refresh', fam: familyId }, accountId, jti, expiresAt);
  }

  /**
   * A device token (OWASP "Slow Down Online Guessing Attacks with Device Cookies"): proof that this device signed in
   * as `username` before. It opens nothing by itself; it gives the device a sign-in lane guessers cannot consume.
   * Opaque (`d1.<id>.<expiry>.<mac>`): it sits 90 days in a browser cookie or the keychain, so it names neither the
   * account nor its e-mail; the username is bound by the MAC, so only a sign-in of that username can use it.
   */
  signDevice(username: string, expiresAt: Date): string {
    const id = randomBytes(16).toString('base64url');
    const expiry = Math.floor(expiresAt.getTime() / 1000).toString(36);
    return `d1.${id}.${expiry}.${this.deviceMac(id, expiry, username)}`;
  }

  /** The device's id when `token` is a device token of ours for `username` that has not expired, else null. */
  verifyDevice(token: string, username: string): { id: string; expiresAt: Date } | null {
    const match = /^d1\.([A-Za-z0-9_-]{22})\.([0-9a-z]{1,10})\.([A-Za-z0-9_-]{43})$/.exec(token);
    if (!match) return null;
    const [, id, expiry, mac] = match as unknown as [string, string, string, string];
    if (!timingSafeEqual(Buffer.from(mac), Buffer.from(this.deviceMac(id, expiry, username)))) return null;
    const expiresAt = new Date(parseInt(expiry, 36) * 1000);
    return this.clock.now().getTime() < expiresAt.getTime() ? { id, expiresAt } : null;
  }

  private deviceMac(id: string, expiry: string, username: string): string {
    return this.mac('device', `${id}.${expiry}.${username.toLowerCase()}`).toString('base64url');
  }

  private sign(claims: Record<string, string | number>, accountId: number, jti: string, expiresAt: Date): Promise<string> {
    const now = this.clock.now();
    return new SignJWT(claims)
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setSubject(String(accountId))
      .setJti(jti)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(Math.floor(now.getTime() / 1000))
      .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
      .sign(this.key);
  }

  /**
   * The verified token, or null for anything not signed by us, expired, or of the other type.
   *
   * Synchronous on purpose: jose verifies through WebCrypto, whose HMAC runs on libuv's thread pool, where it
   * queued behind password hashes during a sign-in burst and stalled every authenticated call. An HS256 check is a
   * few microseconds of node:crypto on the calling thread. jose still signs (sign-in and refresh only).
   */
  async verify(token: string, type: TokenType): Promise<VerifiedToken | null> {
    return this.verifyNow(token, type);
  }

  /** `verify` without a promise. */
  verifyNow(token: string, type: TokenType): VerifiedToken | null {
    const parts = token.split('.');
    if (parts.length !== 3) return null;
    const [encodedHeader, encodedPayload, encodedSignature] = parts;
    const header = parseSegment(encodedHeader);
    if (!header || header.alg !== ALGORITHM || header.typ !== 'JWT' || header.crit !== undefined || header.b64 !== undefined) return null;
    const expected = createHmac('sha256', this.key).update(`${encodedHeader}.${encodedPayload}`).digest();
    const signature = Buffer.from(encodedSignature, 'base64url');
    if (signature.length !== expected.length || !timingSafeEqual(signature, expected) || signature.toString('base64url') !== encodedSignature)
      return null;
    const payload = parseSegment(encodedPayload);
    if (!payload || payload.iss !== ISSUER || !audienceIncludes(payload.aud, AUDIENCE)) return null;
    const { sub, jti, exp, iat, typ, fam, iat_ms: iatMs } = payload;
    if (typeof sub !== 'string' || typeof jti !== 'string' || typeof exp !== 'number' || typeof iat !== 'number') return null;
    const nowSeconds = Math.floor(this.clock.now().getTime() / 1000);
    // As jose with clockTolerance 0: expired when now >= exp (a `nbf` is never set by us: refuse one).
    if (nowSeconds >= exp || payload.nbf !== undefined) return null;
    if (typ !== type) return null;
    const accountId = Number(sub);
    if (!Number.isSafeInteger(accountId) || accountId <= 0 || String(accountId) !== sub) return null;
    if (type === 'refresh' && typeof fam !== 'string') return null;
    return {
      accountId,
      jti,
      familyId: typeof fam === 'string' ? fam : undefined,
      issuedAt: new Date(typeof iatMs === 'number' ? iatMs : iat * 1000),
      expiresAt: new Date(exp * 1000),
    };
  }
}

function parseSegment(segment: string): Record<string, unknown> | null {
  if (!/^[A-Za-z0-9_-]+$/.test(segment)) return null;
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function audienceIncludes(aud: unknown, audience: string): boolean {
  return aud === audience || (Array.isArray(aud) && aud.includes(audience));
}

export function newSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}

/**
 * The id of the refresh token that replaces `jti` on rotation: derived, so that a second refresh within the grace
 * window finds the same successor without a column for it. Knowing it gives nothing: refresh tokens are signed.
 */
export function successorId(jti: string): string {
  return sha256(`successor:${jti}`);
}
