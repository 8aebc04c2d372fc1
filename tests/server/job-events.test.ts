import { connect } from 'node:net';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobEvent } from '@shared/jobs';
import type { Role } from '@shared/roles';
import { buildApp, type App } from '../../src-server/app';
import { openDatabase, type DatabaseHandle } from '../../src-server/db/client';
import { MAX_NOTIFY_BYTES, notifyPayload } from '../../src-server/jobs/events';
import { freshDatabase, throwAwayPostgresDatabase } from '../helpers/database';
import { followJobEvents } from '../helpers/job-stream';

/**
 * Server job events (shared interfaces B): GET /jobs/events streams, to a signed-in caller, the events whose
 * audience names it or one of its roles; on PostgreSQL an event published on one instance reaches the streams
 * of another (LISTEN/NOTIFY). Two instances: their own pools on PostgreSQL, one PGlite otherwise.
 */

const postgres = Boolean(process.env.TEST_DATABASE_URL);
let handles: DatabaseHandle[] = [];
const apps: App[] = [];
const urls: string[] = [];
let dropDatabase: (() => Promise<void>) | undefined;

beforeAll(async () => {
  if (postgres) {
    const database = await throwAwayPostgresDatabase(process.env.TEST_DATABASE_URL!);
    handles = [await openDatabase({ url: database.url }), await openDatabase({ url: database.url })];
    dropDatabase = database.drop;
  } else {
    const handle = await freshDatabase();
    handles = [handle, handle];
  }
  for (const handle of handles) {
    const app = await buildApp({ db: handle.db, dbKind: handle.kind, logger: pino({ level: 'silent' }), jwtSecret: 'same-secret' });
    apps.push(app);
    urls.push(await app.listen({ host: '127.0.0.1', port: 0 }));
  }
});
afterAll(async () => {
  for (const app of apps) await app.close();
  for (const handle of new Set(handles)) await handle.close();
  await dropDatabase?.();
});

let counter = 0;
async function account(roles: Role[]): Promise<{ id: number; token: string }> {
  counter += 1;
  const [{ id }] = (
    (await handles[0].db.execute(
      sql`INSERT INTO accounts (name, email, password_hash, roles) VALUES (${`Job ${counter}`}, ${`job${counter}@x.test`}, 'x', ${`{${roles.join(',')}}`}) RETURNING id`,
    )) as unknown as { rows: { id: number }[] }
  ).rows;
  return { id, token: await tokenOf(id, 86_400_000) };
}

async function tokenOf(accountId: number, lifetimeMs: number): Promise<string> {
  return (await apps[0].context.tokens.signAccess(accountId, `jobs-${accountId}`, new Date(Date.now() + lifetimeMs))).value;
}

const follow = (token: string, url = urls[0]!) => followJobEvents(url, token);

const event = (id: string, progress: Record<string, number> = { done: 1, iterations: 4 }): JobEvent => ({
  kind: 'push-campaign',
  id,
  state: 'running',
  progress,
  at: Date.now(),
});

describe('job events', () => {
  it('refuses a stream without a valid access token', async () => {
    expect((await fetch(`${urls[0]}/jobs/events`)).status).toBe(401);
    expect((await fetch(`${urls[0]}/jobs/events`, { headers: { authorization: 'Bearer nope.nope.nope' } })).status).toBe(401);
  });

  it('streams to the account and roles of the audience only', async () => {
    const lead = await account(['CONTENT_CREATOR_LEAD']);
    const other = await account(['CSM']);
    const admin = await account(['ADMIN']);
    const [leadStream, otherStream, adminStream] = await Promise.all([follow(lead.token), follow(other.token), follow(admin.token)]);
    apps[0].context.jobEvents.publish(event('mine'), { accountId: lead.id });
    apps[0].context.jobEvents.publish(event('leads'), { roles: ['CONTENT_CREATOR_LEAD'] });
    apps[0].context.jobEvents.publish(event('nobody'), {});
    apps[0].context.jobEvents.publish(event('csm'), { roles: ['CSM'] });
    expect((await leadStream.next()).id).toBe('mine');
    expect((await leadStream.next()).id).toBe('leads');
    // Events come in order: the first one the other account gets is the first of its audience.
    expect(await otherStream.next()).toMatchObject({ id: 'csm', kind: 'push-campaign', state: 'running', progress: { done: 1, iterations: 4 } });
    // ADMIN passes every role audience, not an account's own events.
    expect((await adminStream.next()).id).toBe('leads');
    expect((await adminStream.next()).id).toBe('csm');
    for (const stream of [leadStream, otherStream, adminStream]) stream.close();
  });

  it("keeps only each job's newest event while a client does not read, and sends them once it does", async () => {
    const { token } = await account(['CSM']);
    const { hostname, port } = new URL(urls[0]!);
    // A client that asks for the stream, reads until the server says it is connected, then reads nothing more.
    const socket = connect(Number(port), hostname);
    socket.on('error', () => undefined);
    let text = '';
    const connected = new Promise<void>((resolve) => {
      const onData = (chunk: Buffer) => {
        text += chunk.toString('utf8');
        if (!text.includes(': connected')) return;
        socket.off('data', onData);
        socket.pause();
        resolve();
      };
      socket.on('data', onData);
    });
    socket.write(`GET /jobs/events HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${token}\r\n\r\n`);
    await connected;
    const padding = 'x'.repeat(1_000);
    const total = 20_000;
    // 20 MB of events for a client that reads nothing.
    for (let done = 1; done <= total; done += 1) {
      apps[0]!.context.jobEvents.publish({ ...event('flood', { done, iterations: total }), message: padding }, { roles: ['CSM'] });
    }
    apps[0]!.context.jobEvents.publish(event('other-job'), { roles: ['CSM'] });
    // The client reads now: it gets fewer events than were published, and ends on every job's latest state.
    const seen = new Map<string, JobEvent>();
    let received = 0;
    await new Promise<void>((resolve, reject) => {
      socket.on('data', (chunk: Buffer) => {
        text += chunk.toString('utf8');
        let match: RegExpExecArray | null;
        while ((match = /event: job\ndata: (.*)\n\n/.exec(text))) {
          text = text.slice(match.index + match[0].length);
          const parsed = JSON.parse(match[1]!) as JobEvent;
          received += 1;
          seen.set(parsed.id, parsed);
        }
        if (seen.get('flood')?.progress.done === total && seen.has('other-job')) resolve();
      });
      socket.on('error', reject);
      socket.resume();
    });
    socket.destroy();
    expect(received).toBeLessThan(total);
    expect(seen.get('flood')?.progress).toEqual({ done: total, iterations: total });
  });

  it('ends the stream when its access token expires, so that the client comes back with a fresh one', async () => {
    const { id } = await account(['CSM']);
    const stream = await follow(await tokenOf(id, 1_500));
    await stream.ended();
  });

  it('keeps NOTIFY payloads under the PostgreSQL limit: a long message is dropped, never the event', () => {
    const long = { origin: 'o', event: { ...event('long'), message: 'é'.repeat(5_000) }, audience: { accountId: 1 } };
    const payload = notifyPayload(long);
    expect(Buffer.byteLength(payload!)).toBeLessThan(MAX_NOTIFY_BYTES);
    const { message, ...rest } = long.event;
    expect(message).toHaveLength(5_000);
    expect(JSON.parse(payload!).event).toEqual(rest);
    const huge = {
      ...long,
      event: { ...event('huge'), message: undefined, progress: Object.fromEntries([...Array(900).keys()].map((k) => [`k${k}`, k])) },
    };
    expect(notifyPayload(huge)).toBeNull();
  });

  it.skipIf(!postgres)('delivers an event published on one instance to a stream open on another (LISTEN/NOTIFY)', async () => {
    const lead = await account(['CONTENT_CREATOR_LEAD']);
    const other = await account(['CSM']);
    const [onB, otherOnB] = await Promise.all([follow(lead.token, urls[1]), follow(other.token, urls[1])]);
    apps[0].context.jobEvents.publish(event('from-a', { done: 2, iterations: 4 }), { accountId: lead.id });
    apps[0].context.jobEvents.publish(event('csm-from-a'), { roles: ['CSM'] });
    expect(await onB.next()).toMatchObject({ id: 'from-a', progress: { done: 2, iterations: 4 } });
    expect((await otherOnB.next()).id).toBe('csm-from-a');
    onB.close();
    otherOnB.close();
  });

  it.skipIf(!postgres)('sends another instance only the newest state of a job published again before its last one went out', async () => {
    const lead = await account(['CONTENT_CREATOR_LEAD']);
    const onB = await follow(lead.token, urls[1]);
    const total = 2_000;
    // Published in one go: the first goes out at once, the others wait for its statement and only the last is kept.
    for (let done = 1; done <= total; done += 1)
      apps[0].context.jobEvents.publish(event('burst', { done, iterations: total }), { accountId: lead.id });
    apps[0].context.jobEvents.publish(event('after-burst'), { accountId: lead.id });
    const seen: string[] = [];
    for (let next = await onB.next(); next.id !== 'after-burst'; next = await onB.next()) seen.push(`${next.id}:${next.progress.done}`);
    expect(seen).toEqual(['burst:1', `burst:${total}`]);
    onB.close();
  });
});
