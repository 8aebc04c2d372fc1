import pino from 'pino';
import { sql } from 'drizzle-orm';
import { toBase64 } from '@shared/rules/laboratory';
import { buildApp } from '../../src-server/app';
import { hashPassword } from '../../src-server/auth/passwords';
import { openDatabase, type DatabaseHandle } from '../../src-server/db/client';
import { accounts } from '../../src-server/db/schema';
import { keptBenchDatabase } from '../databases';
import { ms, summarize, table } from '../stats';

const PASSWORD = 'bench password 2026';
const MEMBERS = 100_000;
const ROUNDS = 200;

/** A panel of `members` rows with 5 criteria and an e-mail half of which name app users. */
function panelCsv(members: number): string {
  const lines = ['NAME;SURNAME;GENDER;CRIT_01;CRIT_02;CRIT_03;CRIT_04;CRIT_05;EMAIL'];
  for (let i = 0; i < members; i += 1) {
    lines.push(
      `Nom${i};Prénom${i};${i % 2 ? 'M' : 'F'};${['fort', 'moyen', 'faible'][i % 3]};R${i % 13};${i % 7};${i % 11};${i % 2 ? 'oui' : 'non'};user${i % 2 ? i : -i}@bench.local`,
    );
  }
  return lines.join('\r\n');
}

const QUERIES: { label: string; query: string; params?: object }[] = [
  { label: "CRIT_01 = 'fort'", query: "CRIT_01 = 'fort'" },
  { label: 'GENDER = :g and CRIT_02 in (:regions)', query: 'GENDER = :g and CRIT_02 in (:regions)', params: { g: 'F', regions: ['R1', 'R2', 'R3'] } },
  { label: "not (CRIT_03 = 6 or CRIT_05 = 'non') and CRIT_04 != 3", query: "not (CRIT_03 = 6 or CRIT_05 = 'non') and CRIT_04 != 3" },
  { label: 'profession = 3 (matched app users)', query: 'profession = 3' },
];

async function measure(handle: DatabaseHandle, kind: string) {
  const app = await buildApp({ db: handle.db, dbKind: handle.kind, logger: pino({ level: 'silent' }) });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  try {
    await handle.db.execute(sql`TRUNCATE lab_projects, lab_panel_members, lab_tags, lab_project_accounts RESTART IDENTITY`);
    await handle.db.execute(sql`DELETE FROM app_users WHERE external_id LIKE 'bench-lab-%'`);
    await handle.db.execute(sql`INSERT INTO app_users (external_id, email, profession_id, specialty_id)
      SELECT 'bench-lab-' || i, 'user' || i || '@bench.local', 2 + (i % 4), 26 FROM generate_series(1, ${MEMBERS}, 2) AS i`);
    const email = `sales-${Date.now()}@bench.local`;
    await handle.db.insert(accounts).values({ name: 'Sales', email, roles: ['SALES'], passwordHash: await hashPassword(PASSWORD) });
    const signIn = await fetch(`${base}/authenticate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: email, password: PASSWORD }),
    });
    const token = ((await signIn.json()) as { accessToken: { value: string } }).accessToken.value;
    const form = new FormData();
    form.append('projectName', 'Bench panel');
    form.append('file', new Blob([panelCsv(MEMBERS)]), 'panel.csv');
    const started = performance.now();
    const created = await fetch(`${base}/alphonse/project`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    const project = (await created.json()) as { id: number; usersCount: number; matchedCount: number };
    const loadMs = performance.now() - started;
    const rows: [string, string][] = [[`panel of ${project.usersCount} rows loaded (${project.matchedCount} matched)`, ms(loadMs)]];
    const results: Record<string, unknown> = { loadMs };
    for (const { label, query, params } of QUERIES) {
      const body = JSON.stringify({ query: toBase64(query), params: toBase64(JSON.stringify(params ?? {})) });
      const samples: number[] = [];
      let count = 0;
      for (let round = 0; round < ROUNDS + 10; round += 1) {
        const t = performance.now();
        const answer = await fetch(`${base}/alphonse/project/${project.id}/tag/count`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body,
        });
        count = ((await answer.json()) as { usersCount: number }).usersCount;
        if (round >= 10) samples.push(performance.now() - t);
      }
      const summary = summarize(samples);
      results[label] = { ...summary, count };
      rows.push([`count ${label} → ${count}: p50 / p95`, `${ms(summary.p50)} / ${ms(summary.p95)}`]);
    }
    table(`Laboratory on ${kind}: POST /alphonse/project/{id}/tag/count over HTTP, ${ROUNDS} calls each (target p95 ≤ 30 ms)`, rows);
    return results;
  } finally {
    await app.close();
  }
}

/** A 100,000-member panel loaded through the multipart call, then tag counts (p95 ≤ 30 ms) on both databases. */
export async function laboratorySection() {
  const results: Record<string, unknown> = {};
  const postgres = await openDatabase({ url: await keptBenchDatabase('bench_laboratory') });
  try {
    results.postgresql = await measure(postgres, 'PostgreSQL');
  } finally {
    await postgres.close();
  }
  const pglite = await openDatabase();
  try {
    results.pglite = await measure(pglite, 'PGlite (in memory)');
  } finally {
    await pglite.close();
  }
  return results;
}
