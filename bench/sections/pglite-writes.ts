import { createReadStream, createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { Pool } from 'undici';
import { CSV_ROOT } from '@shared/rules/imports';
import { addMonths, monthKey, monthOf } from '@shared/rules/inventory';
import { buildApp } from '../../src-server/app';
import { hashPassword } from '../../src-server/auth/passwords';
import { openDatabase } from '../../src-server/db/client';
import { accounts } from '../../src-server/db/schema';
import { ms, summarize, table } from '../stats';

const PASSWORD = 'bench password 2026';
/**
 * Sizes: the panel (300,000 members) and the batch (10,000 users) are the issue's; the list (200,000 rows, not
 * 1,000,000) and the inventory file (4 MB, not 20) are smaller so that the section runs in a few minutes on a
 * 2-core machine, the old one-transaction code included (a minute of stall for the list already).
 */
const LIST_ROWS = Number(process.env.BENCH_PGLITE_LIST_ROWS ?? 200_000);
const INVENTORY_CATEGORIES = Number(process.env.BENCH_PGLITE_INVENTORY_CATEGORIES ?? 20_000);
const PANEL_MEMBERS = Number(process.env.BENCH_PGLITE_PANEL_MEMBERS ?? 300_000);
const POPULATION_BATCH = Number(process.env.BENCH_PGLITE_POPULATION_BATCH ?? 10_000);

async function writeList(path: string, rows: number): Promise<void> {
  const out = createWriteStream(path);
  let chunk = 'ID;E-mail;Nom;Profession;Spécialité;Langue;Code postal\r\n';
  for (let n = 1; n <= rows; n += 1) {
    chunk += `list-${n};user${n}@bench-list.test;Dr Liste ${n};${2 + (n % 10)};${1 + (n % 40)};french;${String(1000 + (n % 95_000)).padStart(5, '0')}\r\n`;
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await once(out, 'finish');
}

/** An inventory file of `categories` specialties (ids from 2001) × 36 months. */
function inventoryCsv(categories: number): string {
  const start = addMonths(monthOf(Date.now()), -12);
  const months = Array.from({ length: 36 }, (_, i) => monthKey(addMonths(start, i)));
  const lines = [`Profession;Specialty;Nom;${months.join(';')}`];
  for (let i = 1; i <= categories; i += 1) lines.push(`;${2000 + i};Catégorie ${i};${months.map((_, m) => 1000 + ((i * 7 + m) % 5000)).join(';')}`);
  return lines.join('\r\n');
}

function panelCsv(members: number): string {
  const lines = ['NAME;SURNAME;GENDER;CRIT_01;CRIT_02;CRIT_03;EMAIL'];
  for (let i = 0; i < members; i += 1)
    lines.push(`Nom${i};Prénom${i};${i % 2 ? 'M' : 'F'};${['fort', 'moyen', 'faible'][i % 3]};R${i % 13};${i % 7};user${i}@bench-list.test`);
  return lines.join('\r\n');
}

/**
 * GET /meta from another signed-in account (a CSM) in a loop while each long write runs on PGlite (a data folder,
 * as the desktop app runs it): a CSV list import, an inventory import, a laboratory panel load, a population batch.
 * PGlite has one connection: a write held in one long transaction makes every other call wait. Each figure is
 * printed with the 1-minute load average at the end of the write (the machine's other work shows in it).
 * BENCH_PGLITE_LIST_ROWS, BENCH_PGLITE_INVENTORY_CATEGORIES (× 36 months), BENCH_PGLITE_PANEL_MEMBERS and
 * BENCH_PGLITE_POPULATION_BATCH set the sizes.
 */
export async function pgliteWritesSection() {
  const folder = mkdtempSync(join(tmpdir(), 'bench-pglite-writes-'));
  const handle = await openDatabase({ dataDir: join(folder, 'pglite') });
  const app = await buildApp({
    db: handle.db,
    dbKind: handle.kind,
    logger: pino({ level: 'silent' }),
    config: { storage: { kind: 'local', dir: join(folder, 'storage') } },
  });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const pool = new Pool(base, { connections: 6 });
  try {
    const passwordHash = await hashPassword(PASSWORD);
    await handle.db.insert(accounts).values([
      { name: 'Writer', email: 'writer@bench.local', roles: ['ADMIN'], passwordHash },
      { name: 'Reader', email: 'reader@bench.local', roles: ['CSM'], passwordHash },
    ]);
    const call = async (method: string, path: string, token: string, body?: unknown) => {
      const response = await pool.request({
        method: method as 'GET',
        path,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.body.text();
      if (response.statusCode >= 300) throw new Error(`${method} ${path} ${response.statusCode} ${text.slice(0, 200)}`);
      return JSON.parse(text) as unknown;
    };
    const signIn = async (username: string) => {
      const response = await fetch(`${base}/authenticate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username, password: PASSWORD }),
      });
      return ((await response.json()) as { accessToken: { value: string } }).accessToken.value;
    };
    const writer = await signIn('writer@bench.local');
    const reader = await signIn('reader@bench.local');
    const multipart = async (method: string, path: string, fields: Record<string, string>, file: string, name: string) => {
      const form = new FormData();
      for (const [key, value] of Object.entries(fields)) form.append(key, value);
      form.append('file', new Blob([file]), name);
      const response = await fetch(`${base}${path}`, { method, headers: { authorization: `Bearer ${writer}` }, body: form });
      const text = await response.text();
      if (response.status >= 300) throw new Error(`${path} ${response.status} ${text.slice(0, 200)}`);
    };
    /** /meta in a loop while `write` runs; the write's time, /meta's figures, the load average at its end. */
    const during = async (write: () => Promise<unknown>) => {
      let done = false;
      const started = performance.now();
      const writing = write().finally(() => (done = true));
      const samples: number[] = [];
      while (!done) {
        const t = performance.now();
        await call('GET', '/meta', reader);
        samples.push(performance.now() - t);
      }
      await writing;
      return { writeMs: performance.now() - started, meta: summarize(samples), load: loadavg()[0] };
    };

    const idle: number[] = [];
    for (let i = 0; i < 50; i += 1) {
      const t = performance.now();
      await call('GET', '/meta', reader);
      idle.push(performance.now() - t);
    }

    const list = join(folder, 'liste.csv');
    await writeList(list, LIST_ROWS);
    await app.context.storage.put(`${CSV_ROOT}/liste.csv`, createReadStream(list), 'text/csv');
    const mapping = ['externalId', 'email', 'name', 'profession', 'specialty', 'area', 'zipcode'].map((field, index) => ({
      header: ['ID', 'E-mail', 'Nom', 'Profession', 'Spécialité', 'Langue', 'Code postal'][index],
      field,
    }));
    const inventory = inventoryCsv(INVENTORY_CATEGORIES);
    const panel = panelCsv(PANEL_MEMBERS);
    const users = Array.from({ length: POPULATION_BATCH }, (_, n) => ({
      externalId: `batch-${n}`,
      email: `batch${n}@exemple.fr`,
      professionId: 2 + (n % 8),
      specialtyId: 1 + (n % 50),
      area: 'french',
      roles: n % 3 ? [] : ['ROLE_EXPERT'],
      feeds: [['Cardiologie', 'Pneumologie', 'Oncologie'][n % 3]],
    }));

    const writes: { label: string; write: () => Promise<unknown> }[] = [
      {
        label: `CSV list import, ${LIST_ROWS.toLocaleString('fr-FR')} new users`,
        write: async () => {
          let job = (await call('POST', '/csv/import', writer, { filename: 'liste.csv', mapping })) as { id: number; state: string; message: string };
          while (job.state === 'running') {
            await new Promise((resolve) => setTimeout(resolve, 250));
            job = (await call('GET', `/csv/import/${job.id}`, writer)) as typeof job;
          }
          if (job.state !== 'done') throw new Error(`CSV import ${job.state}: ${job.message}`);
        },
      },
      {
        label: `inventory import, ${INVENTORY_CATEGORIES.toLocaleString('fr-FR')} categories × 36 months (${(inventory.length / 1e6).toFixed(1)} MB)`,
        write: () => multipart('PUT', '/inventory/upload', {}, inventory, 'inventaire.csv'),
      },
      {
        label: `laboratory panel, ${PANEL_MEMBERS.toLocaleString('fr-FR')} members (${(panel.length / 1e6).toFixed(1)} MB)`,
        write: () => multipart('POST', '/alphonse/project', { projectName: 'Bench panel' }, panel, 'panel.csv'),
      },
      {
        label: `population batch, ${POPULATION_BATCH.toLocaleString('fr-FR')} users (new, then again changed)`,
        write: async () => {
          await call('POST', '/population/users', writer, users);
          await call(
            'POST',
            '/population/users',
            writer,
            users.map((user) => ({ ...user, area: 'english' })),
          );
        },
      },
    ];
    const results = [];
    for (const { label, write } of writes) results.push({ label, ...(await during(write)) });
    const idleStats = summarize(idle);
    table('GET /meta from another account on PGlite during long writes (target p95 ≤ 100 ms)', [
      ['GET /meta alone (50 calls)', `p50 ${ms(idleStats.p50)}  p95 ${ms(idleStats.p95)}  load ${loadavg()[0].toFixed(2)}`],
      ...results.map(({ label, writeMs, meta, load }): [string, string] => [
        label,
        `write ${(writeMs / 1000).toFixed(1)} s; /meta p50 ${ms(meta.p50)}  p95 ${ms(meta.p95)}  max ${ms(meta.max)} (${meta.n} calls); load avg ${load.toFixed(2)}`,
      ]),
    ]);
    return {
      metaIdle: { p50: idleStats.p50, p95: idleStats.p95 },
      writes: results.map(({ label, writeMs, meta, load }) => ({
        label,
        writeMs,
        meta: { n: meta.n, p50: meta.p50, p95: meta.p95, max: meta.max },
        loadAverage: load,
      })),
      targetP95: 100,
    };
  } finally {
    await pool.close();
    await app.close();
    await handle.close();
    rmSync(folder, { recursive: true, force: true });
  }
}
