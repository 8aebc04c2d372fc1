import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT, decodeJwt } from 'jose';
import { MESSAGES } from '@shared/messages';
import { eq } from 'drizzle-orm';
import { ManualClock } from '../helpers/clock';
import { outbox } from '../../src-server/db/schema';
import { startTestServer, tokenFromMail, TEST_PASSWORD, type TestServer } from '../helpers/server';

let server: TestServer;
let clock: ManualClock;

beforeAll(async () => {
  clock = new ManualClock(Date.parse('2026-11-22T09:00:00Z'));
  server = await startTestServer({ clock });
});
afterAll(() => server?.close());

const signIn = (username: string, password: string, headers?: Record<string, string>) =>
  server.request('POST', '/authenticate', { body: { username, password }, headers });

describe('POST /authenticate', () => {
  it('returns the spec Session: two tokens with expiries, userId and roles', async () => {
    const { id, email } = await server.createAccount(['CSM', 'SALES']);
    const response = await signIn(email, TEST_PASSWORD);
    expect(response.status).toBe(200);
    const session = response.body;
    expect(session.userId).toBe(id);
    expect(session.roles).toEqual(['CSM', 'SALES']);
    const now = clock.now().getTime();
    expect(Date.parse(session.accessToken.expiresAt) - now).toBe(15 * 60 * 1000);
    expect(Date.parse(session.refreshToken.expiresAt) - now).toBe(24 * 60 * 60 * 1000);
    const claims = decodeJwt(session.accessToken.value);
    expect(claims).toMatchObject({ typ: 'access', sub: String(id), iss: 'backoffice-api', aud: 'backoffice' });
  });

  it('accepts the e-mail in any case', async () => {
    const { email } = await server.createAccount(['CSM']);
    expect((await signIn(email.toUpperCase(), TEST_PASSWORD)).status).toBe(200);
  });

  it("answers 'Invalid credentials' alike for a wrong password and an unknown account", async () => {
    const { email } = await server.createAccount(['CSM']);
    const wrongPassword = await signIn(email, 'not-the-password');
    const unknown = await signIn('nobody@test.local', 'not-the-password');
    expect(wrongPassword.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrongPassword.body).toEqual({ errorMsg: MESSAGES.invalidCredentials });
    expect(unknown.body).toEqual(wrongPassword.body);
  });

  it('rate-limits repeated failures per username with 429, and lets the user in again after the window', async () => {
    const { email } = await server.createAccount(['CSM']);
    for (let i = 0; i < 5; i++) expect((await signIn(email, `wrong-${i}`)).status).toBe(401);
    const limited = await signIn(email, TEST_PASSWORD);
    expect(limited.status).toBe(429);
    expect(limited.body.errorMsg).toBe(MESSAGES.tooManyAttempts);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    clock.advance(15 * 60 * 1000 + 1);
    expect((await signIn(email, TEST_PASSWORD)).status).toBe(200);
  });

  it('rate-limits failures per address across usernames', async () => {
    const local = await startTestServer({ clock, config: { maxFailuresPerAddress: 3 } });
    try {
      const { email } = await local.createAccount(['CSM']);
      for (let i = 0; i < 3; i++) {
        expect((await local.request('POST', '/authenticate', { body: { username: `ghost${i}@x.fr`, password: 'whatever-1' } })).status).toBe(401);
      }
      const limited = await local.request('POST', '/authenticate', { body: { username: email, password: TEST_PASSWORD } });
      expect(limited.status).toBe(429);
    } finally {
      await local.close();
    }
  });
});

describe('access tokens', () => {
  it('are refused when expired (15 minutes)', async () => {
    const session = await server.signIn(['ADMIN']);
    expect((await server.request('GET', '/admin/roles', { token: session.accessToken.value })).status).toBe(200);
    clock.advance(15 * 60 * 1000 + 1000);
    const expired = await server.request('GET', '/admin/roles', { token: session.accessToken.value });
    expect(expired.status).toBe(401);
    expect(expired.body.errorMsg).toBe(MESSAGES.invalidToken);
  });

  it('are refused when missing, malformed or tampered with', async () => {
    const session = await server.signIn(['ADMIN']);
    expect((await server.request('GET', '/admin/roles')).body.errorMsg).toBe(MESSAGES.authenticationRequired);
    expect((await server.request('GET', '/admin/roles', { token: 'not.a.jwt' })).status).toBe(401);
    const [header, payload, signature] = session.accessToken.value.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const forgedPayload = Buffer.from(JSON.stringify({ ...claims, sub: '999999' })).toString('base64url');
    expect((await server.request('GET', '/admin/roles', { token: `${header}.${forgedPayload}.${signature}` })).status).toBe(401);
    const flipped = signature.slice(0, -2) + (signature.endsWith('AA') ? 'BB' : 'AA');
    expect((await server.request('GET', '/admin/roles', { token: `${header}.${payload}.${flipped}` })).status).toBe(401);
  });

  it("refuses alg 'none' and tokens signed with another key", async () => {
    const session = await server.signIn(['ADMIN']);
    const claims = decodeJwt(session.accessToken.value);
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`;
    expect((await server.request('GET', '/admin/roles', { token: none })).status).toBe(401);
    const otherKey = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode('another-secret-of-32-bytes-at-least!!'));
    expect((await server.request('GET', '/admin/roles', { token: otherKey })).status).toBe(401);
  });

  it('never accepts a refresh token as an access token, nor the reverse', async () => {
    const session = await server.signIn(['ADMIN']);
    expect((await server.request('GET', '/admin/roles', { token: session.refreshToken.value })).status).toBe(401);
    const refreshWithAccess = await server.request('POST', '/authenticate/refresh', { body: { token: session.accessToken.value } });
    expect(refreshWithAccess.status).toBe(401);
    expect(refreshWithAccess.body.errorMsg).toBe(MESSAGES.invalidRefreshToken);
  });
});

describe('POST /authenticate/refresh', () => {
  it('rotates the refresh token and keeps the absolute end of the session', async () => {
    const first = await server.signIn(['CSM']);
    clock.advance(60_000);
    const second = await server.request('POST', '/authenticate/refresh', { body: { token: first.refreshToken.value } });
    expect(second.status).toBe(200);
    expect(second.body.refreshToken.value).not.toBe(first.refreshToken.value);
    expect(second.body.refreshToken.expiresAt).toBe(first.refreshToken.expiresAt);
    expect(second.body.roles).toEqual(['CSM']);
    expect((await server.request('GET', '/meta', { token: second.body.accessToken.value })).status).toBe(200);
  });

  it('revokes the whole family when a rotated token comes back', async () => {
    const first = await server.signIn(['CSM']);
    const second = await server.request('POST', '/authenticate/refresh', { body: { token: first.refreshToken.value } });
    expect(second.status).toBe(200);
    clock.advance(10_001); // past the grace window of a just-rotated token
    const replay = await server.request('POST', '/authenticate/refresh', { body: { token: first.refreshToken.value } });
    expect(replay.status).toBe(401);
    // The legitimate holder's newer token died with the family.
    const afterTheft = await server.request('POST', '/authenticate/refresh', { body: { token: second.body.refreshToken.value } });
    expect(afterTheft.status).toBe(401);
  });

  it('gives two concurrent uses of a token the same successor (one rotation, not a reuse)', async () => {
    const session = await server.signIn(['CSM']);
    const results = await Promise.all(
      [1, 2].map(() => server.request('POST', '/authenticate/refresh', { body: { token: session.refreshToken.value } })),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200]);
    expect(decodeJwt(results[0].body.refreshToken.value).jti).toBe(decodeJwt(results[1].body.refreshToken.value).jti);
  });

  it('ends the session one day after sign-in, however often it was refreshed', async () => {
    let session = await server.signIn(['CSM']);
    for (let hour = 0; hour < 23; hour++) {
      clock.advance(60 * 60 * 1000);
      const next = await server.request('POST', '/authenticate/refresh', { body: { token: session.refreshToken.value } });
      expect(next.status).toBe(200);
      session = { ...next.body, email: session.email };
    }
    expect(Date.parse(session.accessToken.expiresAt)).toBeLessThanOrEqual(Date.parse(session.refreshToken.expiresAt));
    clock.advance(60 * 60 * 1000 + 1000);
    expect((await server.request('POST', '/authenticate/refresh', { body: { token: session.refreshToken.value } })).status).toBe(401);
  });
});

describe('password reset and confirm', () => {
  it('answers the same success text whether the account exists or not, and mails a single-use link', async () => {
    const { email } = await server.createAccount(['CSM']);
    const known = await server.request('POST', '/password/reset', { body: { username: email } });
    const unknown = await server.request('POST', '/password/reset', { body: { username: 'ghost@test.local' } });
    expect(known.status).toBe(200);
    expect(known.body).toEqual({ message: MESSAGES.resetAccepted });
    expect(unknown.body).toEqual(known.body);
    expect(await server.lastMail('ghost@test.local')).toBeUndefined();
    const mail = await server.lastMail(email);
    expect(mail?.body).toMatch(/^http:\/\/app\.test\/password\/confirm\?confirmationToken=[A-Za-z0-9_-]{43}$/m);
  });

  it('mails at most 3 links per account in 15 minutes, answering every request alike', async () => {
    const { email } = await server.createAccount(['CSM']);
    // Reset mails are written after the answer: wait for them before counting.
    const mailsTo = async () =>
      (await server.app.context.background.settled(),
      await server.database.db.select({ id: outbox.id }).from(outbox).where(eq(outbox.recipient, email))).length;
    for (let i = 0; i < 5; i++) {
      const response = await server.request('POST', '/password/reset', { body: { username: i % 2 ? email.toUpperCase() : email } });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ message: MESSAGES.resetAccepted });
    }
    expect(await mailsTo()).toBe(3);
    clock.advance(15 * 60 * 1000 + 1);
    await server.request('POST', '/password/reset', { body: { username: email } });
    expect(await mailsTo()).toBe(4);
  });

  it('sets the new password, revokes every session, and refuses the link a second time', async () => {
    const session = await server.signIn(['CSM']);
    await server.request('POST', '/password/reset', { body: { username: session.email } });
    const token = tokenFromMail((await server.lastMail(session.email))!.body);
    clock.advance(1000);
    const confirmed = await server.request('POST', '/password/confirm', { body: { confirmationToken: token, password: 'a brand new passphrase' } });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.message).toBe(MESSAGES.passwordChanged);
    expect((await server.request('POST', '/authenticate/refresh', { body: { token: session.refreshToken.value } })).status).toBe(401);
    expect((await server.request('GET', '/meta', { token: session.accessToken.value })).status).toBe(401);
    expect((await signIn(session.email, TEST_PASSWORD)).status).toBe(401);
    expect((await signIn(session.email, 'a brand new passphrase')).status).toBe(200);
    const again = await server.request('POST', '/password/confirm', { body: { confirmationToken: token, password: 'another new passphrase' } });
    expect(again.status).toBe(400);
    expect(again.body.errorMsg).toBe(MESSAGES.invalidConfirmationToken);
  });

  it('refuses an unknown or expired token', async () => {
    const { email } = await server.createAccount(['CSM']);
    const unknown = await server.request('POST', '/password/confirm', { body: { confirmationToken: 'nope', password: 'a brand new passphrase' } });
    expect(unknown.body.errorMsg).toBe(MESSAGES.invalidConfirmationToken);
    await server.request('POST', '/password/reset', { body: { username: email } });
    const token = tokenFromMail((await server.lastMail(email))!.body);
    clock.advance(60 * 60 * 1000 + 1);
    const expired = await server.request('POST', '/password/confirm', { body: { confirmationToken: token, password: 'a brand new passphrase' } });
    expect(expired.status).toBe(400);
    expect(expired.body.errorMsg).toBe(MESSAGES.invalidConfirmationToken);
  });

  it('refuses short and common passwords in French, accepts 128 characters, and keeps the token for a retry', async () => {
    const { email } = await server.createAccount(['CSM']);
    await server.request('POST', '/password/reset', { body: { username: email } });
    const token = tokenFromMail((await server.lastMail(email))!.body);
    const confirm = (password: string) => server.request('POST', '/password/confirm', { body: { confirmationToken: token, password } });
    expect((await confirm('short')).body).toEqual({ errorMsg: MESSAGES.passwordTooShort });
    expect((await confirm('password1')).body).toEqual({ errorMsg: MESSAGES.passwordTooCommon });
    expect((await confirm('Sunshine1')).body).toEqual({ errorMsg: MESSAGES.passwordTooCommon });
    const long = 'x7#'.repeat(43).slice(0, 128);
    expect((await confirm(long)).status).toBe(200);
    expect((await signIn(email, long)).status).toBe(200);
  });
});

describe('POST /authenticate/merge', () => {
  it('answers 501 with an errorMsg (the spec gives it no shape)', async () => {
    const response = await server.request('POST', '/authenticate/merge', { body: {} });
    expect(response.status).toBe(501);
    expect(response.body).toEqual({ errorMsg: MESSAGES.mergeNotAvailable });
  });
});
