import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { Pool } from 'undici';
import { contract } from '@shared/contract';
import { buildApp } from '../../src-server/app';
import { hashPassword } from '../../src-server/auth/passwords';
import { openDatabase } from '../../src-server/db/client';
import { accounts } from '../../src-server/db/schema';
import { ms, summarize, table } from '../stats';

const PASSWORD = 'bench password 2026';
const CLIENTS = ['Laboratoires Sanofa', 'Biogena', 'Pharmalys', 'Medicor Santé', 'Laboratoire Éthypharm', 'Novalia'];
const LABELS = [
  'Post sponsorisé cardio',
  'Notification push',
  'Mise en avant outil',
  'Bannière newsletter',
  'Article sponsorisé « diabète »',
  'Vidéo pré-roll',
];

/** The largest file the contract accepts (its csv field's maximum length), in characters. */
function contractMaxChars(): number {
  const body = contract['estimates.importFile'].body as unknown as { shape: { csv: { maxLength: number | null } } };
  return body.shape.csv.maxLength ?? 5_000_000;
}

/**
 * A quote export as the invoicing tool writes it (';', decimal commas, DD/MM/YYYY), about 8 lines a quote, filled
 * up to `chars` characters.
 */
export function quoteExport(chars: number, seed = 0): { csv: string; lines: number; quotes: number } {
  const out = ['Numéro de devis;Client;Libellé;Quantité;Prix unitaire HT;Date de signature'];
  let size = out[0].length;
  let lines = 0;
  let quote = 0;
  for (;;) {
    quote += 1;
    const id = `DEV-${2020 + (quote % 7)}-${String(seed * 1_000_000 + quote).padStart(6, '0')}`;
    const client = CLIENTS[quote % CLIENTS.length];
    const date =
      quote % 5 === 0 ? '' : `${String(1 + (quote % 28)).padStart(2, '0')}/${String(1 + (quote % 12)).padStart(2, '0')}/${2020 + (quote % 7)}`;
    for (let line = 0; line < 1 + (quote % 15); line += 1) {
      const row = `${id};${client};${LABELS[(quote + line) % LABELS.length]} n°${line + 1};${1 + (line % 4)};${(1000 + ((quote * 37 + line * 11) % 9000)).toLocaleString('fr-FR')},${String(quote % 100).padStart(2, '0')};${date}`;
      if (size + 2 + row.length > chars) return { csv: out.join('\r\n'), lines, quotes: quote - (line === 0 ? 1 : 0) };
      out.push(row);
      size += 2 + row.length;
      lines += 1;
    }
  }
}

/**
 * The largest quote export the contract allows imported on the embedded database (PGlite on a
 * data folder, as the desktop app runs it), while another account calls GET /meta in a loop. PGlite has one
 * connection: a long write transaction makes every other call wait. BENCH_ESTIMATES_CHARS sets another size.
 */
export async function estimatesSection() {
  const chars = Number(process.env.BENCH_ESTIMATES_CHARS ?? contractMaxChars());
  const folder = mkdtempSync(join(tmpdir(), 'bench-estimates-'));
  const handle = await openDatabase({ dataDir: join(folder, 'pglite') });
  const app = await buildApp({ db: handle.db, dbKind: handle.kind, logger: pino({ level: 'silent' }) });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const pool = new Pool(base, { connections: 4 });
  try {
    const passwordHash = await hashPassword(PASSWORD);
    await handle.db.insert(accounts).values([
      { name: 'Importer', email: 'importer@bench.local', roles: ['ADMIN'], passwordHash },
      { name: 'Reader', email: 'reader@bench.local', roles: ['CSM'], passwordHash },
    ]);
    const signIn = async (username: string) => {
      const response = await pool.request({
        method: 'POST',
        path: '/authenticate',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username, password: PASSWORD }),
      });
      return ((await response.body.json()) as { accessToken: { value: string } }).accessToken.value;
    };
    const importer = await signIn('importer@bench.local');
    const reader = await signIn('reader@bench.local');
    const meta = async () => {
      const response = await pool.request({ method: 'GET', path: '/meta', headers: { authorization: `Bearer ${reader}` } });
      await response.body.text();
      if (response.statusCode !== 200) throw new Error(`/meta ${response.statusCode}`);
    };
    const idle: number[] = [];
    for (let i = 0; i < 50; i += 1) {
      const start = performance.now();
      await meta();
      idle.push(performance.now() - start);
    }

    const runs: { label: string; ms: number; status: number; answer: string; meta: ReturnType<typeof summarize> }[] = [];
    // First import: every quote new. Second: the same quotes again (each replaces its stored lines).
    const file = quoteExport(chars);
    const body = JSON.stringify({ csv: file.csv });
    for (const label of ['first import (new quotes)', 'same file again (quotes replaced)']) {
      let done = false;
      const started = performance.now();
      const importing = pool
        .request({
          method: 'POST',
          path: '/estimates/import',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${importer}` },
          body,
        })
        .then(async (response) => ({ status: response.statusCode, answer: await response.body.text(), ms: performance.now() - started }))
        .finally(() => (done = true));
      const during: number[] = [];
      while (!done) {
        const start = performance.now();
        await meta();
        during.push(performance.now() - start);
      }
      const result = await importing;
      runs.push({ label, ...result, meta: summarize(during) });
    }
    const idleStats = summarize(idle);
    table(
      `Quote export import on PGlite (data folder): ${(file.csv.length / 1e6).toFixed(2)} M characters, ${file.lines.toLocaleString('fr-FR')} lines, ${file.quotes.toLocaleString('fr-FR')} quotes`,
      [
        ['GET /meta alone (50 calls)', `p50 ${ms(idleStats.p50)}  p95 ${ms(idleStats.p95)}`],
        ...runs.flatMap(({ label, ms: took, status, answer, meta: stats }): [string, string][] => [
          [`${label}: import`, `${(took / 1000).toFixed(2)} s  → ${status} ${answer.slice(0, 80)}`],
          [
            `${label}: GET /meta during it (target p95 ≤ 100 ms)`,
            `p50 ${ms(stats.p50)}  p95 ${ms(stats.p95)}  max ${ms(stats.max)}  (${stats.n} calls)`,
          ],
        ]),
      ],
    );
    return {
      chars: file.csv.length,
      lines: file.lines,
      quotes: file.quotes,
      metaIdle: { p50: idleStats.p50, p95: idleStats.p95 },
      runs: runs.map(({ label, ms: took, status, meta: stats }) => ({
        label,
        importMs: took,
        status,
        metaDuring: { n: stats.n, p50: stats.p50, p95: stats.p95, max: stats.max },
        targetP95: 100,
      })),
    };
  } finally {
    await pool.close();
    await app.close();
    await handle.close();
    rmSync(folder, { recursive: true, force: true });
  }
}
