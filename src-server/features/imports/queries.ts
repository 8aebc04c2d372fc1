import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { sql, type SQL } from 'drizzle-orm';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { ImportJob } from '@shared/contract/imports';
import type { ImportError, ImportedUser, MappingEntry } from '@shared/rules/imports';
import { driverOf, type Database, type DatabaseKind } from '../../db/client';
import { copyText } from '../../db/copy';
import { rows, type Executor } from '../../db/rows';
import { LEASE_INTERVAL } from '../../jobs/lease';

const jobColumns = sql`id, filename, state, phase, rows_read AS "read", rows_valid AS "valid", rows_written AS "written", inserted, updated,
  error_count AS "errorCount", message, (extract(epoch FROM created_at) * 1000)::bigint::float8 AS "createdAt",
  (extract(epoch FROM finished_at) * 1000)::bigint::float8 AS "finishedAt"`;

interface JobRow extends Omit<ImportJob, 'progress' | 'errors' | 'phase' | 'state'> {
  state: ImportJob['state'];
  phase: ImportJob['phase'];
  read: number;
  valid: number;
  written: number;
  errors?: ImportError[];
}

const toJob = ({ read, valid, written, errors, ...job }: JobRow): ImportJob => ({ ...job, progress: { read, valid, written }, errors: errors ?? [] });

export async function createJob(db: Executor, filename: string, mapping: MappingEntry[], accountId: number | null): Promise<ImportJob> {
  const [job] = await rows<JobRow>(
    db,
    sql`INSERT INTO csv_imports (filename, mapping, account_id, state, phase, lease_until)
        VALUES (${filename}, ${JSON.stringify(mapping)}::jsonb, ${accountId}, 'running', 'reading', now() + ${LEASE_INTERVAL}::interval)
        RETURNING ${jobColumns}`,
  );
  return toJob(job);
}

export async function findJob(db: Executor, id: number, withErrors = true): Promise<ImportJob | null> {
  const [job] = await rows<JobRow>(db, sql`SELECT ${jobColumns}${withErrors ? sql`, errors` : sql``} FROM csv_imports WHERE id = ${id}`);
  return job ? toJob(job) : null;
}

export async function latestJobs(db: Executor, limit: number): Promise<ImportJob[]> {
  return (await rows<JobRow>(db, sql`SELECT ${jobColumns} FROM csv_imports ORDER BY id DESC LIMIT ${limit}`)).map(toJob);
}

/** Writes the progress; answers whether someone asked to cancel (read in the same statement). */
export async function saveProgress(
  db: Executor,
  id: number,
  progress: { phase: 'reading' | 'merging'; read: number; valid: number; written: number },
): Promise<{ cancelRequested: boolean }> {
  const [row] = await rows<{ cancelRequested: boolean }>(
    db,
    sql`UPDATE csv_imports SET phase = ${progress.phase}, rows_read = ${progress.read}, rows_valid = ${progress.valid}, rows_written = ${progress.written}
        WHERE id = ${id} RETURNING cancel_requested_at IS NOT NULL AS "cancelRequested"`,
  );
  return { cancelRequested: row?.cancelRequested ?? true };
}

export async function finishJob(
  db: Executor,
  id: number,
  outcome: {
    state: 'done' | 'failed' | 'cancelled';
    message: string | null;
    errors?: ImportError[];
    errorCount?: number;
    inserted?: number;
    updated?: number;
    written?: number;
  },
): Promise<void> {
  await db.execute(
    sql`UPDATE csv_imports SET state = ${outcome.state}, phase = NULL, message = ${outcome.message}, finished_at = now(),
          errors = ${JSON.stringify(outcome.errors ?? [])}::jsonb, error_count = ${outcome.errorCount ?? 0},
          inserted = ${outcome.inserted ?? 0}, updated = ${outcome.updated ?? 0}
          ${outcome.written === undefined ? sql`` : sql`, rows_written = ${outcome.written}`}
        WHERE id = ${id}`,
  );
}

/** Asks the job to stop; only a running job can be cancelled. Answers whether it was running. */
export async function requestCancel(db: Executor, id: number): Promise<boolean> {
  const changed = await rows<{ id: number }>(
    db,
    sql`UPDATE csv_imports SET cancel_requested_at = coalesce(cancel_requested_at, now()) WHERE id = ${id} AND state IN ('queued', 'running') RETURNING id`,
  );
  return changed.length > 0;
}

/** Jobs left running by a server that stopped (embedded database: this server was the only one). */
export async function failInterruptedJobs(db: Executor, message: string): Promise<number[]> {
  const failed = await rows<{ id: number }>(
    db,
    sql`UPDATE csv_imports SET state = 'failed', phase = NULL, message = ${message}, finished_at = now() WHERE state IN ('queued', 'running') RETURNING id`,
  );
  if (failed.length)
    await dropStage(
      db,
      failed.map((job) => job.id),
    );
  return failed.map((job) => job.id);
}

/** The instance running the job vouches for it for another lease (src-server/jobs/lease.ts). */
export async function renewLease(db: Executor, id: number): Promise<void> {
  await db.execute(sql`UPDATE csv_imports SET lease_until = now() + ${LEASE_INTERVAL}::interval WHERE id = ${id} AND state IN ('queued', 'running')`);
}

/**
 * Ends the jobs whose instance stopped renewing their lease (all of them, or those of `only`), but those running
 * here (`except`), as `state` with `message`, and drops their stage. A job from before leases (none) counts as
 * expired. Answers the ids ended.
 */
export async function endExpiredJobs(
  db: Executor,
  outcome: { state: 'failed' | 'cancelled'; message: string },
  except: readonly number[],
  only?: number,
): Promise<number[]> {
  const ended = await rows<{ id: number }>(
    db,
    sql`UPDATE csv_imports SET state = ${outcome.state}, phase = NULL, message = ${outcome.message}, finished_at = now()
        WHERE state IN ('queued', 'running') AND coalesce(lease_until, '-infinity') < now()
          AND NOT (id = ANY(${sql.param([...except])}::int[]))${only === undefined ? sql`` : sql` AND id = ${only}`}
        RETURNING id`,
  );
  const ids = ended.map((job) => job.id);
  if (ids.length) await dropStage(db, ids);
  return ids;
}

/** A job its server released while closing: still running, its progress back to zero for the instance that takes it over. */
export async function releaseJob(db: Executor, id: number): Promise<void> {
  await db.execute(
    sql`UPDATE csv_imports SET phase = 'reading', rows_read = 0, rows_valid = 0, rows_written = 0 WHERE id = ${id} AND state IN ('queued', 'running')`,
  );
}

/** What an instance taking a job over needs to run it again: its file and its mapping. */
export async function jobInput(
  db: Executor,
  id: number,
): Promise<{ filename: string; mapping: MappingEntry[]; accountId: number | null } | undefined> {
  const [row] = await rows<{ filename: string; mapping: MappingEntry[]; accountId: number | null }>(
    db,
    sql`SELECT filename, mapping, account_id AS "accountId" FROM csv_imports WHERE id = ${id}`,
  );
  return row;
}

export async function runningImports(db: Executor): Promise<number> {
  const [row] = await rows<{ count: number }>(db, sql`SELECT count(*)::int AS count FROM csv_imports WHERE state IN ('queued', 'running')`);
  return row?.count ?? 0;
}

/**
 * Deletes the stages of these jobs (and rows under their negative ids, where PGlite's merge kept its undo before
 * population_undo). `rowsPerStatement` (PGlite, whose one connection answers nothing else meanwhile): that many
 * rows a statement, with a turn of the event loop between.
 */
export async function dropStage(db: Executor, ids: number[], rowsPerStatement?: number): Promise<void> {
  const stages = sql`import_id = ANY(${sql.param([...ids, ...ids.map((id) => -id)])}::int[])`;
  if (!rowsPerStatement) {
    await db.execute(sql`DELETE FROM csv_import_rows WHERE ${stages}`);
    return;
  }
  for (;;) {
    const deleted = await rows<{ n: number }>(
      db,
      sql`WITH gone AS (DELETE FROM csv_import_rows WHERE ctid = ANY(ARRAY(SELECT ctid FROM csv_import_rows WHERE ${stages} LIMIT ${rowsPerStatement})) RETURNING 1)
          SELECT count(*)::int AS n FROM gone`,
    );
    if (deleted[0].n < rowsPerStatement) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

export const stageOf = (id: number): { table: SQL; where: SQL } => ({ table: sql.raw('csv_import_rows'), where: sql`import_id = ${id}` });

// ---- staging ------------------------------------------------------------------------------------------------------

/** A PostgreSQL array literal of nullable texts (one bound parameter: cheaper than node-postgres's array escaping). */
function textArray(values: readonly (string | undefined)[]): string {
  let literal = '{';
  for (let index = 0; index < values.length; index += 1) {
    const value = values[index];
    if (index > 0) literal += ',';
    literal += value === undefined ? 'NULL' : `"${value.replace(/["\\]/g, '\\$&')}"`;
  }
  return `${literal}}`;
}

const numbers = (values: readonly (number | undefined)[]) => `{${values.map((value) => (value === undefined ? 'NULL' : value)).join(',')}}`;
const list = (values: string[] | undefined) => (values?.length ? values.join('|') : undefined);

/** Writes a batch of valid rows into the stage: one INSERT of unnested columns (PGlite). */
async function stageRows(db: Executor, importId: number, batch: readonly { line: number; user: ImportedUser }[]): Promise<void> {
  if (!batch.length) return;
  const users = batch.map((row) => row.user);
  const text = (key: keyof ImportedUser) => textArray(users.map((user) => user[key] as string | undefined));
  const number = (key: keyof ImportedUser) => numbers(users.map((user) => user[key] as number | undefined));
  const lists = (key: 'roles' | 'feeds' | 'apps') => textArray(users.map((user) => list(user[key])));
  await db.execute(
    sql`INSERT INTO csv_import_rows (import_id, line, external_id, email, name, profession_id, specialty_id, title, area, country_id, zipcode, uga, workplace, os, roles, feeds, apps)
        SELECT ${importId}, line, external_id, email, name, profession_id, specialty_id, title, area, country_id, zipcode, uga, workplace, os,
               string_to_array(roles, '|'), string_to_array(feeds, '|'), string_to_array(apps, '|')
        FROM unnest(${numbers(batch.map((row) => row.line))}::int[], ${text('externalId')}::text[], ${text('email')}::text[], ${text('name')}::text[],
                    ${number('professionId')}::int[], ${number('specialtyId')}::int[], ${text('title')}::text[], ${text('area')}::text[],
                    ${number('countryId')}::int[], ${text('zipcode')}::text[], ${text('uga')}::text[], ${text('workplace')}::text[], ${text('os')}::text[],
                    ${lists('roles')}::text[], ${lists('feeds')}::text[], ${lists('apps')}::text[])
          AS r(line, external_id, email, name, profession_id, specialty_id, title, area, country_id, zipcode, uga, workplace, os, roles, feeds, apps)`,
  );
}

/** Rows whose externalId (given, or found by e-mail) an earlier row of the file already has; and their count. */
export async function duplicateKeys(
  db: Executor,
  importId: number,
  limit: number,
): Promise<{ rows: { line: number; first: number }[]; count: number }> {
  const found = await rows<{ line: number; first: number; count: number }>(
    db,
    sql`WITH d AS (SELECT line, min(line) OVER (PARTITION BY external_id) AS first FROM csv_import_rows WHERE import_id = ${importId} AND external_id IS NOT NULL)
        SELECT line, first, count(*) OVER ()::int AS count FROM d WHERE line > first ORDER BY line LIMIT ${limit}`,
  );
  return { rows: found, count: found[0]?.count ?? 0 };
}

/** Rows with an e-mail and no externalId that no user has (resolveByEmail ran): they cannot be created. */
export async function unknownEmails(db: Executor, importId: number, limit: number): Promise<{ rows: { line: number }[]; count: number }> {
  const found = await rows<{ line: number; count: number }>(
    db,
    sql`SELECT line, count(*) OVER ()::int AS count FROM csv_import_rows WHERE import_id = ${importId} AND external_id IS NULL ORDER BY line LIMIT ${limit}`,
  );
  return { rows: found, count: found[0]?.count ?? 0 };
}

// ---- stage writers --------------------------------------------------------------------------------------------------

/** Valid rows on their way into the stage: gathered with `add`, written with `flush`, kept only after `end`. */
export interface StageWriter {
  add(line: number, user: ImportedUser): void;
  /** Rows added since the last flush. */
  readonly buffered: number;
  /** Writes the rows added; resolves once the database can take more (back-pressure). */
  flush(): Promise<void>;
  /** Every row written and kept in the stage. */
  end(): Promise<void>;
  /** Stops: nothing of a stage not ended is kept. */
  abort(): void;
}

/** PGlite: each flush is one INSERT of unnested columns. */
class InsertStageWriter implements StageWriter {
  private batch: { line: number; user: ImportedUser }[] = [];
  constructor(
    private readonly db: Executor,
    private readonly importId: number,
  ) {}
  get buffered() {
    return this.batch.length;
  }
  add(line: number, user: ImportedUser) {
    this.batch.push({ line, user });
  }
  async flush() {
    const rows = this.batch;
    this.batch = [];
    await stageRows(this.db, this.importId, rows);
  }
  end() {
    return this.flush();
  }
  abort() {
    this.batch = [];
  }
}

/** A value in COPY's text format; undefined is NULL. */
const copyValue = (value: string | undefined) => (value === undefined ? '\\N' : copyText(value));
const copyNumber = (value: number | undefined) => (value === undefined ? '\\N' : String(value));
/** A list as an array literal (no list or an empty one: NULL, as the INSERT path stages it). */
const copyList = (values: string[] | undefined) =>
  values?.length ? copyValue(`{${values.map((value) => `"${value.replace(/["\\]/g, '\\$&')}"`).join(',')}}`) : '\\N';

/** The buffers rows are encoded into for the COPY. */
const COPY_PIECE_BYTES = 256 * 1024;

/** Bytes written into the COPY that the server has not taken yet beyond which reading waits (bounded memory). */
const COPY_AHEAD_BYTES = 8 * 1024 * 1024;

/**
 * PostgreSQL: the rows streamed into the stage by one `COPY … FROM STDIN` on a connection of its own (through
 * pg-copy-streams), a few times faster than INSERTs of unnested arrays: no statement per batch, no array literal
 * parsed, and the server stores rows while the file is still being parsed here. The rows are kept only if the
 * COPY ends; an abort closes the connection, which throws the copy away.
 */
class CopyStageWriter implements StageWriter {
  /** The rows added since the last flush, encoded as they come: filled pieces, then the one being filled. */
  private pieces: Buffer[] = [];
  private piece = Buffer.allocUnsafe(COPY_PIECE_BYTES);
  private filled = 0;
  private count = 0;
  private failure: Error | null = null;
  private released = false;

  private constructor(
    private readonly client: pg.PoolClient,
    private readonly copy: ReturnType<typeof copyFrom>,
    private readonly importId: number,
  ) {
    copy.on('error', (error: Error) => (this.failure ??= error));
  }

  static async open(pool: pg.Pool, importId: number): Promise<CopyStageWriter> {
    const client = await pool.connect();
    const copy = client.query(
      copyFrom(`COPY csv_import_rows (import_id, line, external_id, email, name, profession_id, specialty_id, title, area, country_id, zipcode, uga,
                  workplace, os, roles, feeds, apps) FROM STDIN`),
    );
    return new CopyStageWriter(client, copy, importId);
  }

  get buffered() {
    return this.count;
  }

  add(line: number, user: ImportedUser) {
    this.count += 1;
    const row = `${this.importId}\t${line}\t${copyValue(user.externalId)}\t${copyValue(user.email)}\t${copyValue(user.name)}\t${copyNumber(user.professionId)}\t${copyNumber(
      user.specialtyId,
    )}\t${copyValue(user.title)}\t${copyValue(user.area)}\t${copyNumber(user.countryId)}\t${copyValue(user.zipcode)}\t${copyValue(user.uga)}\t${copyValue(
      user.workplace,
    )}\t${copyValue(user.os)}\t${copyList(user.roles)}\t${copyList(user.feeds)}\t${copyList(user.apps)}\n`;
    // At most 3 bytes of UTF-8 per UTF-16 unit. Each row is encoded on its own: a batch's text grown by += and
    // encoded whole at the flush spent a second of a million-row import flattening and encoding it.
    if (this.filled + row.length * 3 > this.piece.length) {
      if (this.filled > 0) this.pieces.push(this.piece.subarray(0, this.filled));
      this.piece = Buffer.allocUnsafe(Math.max(COPY_PIECE_BYTES, row.length * 3));
      this.filled = 0;
    }
    this.filled += this.piece.write(row, this.filled);
  }

  async flush() {
    if (this.failure) throw this.failure;
    if (this.filled > 0) {
      this.pieces.push(this.piece.subarray(0, this.filled));
      this.piece = this.piece.subarray(this.filled);
      this.filled = 0;
    }
    const pieces = this.pieces;
    this.pieces = [];
    this.count = 0;
    let taken = true;
    for (const piece of pieces) taken = this.copy.write(piece);
    // Up to COPY_AHEAD_BYTES wait in the stream while the server stores them, so parsing goes on meanwhile.
    if (!taken && this.copy.writableLength > COPY_AHEAD_BYTES) await Promise.race([once(this.copy, 'drain'), once(this.copy, 'error')]);
    if (this.failure) throw this.failure;
  }

  async end() {
    try {
      await this.flush();
      this.copy.end();
      await finished(this.copy);
    } catch (error) {
      this.abort();
      throw this.failure ?? error;
    }
    this.release(false);
  }

  abort() {
    this.copy.destroy();
    // Closed rather than reused: a connection in the middle of a COPY is in no state to serve another query.
    this.release(true);
  }

  private release(destroy: boolean) {
    if (this.released) return;
    this.released = true;
    this.client.release(destroy);
  }
}

/** The writer of an import's stage: COPY on PostgreSQL, INSERTs on PGlite. */
export async function openStageWriter(db: Database, kind: DatabaseKind, importId: number): Promise<StageWriter> {
  if (kind !== 'postgresql') return new InsertStageWriter(db, importId);
  return CopyStageWriter.open(driverOf(db) as pg.Pool, importId);
}
