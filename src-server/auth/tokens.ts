import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import type { Clock } from '../clock';

export const ACCESS_TOKEN_TTL_MS = 15 * 60 * 1000;
/** Absolute session lifetime: the spec's 1-day session cookies. */
export const SESSION_TTL_MS = 24 * 60 * 60 * 1000;
export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;
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

/** Signs and verifies the two kinds of JWT. A token of one kind is never accepted as the other. */
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

  async signRefresh(accountId: number, jti: string, familyId: string, expiresAt: Date): Promise<string> {
    return this.sign({ typ: 'refresh', fam: familyId }, accountId, jti, expiresAt);
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

  /** The verified token, or null for anything not signed by us, expired, or of the other type. */
  async verify(token: string, type: TokenType): Promise<VerifiedToken | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: [ALGORITHM],
        issuer: ISSUER,
        audience: AUDIENCE,
        currentDate: this.clock.now(),
        requiredClaims: ['sub', 'jti', 'exp', 'iat'],
        clockTolerance: 0,
      });
      if (payload.typ !== type) return null;
      const accountId = Number(payload.sub);
      if (!Number.isSafeInteger(accountId) || accountId <= 0 || typeof payload.jti !== 'string') return null;
      if (type === 'refresh' && typeof payload.fam !== 'string') return null;
      return {
        accountId,
        jti: payload.jti,
        familyId: typeof payload.fam === 'string' ? payload.fam : undefined,
        issuedAt: new Date(typeof payload.iat_ms === 'number' ? payload.iat_ms : (payload.iat ?? 0) * 1000),
        expiresAt: new Date((payload.exp ?? 0) * 1000),
      };
    } catch (error) {
      if (error instanceof joseErrors.JOSEError) return null;
      throw error;
    }
  }
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
