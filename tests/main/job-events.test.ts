import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobEvent } from '@shared/jobs';
import { startWebHost, type WebHost } from '../../src-main/hosts/web';
import { ApiClient } from '../../src-main/services/api-client';
import { JobEventsFollower } from '../../src-main/services/job-events';
import { createSessionVault } from '../../src-main/services/session-vault';
import { buildApp, type App } from '../../src-server/app';
import { startTestServer, TEST_PASSWORD, type TestServer } from '../helpers/server';

/**
 * Job events from the server to the page: main's follower (GET /jobs/events with the session's token) relays
 * them as the IPC event 'job-event'; the web host sends them down the event stream of that browser's pages.
 */

let api: TestServer;
let host: WebHost;
const work = mkdtempSync(join(tmpdir(), 'bo-jobs-'));

beforeAll(async () => {
  api = await startTestServer();
  const rendererDir = join(work, 'renderer');
  mkdirSync(rendererDir, { recursive: true });
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><html><head><title>t</title></head><body></body></html>');
  host = await startWebHost({ port: 0, rendererDir, apiUrl: api.url, settingsFile: join(work, 'settings.json'), logger: pino({ level: 'silent' }) });
});
afterAll(async () => {
  await host?.close();
  await api?.close();
  rmSync(work, { recursive: true, force: true });
});

const event = (id: string, done: number): JobEvent => ({
  kind: 'push-campaign',
  id,
  state: 'running',
  progress: { done, iterations: 4 },
  at: Date.now(),
});

/** A browser of the web host: its session cookie, and the page's event stream. */
class Browser {
  cookie = '';
  private buffer = '';
  private reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
  private readonly controller = new AbortController();

  async signIn(email: string): Promise<void> {
    const response = await fetch(`${host.url}/__ipc/session:signIn`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-backoffice-secret': host.secret, origin: host.url },
      body: JSON.stringify({ payload: { username: email, password: TEST_PASSWORD } }),
    });
    expect(response.status).toBe(200);
    this.cookie = response.headers.get('set-cookie')!.split(';')[0]!;
  }

  async openPage(): Promise<void> {
    const response = await fetch(`${host.url}/__events?secret=${host.secret}`, { headers: { cookie: this.cookie }, signal: this.controller.signal });
    this.reader = response.body!.getReader();
  }

  /** The next 'job-event' the page receives. */
  async nextJobEvent(): Promise<JobEvent> {
    const decoder = new TextDecoder();
    for (;;) {
      const match = /event: job-event\ndata: (.*)\n\n/.exec(this.buffer);
      if (match) {
        this.buffer = this.buffer.slice(match.index + match[0].length);
        return JSON.parse(match[1]!) as JobEvent;
      }
      const { value, done } = await this.reader!.read();
      if (done) throw new Error('event stream ended');
      this.buffer += decoder.decode(value, { stream: true });
    }
  }

  close(): void {
    this.controller.abort();
  }
}

/** Publishes `make()` every 100 ms until `arrived` settles: the follower connects in the background after sign-in. */
async function publishUntil<T>(publish: () => void, arrived: Promise<T>): Promise<T> {
  let settled = false;
  const timer = setInterval(() => !settled && publish(), 100);
  publish();
  try {
    return await arrived;
  } finally {
    settled = true;
    clearInterval(timer);
  }
}

describe('job events through main', () => {
  it("relays a job's events to the pages of the browser whose account may see them, not to another account's", async () => {
    const lead = await api.createAccount(['CONTENT_CREATOR_LEAD']);
    const csm = await api.createAccount(['CSM']);
    const [leadBrowser, csmBrowser] = [new Browser(), new Browser()];
    await leadBrowser.signIn(lead.email);
    await csmBrowser.signIn(csm.email);
    await leadBrowser.openPage();
    await csmBrowser.openPage();
    const jobs = api.app.context.jobEvents;
    const first = await publishUntil(() => jobs.publish(event('campaign-1', 1), { accountId: lead.id }), leadBrowser.nextJobEvent());
    expect(first).toMatchObject({ kind: 'push-campaign', id: 'campaign-1', state: 'running', progress: { done: 1, iterations: 4 } });
    // The CSM's follower is connected once an event of its own arrives; the lead's events never came before it.
    const csmFirst = await publishUntil(() => jobs.publish(event('csm-job', 1), { roles: ['CSM'] }), csmBrowser.nextJobEvent());
    expect(csmFirst.id).toBe('csm-job');
    jobs.publish(event('campaign-1', 2), { accountId: lead.id });
    jobs.publish(event('csm-job', 2), { roles: ['CSM'] });
    let next = await leadBrowser.nextJobEvent();
    while (next.id === 'campaign-1' && next.progress.done === 1) next = await leadBrowser.nextJobEvent();
    expect(next).toMatchObject({ id: 'campaign-1', progress: { done: 2 } });
    let csmNext = await csmBrowser.nextJobEvent();
    while (csmNext.progress.done === 1) csmNext = await csmBrowser.nextJobEvent();
    expect(csmNext).toMatchObject({ id: 'csm-job', progress: { done: 2 } });
    leadBrowser.close();
    csmBrowser.close();
  });

  it('follows again, with backoff, once the server restarts', async () => {
    const server = await startTestServer();
    const { port } = new URL(server.url);
    const { email, id } = await server.createAccount(['CSM']);
    const vault = await createSessionVault({ service: 'test', account: server.url });
    const client = new ApiClient({ baseUrl: () => server.url, vault });
    const received: JobEvent[] = [];
    let notify: () => void = () => undefined;
    const follower = new JobEventsFollower({
      api: client,
      onEvent: (jobEvent) => {
        received.push(jobEvent);
        notify();
      },
      retryMs: 50,
      maxRetryMs: 400,
    });
    const nextEvent = () => new Promise<void>((resolve) => (notify = resolve));
    let restarted: App | null = null;
    try {
      expect(await client.signIn(email, TEST_PASSWORD)).toMatchObject({ ok: true });
      follower.wake();
      await publishUntil(() => server.app.context.jobEvents.publish(event('before', 1), { accountId: id }), nextEvent());
      await server.app.close();
      restarted = await buildApp({ db: server.database.db, dbKind: server.database.kind, clock: server.clock, logger: pino({ level: 'silent' }) });
      await restarted.listen({ host: '127.0.0.1', port: Number(port) });
      const app = restarted;
      await publishUntil(() => app.context.jobEvents.publish(event('after', 2), { accountId: id }), nextEvent());
      expect(received.at(-1)).toMatchObject({ id: 'after', progress: { done: 2 } });
    } finally {
      await follower.close();
      await client.close();
      await restarted?.close();
      await server.database.close();
    }
  });
});
