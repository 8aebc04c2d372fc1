import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src-server/auth/passwords';
import { accounts } from '../../src-server/db/schema';
import { ManualClock } from '../helpers/clock';
import { startTestServer, TEST_PASSWORD, type TestServer } from '../helpers/server';

/**
 * Issue 51 item 8: an owner's sign-in used to clear the account's failure count, and with it the throttle: each of
 * the owner's sign-ins reopened 5 password checks outside the bucket (60 checks admitted in 150 s while the owner
 * signed in 12 times, 24 a minute against the documented 10). Once an account has had failures from several
 * addresses in the window, a success no longer clears them: every check stays in the bucket.
 *
 * Addresses are the socket's (the server trusts no proxy by default), injected: no socket per guesser.
 */
const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function server(): Promise<TestServer> {
  const started = await startTestServer({
    clock: new ManualClock(Date.parse('2026-11-22T09:00:00Z')),
    config: { usernameSlowDownBaseMs: 1, usernameSlowDownMaxMs: 1 },
  });
  servers.push(started);
  return started;
}

async function signIn(target: TestServer, remoteAddress: string, username: string, password: string): Promise<number> {
  const response = await target.app.inject({ method: 'POST', url: '/authenticate', remoteAddress, payload: { username, password } });
  return response.statusCode;
}

describe("the owner's sign-ins do not reopen unthrottled guesses", () => {
  it('20 guessers on 160 addresses for 150 s while the owner signs in 12 times: at most 10 checks a minute past the first', async () => {
    const target = await server();
    const clock = target.clock as ManualClock;
    const { id, email } = await target.createAccount(['CSM']);
    const address = (i: number) => `10.51.${(i % 160) >> 4}.${i % 160}`;
    // A cheaper hash (read from the hash itself): the throttle is under test, not scrypt's cost.
    await target.database.db
      .update(accounts)
      .set({ passwordHash: await hashPassword(TEST_PASSWORD, { N: 1024, r: 8, p: 1 }) })
      .where(eq(accounts.id, id));
    // The guessers have been at it a while: each address has asked already (checked or refused), so none takes the
    // share of the bucket kept for addresses that never did (that share is the owner's on a new device).
    for (let i = 0; i < 160; i++) expect([401, 429]).toContain(await signIn(target, address(i), email, `warm-up-${i}`));
    const start = clock.now().getTime();
    /** When each password check was admitted (a 401 or a 200), in ms since the start. */
    const checks: number[] = [];
    const owner: number[] = [];
    let guess = 0;
    // 4 guesses a second (20 guessers, one every 5 s each), addresses cycled; the owner every 12.5 s from a new
    // device (no device token) on an address of its own.
    for (let step = 0; step < 600; step++) {
      const status = await signIn(target, address(guess), email, `guess-${guess}`);
      guess += 1;
      expect([401, 429]).toContain(status);
      if (status === 401) checks.push(clock.now().getTime() - start);
      if (step % 50 === 25) {
        const answer = await signIn(target, '192.0.2.10', email, TEST_PASSWORD);
        owner.push(answer);
        if (answer === 200) checks.push(clock.now().getTime() - start);
      }
      clock.advance(250);
    }
    const perMinute = [0, 1, 2].map((minute) => checks.filter((at) => at >= minute * 60_000 && at < (minute + 1) * 60_000).length);
    // The owner still gets in every time (the share of the bucket kept for an address with no failure).
    expect(owner).toEqual(Array(12).fill(200));
    // The bucket alone: its refill of 10 a minute (the last 30 s: 5), the owner's checks included; the first minute
    // also has what the warm-up left in the bucket (the share kept for new devices, 3 and a fraction). Before: 32, 34, 15.
    const said = `checks admitted per minute: ${perMinute.join(', ')}`;
    expect(perMinute[0], said).toBeLessThanOrEqual(10 + 4);
    expect(perMinute[1], said).toBeLessThanOrEqual(10);
    expect(perMinute[2], said).toBeLessThanOrEqual(6);
  }, 120_000);

  it('a success still clears the failures of an account that failed from one address only (a typo)', async () => {
    const target = await server();
    const { email } = await target.createAccount(['CSM']);
    for (let i = 0; i < 4; i++) expect(await signIn(target, '192.0.2.10', email, `typo-${i}`)).toBe(401);
    expect(await signIn(target, '192.0.2.10', email, TEST_PASSWORD)).toBe(200);
    // Cleared: 5 checks before the threshold again, then the 10 of the bucket (not 4 + 1, then 10), then 429.
    const answers = [];
    for (let i = 0; i < 16; i++) answers.push(await signIn(target, `198.51.100.${i}`, email, `other-${i}`));
    expect(answers).toEqual([...Array(15).fill(401), 429]);
  });
});
