import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { IMPORT_MESSAGES, MESSAGES } from '@shared/messages';
import type { IpcResult } from '@shared/ipc';
import { CsvImports, PREVIEW_ROWS } from '../../src-main/services/csv-import';
import type { Progress } from '../../src-main/services/csv-export';

const scratch = mkdtempSync(join(tmpdir(), 'bo-import-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A list of `count` e-mails, every 500th blank, in Windows-1252 with accented names (French Excel). */
function writeList(name: string, count: number): string {
  const lines = ['email;nom'];
  for (let i = 1; i <= count; i += 1) lines.push(`${i % 500 === 0 ? '' : `pro${i}@exemple.fr`};Hélène ${i}`);
  const path = join(scratch, name);
  writeFileSync(path, Buffer.from(lines.join('\r\n'), 'latin1'));
  return path;
}

describe('CSV import in chunks', () => {
  it('previews 25 rows and counts the rest without keeping them', async () => {
    const imports = new CsvImports();
    const preview = await imports.preview(writeList('liste.csv', 2500));
    expect(preview.rows).toHaveLength(PREVIEW_ROWS);
    expect(preview.rowCount).toBe(2500);
    expect(preview.columns).toEqual(['email', 'nom']);
    expect(preview.encoding).toBe('windows-1252');
    expect(preview.rows[0]).toEqual({ email: 'pro1@exemple.fr', nom: 'Hélène 1' });
  });

  it('sends one column in chunks, reports blank cells and refused chunks by row, with progress', async () => {
    const imports = new CsvImports();
    const { handle } = await imports.preview(writeList('envoi.csv', 2500));
    const chunks: string[][] = [];
    const progress: Progress[] = [];
    const send = async (values: string[]): Promise<IpcResult<unknown>> => {
      chunks.push(values);
      return chunks.length === 2
        ? { ok: false, status: 400, errorMsg: 'E-mail : adresse e-mail invalide' }
        : { ok: true, data: { added: values.length } };
    };
    const report = await imports.importColumn(handle, { column: 'email', chunkSize: 400 }, send, { onProgress: (step) => progress.push(step) });
    expect(report.rows).toBe(2500);
    expect(chunks.map((chunk) => chunk.length)).toEqual([400, 400, 400, 400, 400, 400, 95]);
    expect(report.sent).toBe(2095);
    expect(report.refused).toBe(400);
    expect(report.errorsTruncated).toBe(false);
    const blank = report.errors.filter((error) => error.message === IMPORT_MESSAGES.blankValue('email'));
    // Rows 500, 1000, ... 2500 are blank; the header is row 1, so their rows are 501, 1001, ...
    expect(blank.map((error) => error.line)).toEqual([501, 1001, 1501, 2001, 2501]);
    const refused = report.errors.filter((error) => error.message === 'E-mail : adresse e-mail invalide');
    expect(refused).toHaveLength(400);
    // The second chunk starts with the 401st value, on row 402.
    expect(refused[0].line).toBe(402);
    expect(progress.at(-1)).toEqual({ done: 2500, total: 2500 });
  });

  it('keeps the first 1,000 row errors and says that more happened', async () => {
    const imports = new CsvImports();
    const path = join(scratch, 'vide.csv');
    writeFileSync(path, ['email;nom', ...Array.from({ length: 1200 }, (_, i) => `;Nom ${i}`)].join('\n'));
    const { handle } = await imports.preview(path);
    const report = await imports.importColumn(handle, { column: 'email' }, async () => ({ ok: true, data: null }));
    expect(report.errors).toHaveLength(1000);
    expect(report.errorsTruncated).toBe(true);
    expect(report.sent).toBe(0);
  });

  it('sends the first chunk before the file is read to its end (back-pressure)', async () => {
    const imports = new CsvImports();
    const { handle } = await imports.preview(writeList('long.csv', 60_000));
    let rowsReadAtFirstSend: number | null = null;
    const progress: Progress[] = [];
    await imports.importColumn(
      handle,
      { column: 'email', chunkSize: 1000 },
      async () => {
        rowsReadAtFirstSend ??= progress.at(-1)?.done ?? 0;
        return { ok: true, data: null };
      },
      { onProgress: (step) => progress.push(step) },
    );
    expect(rowsReadAtFirstSend).not.toBeNull();
    expect(rowsReadAtFirstSend!).toBeLessThan(30_000);
    expect(progress.at(-1)?.done).toBe(60_000);
  });

  it('refuses a column the file does not have, a forgotten handle, and stops when cancelled', async () => {
    const imports = new CsvImports();
    const { handle } = await imports.preview(writeList('colonnes.csv', 3000));
    const ok = async (): Promise<IpcResult<unknown>> => ({ ok: true, data: null });
    await expect(imports.importColumn(handle, { column: 'emails' }, ok)).rejects.toThrow(IMPORT_MESSAGES.missingColumn('emails'));
    await expect(imports.importColumn('inconnu', { column: 'email' }, ok)).rejects.toThrow(IMPORT_MESSAGES.fileForgotten);
    const controller = new AbortController();
    let sends = 0;
    const run = imports.importColumn(
      handle,
      { column: 'email', chunkSize: 500 },
      async () => {
        sends += 1;
        if (sends === 2) controller.abort();
        return { ok: true, data: null };
      },
      { signal: controller.signal },
    );
    await expect(run).rejects.toThrow();
    expect(sends).toBe(2);
  });

  it('refuses a file that is not CSV text', async () => {
    const imports = new CsvImports();
    const path = join(scratch, 'binaire.csv');
    writeFileSync(path, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13]));
    await expect(imports.preview(path)).rejects.toThrow(MESSAGES.csvUnreadable);
  });
});

describe('CSV import of whole rows (adverts)', () => {
  it('sends every column of every row in chunks with their first row, with progress to the total', async () => {
    const imports = new CsvImports();
    const { handle } = await imports.preview(writeList('lignes.csv', 2500));
    const sent: { count: number; firstLine: number; first: Record<string, string> }[] = [];
    const progress: Progress[] = [];
    const report = await imports.importRows(
      handle,
      { chunkSize: 1000, maxRows: 5000 },
      async (rows, firstLine) => {
        sent.push({ count: rows.length, firstLine, first: rows[0] });
        return { ok: true, data: { imported: rows.length } };
      },
      { onProgress: (step) => progress.push(step) },
    );
    expect(report.rows).toBe(2500);
    expect(report.refused).toBeNull();
    expect(sent.map(({ count, firstLine }) => [count, firstLine])).toEqual([
      [1000, 2],
      [1000, 1002],
      [500, 2002],
    ]);
    expect(sent[1].first).toEqual({ email: 'pro1001@exemple.fr', nom: 'Hélène 1001' });
    expect(report.answers).toEqual([{ imported: 1000 }, { imported: 1000 }, { imported: 500 }]);
    expect(progress.at(-1)).toEqual({ done: 2500, total: 2500 });
  });

  it('refuses a file longer than the limit before sending anything', async () => {
    const imports = new CsvImports();
    const { handle } = await imports.preview(writeList('long.csv', 120));
    let calls = 0;
    const report = await imports.importRows(handle, { chunkSize: 100, maxRows: 100 }, async () => {
      calls += 1;
      return { ok: true, data: null };
    });
    expect(calls).toBe(0);
    expect(report.refused).toEqual({ line: 0, message: IMPORT_MESSAGES.tooManyRows(100, 120) });
  });
});
