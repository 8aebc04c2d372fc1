import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, describe, expect, it, inject } from 'vitest';
import { startWebHost, type WebHost } from '../../src-main/hosts/web';
import { until } from '../helpers/until';

/** The browser version's demo seeds the app-user population in the background: start and page never wait. */

const work = mkdtempSync(join(tmpdir(), 'bo-web-demo-'));
const rendererDir = join(work, 'renderer');
mkdirSync(rendererDir, { recursive: true });
writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><html><head><title>t</title></head><body></body></html>');
afterAll(() => rmSync(work, { recursive: true, force: true }));
// The migrated cluster `npm run web` starts from too (scripts/build-pglite-template.ts): no initdb and migrations per test.
const templateDir = inject('pgliteTemplateDir');

async function count(host: WebHost, table: 'app_users' | 'audiences' | 'audience_groups'): Promise<number> {
  const result = (await host.embedded!.database.db.execute(sql.raw(`SELECT count(*)::int AS n FROM ${table}`))) as unknown as {
    rows: { n: number }[];
  };
  return result.rows[0].n;
}

async function appInfo(host: WebHost): Promise<{ ok: boolean }> {
  const page = await fetch(`${host.url}/login`);
  const secret = /backoffice-web-secret" content="([^"]+)"/.exec(await page.text())![1];
  const info = await fetch(`${host.url}/__ipc/app:info`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-backoffice-secret': secret, origin: host.url },
    body: JSON.stringify({}),
  });
  return info.json();
}

// Each test boots an embedded PGlite and writes a population on it: long on a loaded machine.
describe('web host demo population', { timeout: 240_000 }, () => {
  it('starts without waiting for the full demo population, which is then written while the page works', async () => {
    const folder = join(work, 'full');
    const host = await startWebHost({
      port: 0,
      rendererDir,
      dataDir: join(folder, 'pglite'),
      templateDir,
      settingsFile: join(folder, 'settings.json'),
      logger: pino({ level: 'silent' }),
    });
    try {
      // Sample audiences come last, after 20,000 users and 200,000 events: the start did not wait for them.
      expect(await count(host, 'audiences')).toBe(0);
      expect(await until(async () => (await count(host, 'app_users')) > 0, { timeoutMs: 120_000, intervalMs: 200 })).toBe(true);
      expect(await appInfo(host)).toMatchObject({ ok: true });
    } finally {
      // Closing stops the seeding between two batches (a next start completes it).
      await host.close();
    }
  });

  it('a small population for tests: users, the named audiences and the three groups', async () => {
    const folder = join(work, 'small');
    const host = await startWebHost({
      port: 0,
      rendererDir,
      dataDir: join(folder, 'pglite'),
      templateDir,
      settingsFile: join(folder, 'settings.json'),
      demoPopulation: { users: 300, events: 3_000 },
      logger: pino({ level: 'silent' }),
    });
    try {
      expect(await until(async () => (await count(host, 'audiences')) > 0, { timeoutMs: 180_000, intervalMs: 200 })).toBe(true);
      expect(await count(host, 'app_users')).toBe(300);
      expect(await count(host, 'audiences')).toBe(12);
      expect(await count(host, 'audience_groups')).toBe(3);
    } finally {
      await host.close();
    }
  });

  it('without the demo, no population', async () => {
    const folder = join(work, 'none');
    const host = await startWebHost({
      port: 0,
      rendererDir,
      dataDir: join(folder, 'pglite'),
      templateDir,
      settingsFile: join(folder, 'settings.json'),
      demo: false,
      logger: pino({ level: 'silent' }),
    });
    try {
      // No waiting for something that must not happen: the server was started without the background seeding
      // (the only writer of the population, which the test above sees start), and nothing is there.
      expect(host.embedded!.app.context.config.seedAudienceDemo).toBeUndefined();
      expect(await count(host, 'app_users')).toBe(0);
      expect(await count(host, 'audiences')).toBe(0);
    } finally {
      await host.close();
    }
  });
});
