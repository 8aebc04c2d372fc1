import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { IMPORT_MESSAGES, MESSAGES } from '@shared/messages';
import { emailColumn } from '@shared/rules/audience-editor';
import { CsvImports } from '../../src-main/services/csv-import';

/**
 * The audience e-mail list: the file goes through main's CSV import, column "email", in chunks of the
 * 10,000 e-mails attachEmails takes. Real files on disk, the real parser.
 */
const dir = mkdtempSync(join(tmpdir(), 'aud-csv-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/csv/${name}`, import.meta.url));

async function attach(path: string, format?: 'email') {
  const imports = new CsvImports();
  const preview = await imports.preview(path);
  const column = emailColumn(preview.columns);
  if (!column) return { preview, column, sent: [] as string[][] };
  const sent: string[][] = [];
  const report = await imports.importColumn(preview.handle, { column, chunkSize: 10_000, format }, async (values) => {
    sent.push(values);
    return { ok: true, data: { added: values.length, unmatched: [] } };
  });
  return { preview, column, sent, report };
}

describe('audience e-mail list files', () => {
  it('reads a UTF-8 file with a BOM and commas inside quotes', async () => {
    const { preview, column, sent } = await attach(fixture('audience-emails.csv'));
    expect(preview.encoding).toBe('utf-8');
    expect(preview.columns).toEqual(['email', 'nom']);
    expect(column).toBe('email');
    expect(preview.rows[0]).toEqual({ email: 'e2e.user1@exemple.fr', nom: 'Martin, Jean 1' });
    expect(sent.flat()).toEqual([
      'e2e.user1@exemple.fr',
      'e2e.user2@exemple.fr',
      'e2e.user3@exemple.fr',
      'e2e.user4@exemple.fr',
      'e2e.user5@exemple.fr',
      'inconnu@nulle-part.fr',
    ]);
  });

  it('reads a file that is not UTF-8 (Windows-1252, semicolons)', async () => {
    const { preview, sent } = await attach(fixture('audience-emails-latin1.csv'));
    expect(preview.encoding).toBe('windows-1252');
    expect(preview.rows[0]).toEqual({ nom: 'Hélène Müller', email: 'e2e.user6@exemple.fr' });
    expect(sent.flat()).toEqual(['e2e.user6@exemple.fr', 'e2e.user7@exemple.fr']);
  });

  it('7 rows with 2 bad addresses: 5 sent, the 2 reported with their rows and values, never sent', async () => {
    const { sent, report } = await attach(fixture('audience-emails-invalid.csv'), 'email');
    expect(sent.flat()).toEqual([
      'e2e.user8@exemple.fr',
      'e2e.user9@exemple.fr',
      'e2e.user10@exemple.fr',
      'e2e.user11@exemple.fr',
      'e2e.user12@exemple.fr',
    ]);
    expect(report).toMatchObject({ rows: 7, sent: 5, refused: 0, invalid: 2 });
    expect(report!.errors).toEqual([
      { line: 3, value: 'pas-une-adresse', message: IMPORT_MESSAGES.badValue('email', 'pas-une-adresse') },
      { line: 6, value: 'jean.dupont@', message: IMPORT_MESSAGES.badValue('email', 'jean.dupont@') },
    ]);
    // Each accepted chunk's answer is kept for the screen's report (added, unmatched).
    expect(report!.answers).toEqual([{ added: 5, unmatched: [] }]);
    // Without a format, every non-blank value goes (other imports keep their behaviour).
    expect((await attach(fixture('audience-emails-invalid.csv'))).sent.flat()).toHaveLength(7);
  });

  it('finds no email column in a file that has "emails" only', async () => {
    const { column } = await attach(fixture('audience-no-email.csv'));
    expect(column).toBeNull();
  });

  it('sends 100,000 rows in ten calls of 10,000, never all at once', async () => {
    const path = join(dir, 'large.csv');
    const lines = ['email;nom'];
    for (let n = 0; n < 100_000; n += 1) lines.push(`user${n}@exemple.fr;"Nom ${n}; avec point-virgule"`);
    writeFileSync(path, lines.join('\n'));
    const { preview, sent, report } = await attach(path);
    expect(preview.rowCount).toBe(100_000);
    expect(preview.rows).toHaveLength(25);
    expect(sent.map((chunk) => chunk.length)).toEqual(Array(10).fill(10_000));
    expect(sent[9][9_999]).toBe('user99999@exemple.fr');
    expect(report).toMatchObject({ rows: 100_000, sent: 100_000, refused: 0, errors: [] });
  }, 60_000);

  it('refuses a file that is not CSV text', async () => {
    const path = join(dir, 'binary.csv');
    writeFileSync(path, Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00, 0x08, 0x00]));
    await expect(new CsvImports().preview(path)).rejects.toThrow(MESSAGES.csvUnreadable);
    const notCsv = join(dir, 'liste.xlsx');
    writeFileSync(notCsv, 'email\nx@y.fr\n');
    await expect(new CsvImports().preview(notCsv)).rejects.toThrow(MESSAGES.csvOnly);
  });
});
