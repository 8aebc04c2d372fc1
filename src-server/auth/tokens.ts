import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import type { Clock } from '../clock';

export const ACCESS_TOKEN_TTL_MS = 15 * 60 * 1000;
/** Absolute session lifetime: the spec's 1-day session cookies. */
export const SESSION_TTL_MS = 24 * 60 * 60 * 1000;
export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;

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

  async signAccess(accountId: number): Promise<{ value: string; expiresAt: Date }> {
    const expiresAt = new Date(this.clock.now().getTime() + ACCESS_TOKEN_TTL_MS);
    // Millisecond issue time: a password change cuts every token issued before it, even within the same second.
    const value = await this.sign({ typ: 'access', iat_ms: this.clock.now().getTime() }, accountId, randomUUID(), expiresAt);
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
