import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src-main/services/api-client';
import { answersFile, downloadCsvFile, ExportFailedError, type Progress } from '../../src-main/services/csv-export';
import { createSessionVault } from '../../src-main/services/session-vault';
import { startTestServer, TEST_PASSWORD, type TestServer } from '../helpers/server';

/** The targets export through main: the server streams the CSV, main saves the bytes as they come. */
let server: TestServer;
let api: ApiClient;
let folder: string;
let keyAccount: number;
const ROWS = 12_000;

beforeAll(async () => {
  server = await startTestServer();
  const { id, email } = await server.createAccount(['CSM']);
  keyAccount = id;
  const vault = await createSessionVault({ service: 'test', account: server.url });
  api = new ApiClient({ baseUrl: () => server.url, vault });
  expect((await api.signIn(email, TEST_PASSWORD)).ok).toBe(true);
  const created = await api.call('projects.create', {
    body: { name: 'Export main', clientName: 'Servyer', keyAccount: id, actor: 'Laboratoire', lines: 0 },
  });
  if (!created.ok) throw new Error(created.errorMsg);
  await server.database.db.execute(sql`INSERT INTO targets (project_id, position, action_code, status, status_rank, type)
    SELECT ${created.data.id}, n, 'MAIN-' || n, '2. en ligne', 1, 'post' FROM generate_series(1, ${ROWS}) n`);
  folder = mkdtempSync(join(tmpdir(), 'projects-export-'));
}, 120_000);
afterAll(async () => {
  rmSync(folder, { recursive: true, force: true });
  await server?.close();
});

const input = { body: { filters: { projectName: ['Export main'] }, orderBy: 'id' as const, order: 'ASC' as const } };

describe('targets export through main', () => {
  it('is a file operation, saved as it streams with progress, under the chosen name only at the end', async () => {
    expect(answersFile('targets.export')).toBe(true);
    expect(answersFile('targets.list')).toBe(false);
    const path = join(folder, 'actions.csv');
    const progress: Progress[] = [];
    const { rows } = await downloadCsvFile(
      (id, callInput, signal) => api.open(id, callInput as never, signal),
      { operation: 'targets.export', input },
      path,
      {
        onProgress: (p) => progress.push(p),
      },
    );
    expect(rows).toBe(ROWS);
    const lines = readFileSync(path, 'utf8').trimEnd().split('\r\n');
    expect(lines).toHaveLength(ROWS + 1);
    expect(lines[0].startsWith('\uFEFFprojectName;clientName;advertId;')).toBe(true);
    expect(lines[1].split(';').slice(0, 5)).toEqual(['Export main', 'Servyer', '', '', 'MAIN-1']);
    expect(progress.length).toBeGreaterThan(1);
    expect(progress.at(-1)).toEqual({ done: ROWS, total: ROWS });
  }, 120_000);

  it('counts rows, not line breaks: a cell holding one is one row of progress', async () => {
    const created = await api.call('projects.create', {
      body: { name: 'Export lignes', clientName: 'Servyer', keyAccount, actor: 'Laboratoire', lines: 0 },
    });
    if (!created.ok) throw new Error(created.errorMsg);
    const MULTILINE_ROWS = 6_000;
    // Every row has a cell with CRLF, one with a bare LF, and a quote: each row is three lines of the file.
    await server.database.db
      .execute(sql`INSERT INTO targets (project_id, position, action_code, status, status_rank, type, population_sample, population_category)
      SELECT ${created.data.id}, n, 'LINES-' || n, '2. en ligne', 1, 'post', 'Ligne ' || n || E'\r\nsuite "citée"', E'Cardio\nNeuro' FROM generate_series(1, ${MULTILINE_ROWS}) n`);
    const path = join(folder, 'lignes.csv');
    const progress: Progress[] = [];
    const { rows } = await downloadCsvFile(
      (id, callInput, signal) => api.open(id, callInput as never, signal),
      { operation: 'targets.export', input: { body: { filters: { projectName: ['Export lignes'] }, orderBy: 'id', order: 'ASC' } } },
      path,
      { onProgress: (p) => progress.push(p) },
    );
    expect(readFileSync(path, 'utf8').split('\n').length).toBeGreaterThan(3 * MULTILINE_ROWS);
    expect(rows).toBe(MULTILINE_ROWS);
    expect(progress.length).toBeGreaterThan(1);
    expect(progress.every((p) => p.done <= MULTILINE_ROWS)).toBe(true);
    expect(progress.at(-1)).toEqual({ done: MULTILINE_ROWS, total: MULTILINE_ROWS });
    rmSync(path);
  }, 120_000);

  it('refused input and cancellation leave no file', async () => {
    const path = join(folder, 'refused.csv');
    const refused = downloadCsvFile(
      (id, callInput, signal) => api.open(id, callInput as never, signal),
      { operation: 'targets.export', input: { body: { limit: 0 } } },
      path,
    );
    await expect(refused).rejects.toBeInstanceOf(ExportFailedError);
    const controller = new AbortController();
    const cancelled = downloadCsvFile(
      (id, callInput, signal) => api.open(id, callInput as never, signal),
      { operation: 'targets.export', input },
      join(folder, 'cancelled.csv'),
      {
        signal: controller.signal,
        onProgress: () => controller.abort(),
      },
    );
    await expect(cancelled).rejects.toThrow();
    expect(readdirSync(folder).filter((name) => name !== 'actions.csv')).toEqual([]);
    expect(existsSync(path)).toBe(false);
  }, 120_000);
});
