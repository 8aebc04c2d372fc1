import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ImportedUser } from '@shared/rules/imports';
import type { DatabaseHandle } from '../../src-server/db/client';
import { rows } from '../../src-server/db/rows';
import { openStageWriter } from '../../src-server/features/imports/queries';
import { freshDatabase } from '../helpers/database';

/**
 * The stage writer of CSV imports: COPY FROM STDIN on PostgreSQL, INSERTs on PGlite; both must stage
 * every value as the file had it (tabs, line breaks, backslashes, quotes, braces, commas in lists), an empty text
 * as '' and a missing one as NULL, and keep nothing of a COPY aborted. PGlite, or PostgreSQL with TEST_DATABASE_URL.
 */

const TRICKY: ImportedUser = {
  externalId: 'ext\t1\\N',
  email: 'a\\b@example.org',
  name: 'Dr "Quote"\r\nLine two\\n',
  professionId: 3,
  title: '',
  area: 'french',
  zipcode: '{75001}',
  roles: ['ROLE_"EXPERT"', 'a,b', 'c\\d', 'tab\there', '{x}', 'NULL'],
  feeds: [],
};

interface StagedRow {
  line: number;
  externalId: string | null;
  email: string | null;
  name: string | null;
  professionId: number | null;
  specialtyId: number | null;
  title: string | null;
  area: string | null;
  zipcode: string | null;
  roles: string[] | null;
  feeds: string[] | null;
  apps: string[] | null;
}

const staged = (handle: DatabaseHandle, importId: number) =>
  rows<StagedRow>(
    handle.db,
    sql`SELECT line, external_id AS "externalId", email, name, profession_id AS "professionId", specialty_id AS "specialtyId", title, area, zipcode,
               roles, feeds, apps
        FROM csv_import_rows WHERE import_id = ${importId} ORDER BY line`,
  );

describe('CSV import stage writer', () => {
  let handle: DatabaseHandle;
  beforeEach(async () => {
    handle = await freshDatabase();
  });
  afterEach(async () => {
    await handle.close();
  });

  it('stages every value as read, across flushes, and NULL where the row has none', async () => {
    const writer = await openStageWriter(handle.db, handle.kind, 7);
    writer.add(2, TRICKY);
    expect(writer.buffered).toBe(1);
    await writer.flush();
    expect(writer.buffered).toBe(0);
    writer.add(3, { externalId: 'plain', email: '', name: 'Émilie Ça' });
    await writer.end();
    const [tricky, plain] = await staged(handle, 7);
    expect(tricky).toEqual({
      line: 2,
      externalId: TRICKY.externalId,
      email: TRICKY.email,
      name: TRICKY.name,
      professionId: 3,
      specialtyId: null,
      title: '',
      area: 'french',
      zipcode: '{75001}',
      roles: TRICKY.roles,
      feeds: null,
      apps: null,
    });
    expect(plain).toMatchObject({ line: 3, externalId: 'plain', email: '', name: 'Émilie Ça', professionId: null, roles: null });
  });

  it('stages rows of multi-byte characters across its buffers, one row longer than a buffer among them', async () => {
    const writer = await openStageWriter(handle.db, handle.kind, 8);
    const nameOf = (line: number) => (line === 1_500 ? 'Ŵ'.repeat(200_000) : `Dr Ünïcödé 🩺 ${'é'.repeat(line % 300)} ${line}`);
    for (let line = 2; line <= 3_001; line += 1) {
      writer.add(line, { externalId: `ext-${line}`, name: nameOf(line), zipcode: '75001' });
      if (line % 1_000 === 0) await writer.flush();
    }
    await writer.end();
    const all = await staged(handle, 8);
    expect(all).toHaveLength(3_000);
    for (const row of all) expect(row, `line ${row.line}`).toMatchObject({ externalId: `ext-${row.line}`, name: nameOf(row.line), zipcode: '75001' });
  });

  it('keeps nothing of a stage aborted before its end (PostgreSQL: the COPY is thrown away)', async () => {
    const writer = await openStageWriter(handle.db, handle.kind, 8);
    writer.add(2, { externalId: 'gone' });
    // PostgreSQL: sent into the COPY already, thrown away with it (PGlite's INSERTs are dropped by dropStage).
    if (handle.kind === 'postgresql') await writer.flush();
    writer.abort();
    const kept = await openStageWriter(handle.db, handle.kind, 9);
    kept.add(2, { externalId: 'kept' });
    await kept.end();
    expect(await staged(handle, 8)).toEqual([]);
    expect((await staged(handle, 9)).map((row) => row.externalId)).toEqual(['kept']);
  });
});
