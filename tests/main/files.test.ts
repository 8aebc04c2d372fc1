import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@shared/messages';
import type { CsvReadResult } from '@shared/ipc';
import { fileSource, savePdfFile, scanCsv, writeCsvFile, type ByteSource } from '../../src-main/services/files';

/** Every row of a CSV, through the streaming scanner (production never keeps them all: imports send them on). */
async function parseCsv(input: Uint8Array | ByteSource, fileName: string): Promise<CsvReadResult> {
  const rows: Record<string, string>[] = [];
  const scan = await scanCsv(input, fileName, { onStart: () => (rows.length = 0), onRow: (row) => void rows.push(row) });
  return { ...scan, rows };
}
const readCsvFile = (path: string) => parseCsv(fileSource(path), path);

const fixtures = fileURLToPath(new URL('../fixtures/csv/', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'bo-files-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('CSV reading', () => {
  it('reads UTF-8 with ; separators', async () => {
    const result = await readCsvFile(join(fixtures, 'utf8-semicolon.csv'));
    expect(result).toMatchObject({
      fileName: 'utf8-semicolon.csv',
      columns: ['Profession', 'Specialty', 'Nom', '22/01'],
      encoding: 'utf-8',
      delimiter: ';',
    });
    expect(result.rows).toEqual([{ Profession: 'Médecin', Specialty: 'Cardiologie', Nom: 'Dr Élise', '22/01': '1200' }]);
  });

  it('reads UTF-8 with a BOM, , separators, quoted cells and blank lines', async () => {
    const result = await readCsvFile(join(fixtures, 'utf8-bom-comma.csv'));
    expect(result.columns[0]).toBe('Profession');
    expect(result.delimiter).toBe(',');
    expect(result.rows).toEqual([{ Profession: 'Pharmacien', Specialty: '', Nom: 'Durand, Léa', '22/01': '300' }]);
  });

  it('reads Windows-1252 (French Excel exports)', async () => {
    const result = await readCsvFile(join(fixtures, 'windows-1252.csv'));
    expect(result.encoding).toBe('windows-1252');
    expect(result.rows[0]).toMatchObject({ Specialty: 'Gériatrie', Nom: 'François' });
  });

  it('streams a large file and reads it again as Windows-1252 when its only accented byte comes last', async () => {
    const path = join(work, 'large-1252.csv');
    const lines = ['Profession;Specialty;Nom;22/01'];
    for (let i = 0; i < 60_000; i++) lines.push(`Médecin;Cardiologie;Dr ${i};${i}`.replace('é', 'e'));
    lines.push('Pharmacien;Officine;Hélène;7');
    writeFileSync(path, Buffer.from(lines.join('\r\n'), 'latin1'));
    expect(statSync(path).size).toBeGreaterThan(1_000_000);
    const result = await readCsvFile(path);
    expect(result.encoding).toBe('windows-1252');
    expect(result.rows).toHaveLength(60_001);
    expect(result.rows.at(-1)).toEqual({ Profession: 'Pharmacien', Specialty: 'Officine', Nom: 'Hélène', '22/01': '7' });
  });

  it('decodes characters and finds the separator whatever the chunk boundaries', async () => {
    const bytes = Buffer.from('\uFEFFNom,Ville\n"Léa, Zoé",Orléans\nÉmile,Sète', 'utf8');
    const oneByteAtATime = async function* () {
      for (const byte of bytes) yield Uint8Array.of(byte);
    };
    const result = await parseCsv(oneByteAtATime, 'petit.csv');
    expect(result).toMatchObject({ encoding: 'utf-8', delimiter: ',', columns: ['Nom', 'Ville'] });
    expect(result.rows).toEqual([
      { Nom: 'Léa, Zoé', Ville: 'Orléans' },
      { Nom: 'Émile', Ville: 'Sète' },
    ]);
    expect((await parseCsv(Buffer.from('Profession;Specialty;Nom'), 'entete.csv')).columns).toEqual(['Profession', 'Specialty', 'Nom']);
  });

  it('refuses files that are not .csv, in the product’s words', async () => {
    await expect(parseCsv(Buffer.from('a;b\n1;2'), 'liste.txt')).rejects.toThrow(MESSAGES.csvOnly);
    await expect(parseCsv(Buffer.from(''), 'vide.csv')).rejects.toThrow(MESSAGES.csvUnreadable);
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);
    await expect(parseCsv(png, 'image.csv')).rejects.toThrow(MESSAGES.csvUnreadable);
  });
});

describe('CSV writing', () => {
  it('writes ; separated text with a BOM that reads back identically', async () => {
    const path = join(work, 'back.csv');
    await writeCsvFile(path, [{ a: 'x;y', b: 'Élan "quoted"', c: null }], ['a', 'b', 'c']);
    const text = readFileSync(path, 'utf8');
    expect(text.startsWith('\uFEFF')).toBe(true);
    const back = await parseCsv(Buffer.from(text, 'utf8'), 'back.csv');
    expect(back.rows).toEqual([{ a: 'x;y', b: 'Élan "quoted"', c: '' }]);
  });

  it('streams 200,000 rows to disk from a generator and reads them back', async () => {
    const path = join(work, 'big.csv');
    function* rows() {
      for (let i = 0; i < 200_000; i++) yield { id: i, name: `Cible ${i}`, city: i % 2 ? 'Lyon' : 'Nîmes' };
    }
    await writeCsvFile(path, rows(), ['id', 'name', 'city']);
    expect(statSync(path).size).toBeGreaterThan(3_000_000);
    const back = await readCsvFile(path);
    expect(back.rows).toHaveLength(200_000);
    expect(back.rows[199_999]).toEqual({ id: '199999', name: 'Cible 199999', city: 'Lyon' });
  });
});

describe('PDF saving', () => {
  it('writes the bytes under the chosen name and leaves no partial file', async () => {
    const path = join(work, 'bat.pdf');
    const bytes = Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF');
    await savePdfFile(path, bytes);
    expect(readFileSync(path)).toEqual(bytes);
    await expect(savePdfFile(join(work, 'missing-folder', 'x.pdf'), bytes)).rejects.toThrow();
  });
});
