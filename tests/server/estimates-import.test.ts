import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@shared/messages';
import { PROJECT_MESSAGES } from '@shared/messages/projects';
import Papa from 'papaparse';
import { seedEstimateDemo } from '../../src-server/features/projects/demo';
import { csvPieces, databaseEstimateSource, ESTIMATE_AMOUNT_MAX } from '../../src-server/features/projects/estimates';
import { rows } from '../../src-server/db/rows';
import { startTestServer, type TestServer } from '../helpers/server';

/** The quote export import (POST /estimates/import) on bad numbers and dates, and on one connection. */

let server: TestServer;
let admin: string;
let reader: string;

beforeAll(async () => {
  server = await startTestServer();
  admin = (await server.signIn(['ADMIN'])).accessToken.value;
  reader = (await server.signIn(['CSM_LEAD'])).accessToken.value;
});
afterAll(() => server?.close());

const HEADER = 'Numéro de devis;Client;Libellé;Quantité;Prix unitaire HT;Date de signature';
const STORED = [
  HEADER,
  'DEV-2026-0042;Laboratoires Sanofa;Post sponsorisé cardio;2;4 500,00;12/01/2026',
  'DEV-2026-0042;Laboratoires Sanofa;Notification push;1;1200;12/01/2026',
].join('\r\n');
const STORED_LINES = [
  { label: 'Post sponsorisé cardio', quantity: 2, unitPrice: 4500 },
  { label: 'Notification push', quantity: 1, unitPrice: 1200 },
];

const importFile = (csv: string, token = admin) => server.request('POST', '/estimates/import', { token, body: { csv } });
const storedQuote = (id: string) => databaseEstimateSource(server.database.db).find(id);
const lineCount = async () => (await rows<{ n: number }>(server.database.db, sql`SELECT count(*)::int AS n FROM estimate_lines`))[0].n;

/** A quote export of `count` lines, 10 lines a quote, quote numbers DEV-<prefix>-n. */
function quoteExport(count: number, prefix: string, label = 'Bannière newsletter'): string {
  const out = [HEADER];
  for (let i = 0; i < count; i += 1) {
    out.push(
      `DEV-${prefix}-${Math.floor(i / 10)};Laboratoire Éthypharm ${i % 7};${label} n°${i % 10};${1 + (i % 3)};${(1000 + (i % 900)).toLocaleString('fr-FR')},50;0${1 + (i % 9)}/0${1 + (i % 9)}/2025`,
    );
  }
  return out.join('\r\n');
}

describe("estimate import: an administrator's job", () => {
  it('lets ADMIN import the quote export and refuses every other role with 403 User not allowed, nothing stored', async () => {
    const file = [HEADER, 'DEV-2026-0777;Biogena;Bannière;1;100;'].join('\n');
    for (const roles of [['CSM'], ['CSM_LEAD'], ['SALES'], ['CONTENT_CREATOR'], ['CONTENT_CREATOR_LEAD'], ['CSM', 'CSM_LEAD']] as const) {
      const token = (await server.signIn([...roles])).accessToken.value;
      const refused = await importFile(file, token);
      expect([refused.status, refused.body], roles.join('+')).toEqual([403, { errorMsg: MESSAGES.userNotAllowed }]);
    }
    expect(await storedQuote('DEV-2026-0777')).toBeNull();
    expect((await importFile(file)).body).toEqual({ quotes: 1, lines: 1 });
    expect((await storedQuote('DEV-2026-0777'))?.lines).toEqual([{ label: 'Bannière', quantity: 1, unitPrice: 100 }]);
    // An administrator holding another role as well imports too.
    expect((await importFile(file, (await server.signIn(['SALES', 'ADMIN'])).accessToken.value)).status).toBe(200);
  });

  it('the demo workspace carries quotes DEV-2026-0001 to 0004, stored once while none is', async () => {
    const fresh = await startTestServer();
    try {
      const source = databaseEstimateSource(fresh.database.db);
      expect(await source.find('DEV-2026-0001')).toBeNull();
      expect(await seedEstimateDemo(fresh.database.db)).toBe(true);
      const quote = await source.find('DEV-2026-0001');
      expect([quote?.clientName, quote?.lines.length, quote?.signedAt]).toEqual(['Laboratoires Sanofa', 3, Date.UTC(2026, 0, 12) / 1000]);
      for (const id of ['DEV-2026-0002', 'DEV-2026-0003', 'DEV-2026-0004']) expect((await source.find(id))?.lines.length, id).toBeGreaterThan(0);
      // A quote resolves into a project as any imported one.
      const { userId, accessToken } = await fresh.signIn(['CSM']);
      const project = await fresh.request('GET', `/project/estimate/DEV-2026-0002?name=Oncologie&actor=Laboratoire&keyAccount=${userId}`, {
        token: accessToken.value,
      });
      expect([project.status, project.body.clientName, project.body.targets.length]).toEqual([200, 'Pfizar France', 2]);
      // Once: a second start keeps what an administrator imported since.
      expect(await seedEstimateDemo(fresh.database.db)).toBe(false);
    } finally {
      await fresh.close();
    }
  });
});

describe('estimate import: numbers past the columns and dates that do not exist', () => {
  it('answers a French 400 naming the line and column, never a 500, and keeps the quotes already stored', async () => {
    expect((await importFile(STORED)).body).toEqual({ quotes: 1, lines: 2 });
    const before = await lineCount();
    const max = ESTIMATE_AMOUNT_MAX;
    // Each file would replace DEV-2026-0042's lines with a good line, then fails on its third line.
    const cases: [string, string][] = [
      [
        'DEV-2026-0042;Laboratoires Sanofa;Post;1e20;100;',
        PROJECT_MESSAGES.estimateRowInvalid(3, 'Quantité', PROJECT_MESSAGES.estimateNumberTooLarge(max)),
      ],
      [
        'DEV-2026-0042;Laboratoires Sanofa;Post;1;1e13;',
        PROJECT_MESSAGES.estimateRowInvalid(3, 'Prix unitaire HT', PROJECT_MESSAGES.estimateNumberTooLarge(max)),
      ],
      [
        'DEV-2026-0042;Laboratoires Sanofa;Post;-1e13;1;',
        PROJECT_MESSAGES.estimateRowInvalid(3, 'Quantité', PROJECT_MESSAGES.estimateNumberTooLarge(max)),
      ],
      // Rounded to cents, 999 999 999 999,999 is 1 000 000 000 000,00: past numeric(14, 2).
      [
        'DEV-2026-0042;Laboratoires Sanofa;Post;1;999999999999,999;',
        PROJECT_MESSAGES.estimateRowInvalid(3, 'Prix unitaire HT', PROJECT_MESSAGES.estimateNumberTooLarge(max)),
      ],
      // Each fits, their product (the target's revenue) does not.
      [
        'DEV-2026-0042;Laboratoires Sanofa;Post;1000000;10000000;',
        PROJECT_MESSAGES.estimateRowInvalid(3, 'Quantité × Prix unitaire HT', PROJECT_MESSAGES.estimateLineTotalTooLarge(max)),
      ],
      [
        'DEV-2026-0042;Laboratoires Sanofa;Post;1;100;99/99/9999',
        PROJECT_MESSAGES.estimateRowInvalid(3, 'Date de signature', PROJECT_MESSAGES.estimateDateInvalid),
      ],
      [
        'DEV-2026-0042;Laboratoires Sanofa;Post;1;100;31/02/2026',
        PROJECT_MESSAGES.estimateRowInvalid(3, 'Date de signature', PROJECT_MESSAGES.estimateDateInvalid),
      ],
      [
        'DEV-2026-0042;Laboratoires Sanofa;Post;1;100;2026-13-01',
        PROJECT_MESSAGES.estimateRowInvalid(3, 'Date de signature', PROJECT_MESSAGES.estimateDateInvalid),
      ],
      [
        'DEV-2026-0042;Laboratoires Sanofa;Post;1;100;01/01/9999',
        PROJECT_MESSAGES.estimateRowInvalid(3, 'Date de signature', PROJECT_MESSAGES.estimateDateOutOfRange(1970, 2099)),
      ],
      [
        'DEV-2026-0042;Laboratoires Sanofa;Post;deux;100;',
        PROJECT_MESSAGES.estimateRowInvalid(3, 'Quantité', PROJECT_MESSAGES.estimateNumberExpected),
      ],
      [
        'DEV-2026-0042;Laboratoires Sanofa;Post;0x10;100;',
        PROJECT_MESSAGES.estimateRowInvalid(3, 'Quantité', PROJECT_MESSAGES.estimateNumberExpected),
      ],
    ];
    for (const [row, message] of cases) {
      const response = await importFile([HEADER, 'DEV-2026-0042;Laboratoires Sanofa;Remplaçante;1;10;01/02/2026', row].join('\n'));
      expect([response.status, response.body.errorMsg], row).toEqual([400, message]);
      expect(message).toMatch(/^Fichier de devis invalide \(ligne 3\) — /);
    }
    // The column is named as the file names it.
    const english = await importFile(['quote_number,client,label,quantity,unit_price,signed_date', 'DEV-9,X,Post,1e20,1,'].join('\n'));
    expect([english.status, english.body.errorMsg]).toEqual([
      400,
      PROJECT_MESSAGES.estimateRowInvalid(2, 'quantity', PROJECT_MESSAGES.estimateNumberTooLarge(max)),
    ]);

    // Nothing written by the refused files: the stored quote keeps its lines, no line was left behind.
    expect((await storedQuote('DEV-2026-0042'))?.lines).toEqual(STORED_LINES);
    expect(await lineCount()).toBe(before);
    // The largest amounts the columns hold are taken, and a project is created from them (no overflow there either).
    const largest = [
      HEADER,
      'DEV-2026-0099;Biogena;Forfait;1;999 999 999 999,99;29/02/2024',
      'DEV-2026-0099;Biogena;Avoir;-1;999999999999.99;2024-02-29',
    ].join('\n');
    expect((await importFile(largest)).body).toEqual({ quotes: 1, lines: 2 });
    const { userId: keyAccount, accessToken } = await server.signIn(['CSM']);
    const project = await server.request('GET', `/project/estimate/DEV-2026-0099?name=Forfait&actor=DM&keyAccount=${keyAccount}`, {
      token: accessToken.value,
    });
    expect(project.status).toBe(200);
    expect(project.body.targets.map((target: { revenue: number }) => target.revenue)).toEqual([999_999_999_999.99, -999_999_999_999.99]);
    expect(project.body.targets[0].initialQuotationDate).toBe(Date.UTC(2024, 1, 29) / 1000);
  });

  it('a re-import replaces the quote lines and leaves no replaced line behind', async () => {
    const file = quoteExport(4500, 'R');
    expect((await importFile(file)).body).toEqual({ quotes: 450, lines: 4500 });
    const before = await lineCount();
    expect((await importFile(quoteExport(4500, 'R', 'Vidéo pré-roll'))).body).toEqual({ quotes: 450, lines: 4500 });
    expect(await lineCount()).toBe(before);
    expect((await storedQuote('DEV-R-7'))?.lines.map((line) => line.label)).toEqual(Array.from({ length: 10 }, (_, i) => `Vidéo pré-roll n°${i}`));
  });

  it('two imports of the same quotes at once: each quote ends with the lines of one file, never a mix', async () => {
    const [first, second] = await Promise.all([importFile(quoteExport(6000, 'C', 'Premier')), importFile(quoteExport(6000, 'C', 'Second'))]);
    expect([first.status, second.status]).toEqual([200, 200]);
    const labels = await rows<{ label: string; n: number }>(
      server.database.db,
      sql`SELECT split_part(l.label, ' ', 1) AS label, count(*)::int AS n FROM estimate_lines l JOIN estimate_quotes q ON q.id = l.quote_id
          WHERE q.id LIKE 'DEV-C-%' AND l.import_id IS NOT DISTINCT FROM q.import_id GROUP BY 1`,
    );
    expect(labels).toHaveLength(1);
    expect(labels[0].n).toBe(6000);
    // The other file's lines are gone.
    expect(
      (await rows<{ n: number }>(server.database.db, sql`SELECT count(*)::int AS n FROM estimate_lines WHERE quote_id LIKE 'DEV-C-%'`))[0].n,
    ).toBe(6000);
  });
});

describe('estimate import: the file read in pieces', () => {
  it('cuts at line ends outside quoted fields, so each piece parses to the rows of the whole', () => {
    const text = [
      HEADER,
      'DEV-1;"Client; ""A""";"Libellé\nsur deux lignes";1;2;',
      'DEV-1;B;"x\r\n\r\ny";1;2;',
      ...Array.from({ length: 40 }, (_, i) => `DEV-${i};C;"l""${i}""\n";1;2;`),
    ].join('\r\n');
    const whole = Papa.parse<string[]>(text, { skipEmptyLines: 'greedy' }).data;
    for (const size of [1, 7, 30, 100, text.length]) {
      const pieces = [...csvPieces(text, size)];
      expect(pieces.join('')).toBe(text);
      expect(pieces.flatMap((piece) => Papa.parse<string[]>(piece, { skipEmptyLines: 'greedy', delimiter: ';', newline: '\r\n' }).data)).toEqual(
        whole,
      );
    }
  });
});

describe('estimate import on a single connection (PGlite)', () => {
  it('answers GET /meta from another account while a large file is imported, not after', async () => {
    const lines = 25_000;
    const csv = quoteExport(lines, 'BIG');
    let importing = true;
    const started = performance.now();
    const answer = importFile(csv).finally(() => (importing = false));
    // One caller in a loop, as long as the import runs: each call's time and whether it was answered before the import.
    const calls: { ms: number; beforeImportAnswered: boolean }[] = [];
    while (importing) {
      const start = performance.now();
      const meta = await server.request('GET', '/meta', { token: reader });
      expect(meta.status).toBe(200);
      calls.push({ ms: performance.now() - start, beforeImportAnswered: importing });
    }
    const response = await answer;
    const importMs = performance.now() - started;
    expect(response.body).toEqual({ quotes: lines / 10, lines });
    // A single long transaction held every /meta until its end (at most one or two answered before, one waiting
    // about the whole import). Generous bounds for a loaded machine: several answered meanwhile, none waited half.
    const answeredDuring = calls.filter((call) => call.beforeImportAnswered);
    expect(answeredDuring.length, `${calls.length} /meta calls in ${importMs.toFixed(0)} ms`).toBeGreaterThanOrEqual(5);
    const longest = Math.max(...calls.map((call) => call.ms));
    expect(longest, `longest /meta ${longest.toFixed(0)} ms during an import of ${importMs.toFixed(0)} ms`).toBeLessThan(importMs / 2);
    expect((await storedQuote('DEV-BIG-2499'))?.lines).toHaveLength(10);
  }, 180_000);
});
