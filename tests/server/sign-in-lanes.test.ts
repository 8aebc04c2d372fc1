import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { MESSAGES } from '@shared/messages';
import { hashPassword } from '../../src-server/auth/passwords';
import { accounts } from '../../src-server/db/schema';
import { ManualClock } from '../helpers/clock';
import { startTestServer, TEST_PASSWORD, type TestServer } from '../helpers/server';

/**
 * Distributed guessing must not lock the owner out (README "Sign-in rate limits"): guessers cycling 150 or 400
 * addresses (IPv4, and IPv6 /64s) against one account for two hours on the controlled clock, while the owner signs
 * in every minute from a known device (the device token of an earlier sign-in) and from a new device (no token,
 * an address of their own, trying again when Retry-After says).
 */

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const MINUTE = 60_000;

async function server(): Promise<TestServer> {
  const started = await startTestServer({
    clock: new ManualClock(Date.parse('2026-11-22T09:00:00Z')),
    config: { usernameSlowDownBaseMs: 1, usernameSlowDownMaxMs: 1 },
  });
  servers.push(started);
  return started;
}

type Answer = { status: number; body: { deviceToken?: string; errorMsg?: string }; retryAfter?: string };

/** One sign-in from `remoteAddress` (the socket's address, as a client without proxy), injected: no socket per guesser. */
async function signIn(target: TestServer, remoteAddress: string, body: Record<string, string>): Promise<Answer> {
  const response = await target.app.inject({ method: 'POST', url: '/authenticate', remoteAddress, payload: body });
  return { status: response.statusCode, body: response.json(), retryAfter: response.headers['retry-after'] as string | undefined };
}

/** The guessers' addresses: half IPv4, half IPv6 each in its own /64. */
const guesserAddress = (i: number) => (i % 2 ? `10.20.${i >> 8}.${i & 255}` : `2001:db8:${i.toString(16)}:1::${(i % 7) + 1}`);

describe('distributed guessing does not lock the owner out', () => {
  for (const addresses of [150, 400]) {
    it(`${addresses} cycled addresses for 2 hours: the known device gets in every minute, a new device at least once every quarter of an hour`, async () => {
      const target = await server();
      const clock = target.clock as ManualClock;
      const { id, email } = await target.createAccount(['CSM']);
      // A cheaper hash (read from the hash itself): the lanes are under test here, not scrypt's cost, and 1,300
      // checked guesses at the real cost took minutes of CI under load.
      await target.database.db
        .update(accounts)
        .set({ passwordHash: await hashPassword(TEST_PASSWORD, { N: 1024, r: 8, p: 1 }) })
        .where(eq(accounts.id, id));
      // The owner's laptop signed in yesterday: it holds a device token.
      let deviceToken = (await signIn(target, '192.0.2.10', { username: email, password: TEST_PASSWORD })).body.deviceToken!;
      expect(deviceToken).toEqual(expect.any(String));
      clock.advance(24 * 60 * MINUTE);

      const start = clock.now().getTime();
      const known: number[] = [];
      const fresh: number[] = [];
      let freshRetryAt = start;
      const guesses = { checked: 0, refused: 0 };
      let next = 0;
      const guess = async () => {
        const answer = await signIn(target, guesserAddress(next++ % addresses), { username: email, password: `guess-${next}` });
        if (answer.status === 401) guesses.checked += 1;
        else if (answer.status === 429) guesses.refused += 1;
        else throw new Error(`unexpected answer to a guess: ${answer.status}`);
        clock.advance(500);
      };
      for (let minute = 0; minute < 120; minute++) {
        // Two guesses a second, each address in turn: twelve times what the account's bucket lets through.
        for (let step = 0; step < 17; step++) await guess();
        const fromDevice = await signIn(target, '192.0.2.10', { username: email, password: TEST_PASSWORD, deviceToken });
        known.push(fromDevice.status);
        if (fromDevice.status === 200) deviceToken = fromDevice.body.deviceToken!;
        if (clock.now().getTime() >= freshRetryAt) {
          const answer = await signIn(target, '198.51.100.77', { username: email, password: TEST_PASSWORD });
          if (answer.status === 200) fresh.push(clock.now().getTime() - start);
          else freshRetryAt = clock.now().getTime() + Number(answer.retryAfter) * 1000;
        }
        for (let step = 17; step < 120; step++) await guess();
      }
      expect(known).toEqual(Array(120).fill(200));
      for (let quarter = 0; quarter < 8; quarter++) {
        const inQuarter = fresh.filter((at) => at >= quarter * 15 * MINUTE && at < (quarter + 1) * 15 * MINUTE);
        expect(
          inQuarter.length,
          `new device, minutes ${quarter * 15}–${quarter * 15 + 15} (in at ${fresh.map((at) => Math.floor(at / MINUTE))})`,
        ).toBeGreaterThan(0);
      }
      // The guessing was really there, and bounded: about 10 checks a minute, the rest refused.
      expect(guesses.checked).toBeGreaterThan(100);
      expect(guesses.checked).toBeLessThanOrEqual(120 * 10 + 10 + 5 * fresh.length);
      expect(guesses.refused).toBeGreaterThan(120 * 100);
    }, 600_000);
  }
});

describe('the known-device lane', () => {
  it('counts only for the username it was issued for, and five failures with it close it for the window', async () => {
    const target = await server();
    const clock = target.clock as ManualClock;
    const owner = await target.createAccount(['CSM']);
    const other = await target.createAccount(['CSM']);
    const { deviceToken } = (await signIn(target, '192.0.2.10', { username: owner.email, password: TEST_PASSWORD })).body;
    // Guessers hold both accounts: five failures each, then from many addresses the bucket is spent.
    for (const account of [owner, other]) {
      for (let i = 0; i < 30; i++) await signIn(target, `203.0.113.${i}`, { username: account.email, password: `guess-${i}` });
    }
    const refused = await signIn(target, '192.0.2.10', { username: owner.email, password: TEST_PASSWORD });
    expect(refused.status).toBe(429);
    expect(refused.body.errorMsg).toBe(MESSAGES.tooManyAttempts);
    // The owner's device token for the other account is no device token at all.
    expect((await signIn(target, '192.0.2.10', { username: other.email, password: TEST_PASSWORD, deviceToken: deviceToken! })).status).toBe(429);
    // A token copied off the device gets five guesses in the window, not more; the device is then as any other.
    for (let i = 0; i < 5; i++)
      expect((await signIn(target, '192.0.2.66', { username: owner.email, password: `stolen-${i}`, deviceToken: deviceToken! })).status).toBe(401);
    expect((await signIn(target, '192.0.2.10', { username: owner.email, password: TEST_PASSWORD, deviceToken: deviceToken! })).status).toBe(429);
    // Past the window the device lane opens again; a forged or foreign token is ignored, never an error.
    clock.advance(15 * MINUTE + 1);
    for (let i = 0; i < 30; i++) await signIn(target, `203.0.114.${i}`, { username: owner.email, password: `again-${i}` });
    expect((await signIn(target, '192.0.2.10', { username: owner.email, password: TEST_PASSWORD, deviceToken: 'not.a.token' })).status).toBe(429);
    const back = await signIn(target, '192.0.2.10', { username: owner.email, password: TEST_PASSWORD, deviceToken: deviceToken! });
    expect(back.status).toBe(200);
    expect(back.body.deviceToken).toEqual(expect.any(String));
  });
});
