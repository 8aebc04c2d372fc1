import type { ImportJob } from '@shared/contract/imports';
import { IMPORT_MESSAGES as M } from '@shared/messages/imports';
import { MAX_LISTED_ERRORS, readImportRow, type ImportError, type ImportPlan } from '@shared/rules/imports';
import type { ServerContext } from '../../context';
import { HttpError } from '../../errors';
import type { PopulationImport } from '../../feature-services';
import type { Executor } from '../../db/rows';
import { holdLease } from '../../jobs/lease';
import { readCsv } from './csv-reader';
import type { ImportClaims } from './claims';
import {
  dropStage,
  duplicateKeys,
  finishJob,
  findJob,
  openStageWriter,
  releaseJob,
  renewLease,
  saveProgress,
  stageOf,
  unknownEmails,
} from './queries';

/** Valid rows per write into the stage (and progress step); on PGlite, whose one connection waits for each, fewer. */
const STAGE_BATCH = 5_000;
const PGLITE_STAGE_BATCH = 1_000;
/** How often the progress is written (and a cancel from another instance looked for). */
const PROGRESS_EVERY_MS = 400;

class Cancelled extends Error {}
/** The server is closing: the job stops between two batches and another instance takes it over (ImportClaims). */
class Released extends Error {}
const RELEASE = Symbol('release');

type Outcome = Parameters<typeof finishJob>[2];

/** Throws at a batch boundary when the job was asked to stop: cancelled by a user, or released by a closing server. */
function stopIfAsked(live: LiveJob): void {
  if (live.abort.signal.aborted) throw live.abort.signal.reason === RELEASE ? new Released() : new Cancelled();
}

/** A job running on this instance: its live state (what GET answers without waiting for the database) and its stop. */
interface LiveJob {
  job: ImportJob;
  abort: AbortController;
}

/** The errors found so far: every one counted, the first 1,000 kept. */
class ErrorList {
  readonly listed: ImportError[] = [];
  count = 0;
  add(errors: readonly ImportError[], total = errors.length): void {
    this.count += total;
    for (const error of errors) if (this.listed.length < MAX_LISTED_ERRORS * 2) this.listed.push(error);
  }
  /** The first 1,000 by line (rows checked while reading and those the database found are merged). */
  first(): ImportError[] {
    return this.listed.sort((a, b) => a.line - b.line).slice(0, MAX_LISTED_ERRORS);
  }
}

/**
 * Runs CSV imports (docs/imports.md): reads the file from storage as a stream, checks every row with the shared rules,
 * stages the valid ones, checks keys in SQL (duplicates, unknown e-mails), and only when no row is wrong merges
 * them all into the population in one transaction (through the audiences feature); on PGlite in short ones, undone
 * if the merge fails or is cancelled. Nothing is applied otherwise.
 */
export class ImportRunner {
  private readonly live = new Map<number, LiveJob>();

  constructor(
    private readonly context: ServerContext,
    /** Where the staged users are merged: the audiences feature's population (same writes as its feed). */
    private readonly population: PopulationImport,
    /** Called with the job's state at each step (progress pushed to the page). */
    private readonly notify: (job: ImportJob, accountId: number | null) => void,
    /** On PostgreSQL: the job runs only where its claim is held, so that one instance runs it and another resumes it. */
    private readonly claims?: ImportClaims,
  ) {}

  get busy(): boolean {
    return this.live.size > 0;
  }

  /** The live state of a job running here, else undefined (read the database). */
  liveJob(id: number): ImportJob | undefined {
    return this.live.get(id)?.job;
  }

  /** The ids of the jobs running here: their lease is this instance's to renew, never to sweep. */
  liveIds(): number[] {
    return [...this.live.keys()];
  }

  /** Stops a job running here; answers whether it was. */
  cancel(id: number): boolean {
    const live = this.live.get(id);
    live?.abort.abort();
    return Boolean(live);
  }

  /**
   * Starts the job in the background (once claimed, on PostgreSQL: an instance that loses the race leaves it to the
   * winner); its state is then read with liveJob or from the database. A resumed job starts again from its file.
   */
  start(job: ImportJob, key: string, plan: ImportPlan, accountId: number | null): void {
    const live: LiveJob = { job, abort: new AbortController() };
    this.live.set(job.id, live);
    this.notify(job, accountId);
    let claimed = false;
    let lease: { stop(): void } | undefined;
    const done = (async (): Promise<Outcome | 'released' | 'not claimed'> => {
      if (this.claims) {
        claimed = await this.claims.claim(job.id, () => live.abort.abort(RELEASE));
        if (!claimed) return 'not claimed';
        // Rows staged by an instance that stopped without cleaning up (a crash).
        await dropStage(this.context.db, [job.id]);
      }
      // This instance vouches for the job from now on (a taken-over job's lease may have run out meanwhile).
      await renewLease(this.context.db, job.id);
      lease = holdLease(this.context, `csv import ${job.id}`, () => renewLease(this.context.db, job.id));
      return this.run(live, key, plan, accountId);
    })()
      .catch((error): Outcome | 'released' => {
        if (error instanceof Released) return 'released';
        const cancelled = error instanceof Cancelled;
        if (!cancelled) this.context.logger.error({ err: error, importId: job.id }, 'CSV import failed');
        const message = cancelled ? M.cancelledByUser : error instanceof HttpError ? error.message : M.failedUnexpectedly;
        return { state: cancelled ? 'cancelled' : 'failed', message };
      })
      // The staged rows go first: once the job says it ended, nothing of it is left in the database.
      .then(async (outcome) => {
        if (outcome === 'not claimed') return;
        await dropStage(this.context.db, [job.id], this.context.dbKind === 'postgresql' ? undefined : PGLITE_STAGE_BATCH * 5).catch((error) =>
          this.context.logger.warn({ err: error }, 'CSV import stage not dropped'),
        );
        if (outcome === 'released') {
          await releaseJob(this.context.db, job.id);
          this.context.logger.info({ importId: job.id }, 'CSV import released: another instance takes it over');
        } else await finishJob(this.context.db, job.id, outcome);
      })
      .catch((error) => this.context.logger.error({ err: error, importId: job.id }, 'CSV import outcome not saved'))
      .finally(async () => {
        lease?.stop();
        this.live.delete(job.id);
        if (claimed) await this.claims?.release(job.id);
        const saved = await findJob(this.context.db, job.id, false).catch(() => null);
        if (saved) this.notify(saved, accountId);
      });
    this.pending.add(done);
    void done.finally(() => this.pending.delete(done));
  }

  private readonly pending = new Set<Promise<unknown>>();

  /**
   * Server closing: every job stops at its next batch boundary (a merge under way rolls back) and is released, its
   * progress back to zero: another instance on the database takes it over (on PGlite, the next start says it was cut).
   */
  async close(): Promise<void> {
    for (const live of this.live.values()) live.abort.abort(RELEASE);
    await Promise.allSettled([...this.pending]);
  }

  private async run(live: LiveJob, key: string, plan: ImportPlan, accountId: number | null): Promise<Outcome> {
    const { db } = this.context;
    const id = live.job.id;
    const errors = new ErrorList();
    let lastSaved = 0;
    const step = async (force = false) => {
      stopIfAsked(live);
      if (!force && Date.now() - lastSaved < PROGRESS_EVERY_MS) return;
      lastSaved = Date.now();
      this.notify(live.job, accountId);
      const { cancelRequested } = await saveProgress(db, id, { phase: live.job.phase ?? 'reading', ...live.job.progress });
      if (cancelRequested) throw new Cancelled();
    };
    const started = performance.now();
    await this.readAndStage(live, key, plan, errors, step);
    const readMs = performance.now() - started;
    await this.checkKeys(live, plan, errors);
    const checkedMs = performance.now() - started - readMs;
    if (errors.count > 0) {
      const listed = errors.first();
      return { state: 'failed', message: M.errorsTitle(errors.count, listed.length), errors: listed, errorCount: errors.count };
    }
    const { population } = this;
    live.job = { ...live.job, phase: 'merging' };
    await step(true);
    // PGlite: short transactions, undone unless the last one commits; that one marks the job done, so that a process
    // killed before it leaves a job the next start fails with its chunks undone, and never the other way round.
    const short =
      this.context.dbKind === 'postgresql'
        ? undefined
        : {
            committed: (tx: Executor, result: { inserted: number; updated: number }) =>
              finishJob(tx, id, { state: 'done', message: M.done(result.inserted, result.updated), ...result, written: live.job.progress.written }),
          };
    const { inserted, updated } = await population.mergeStaged(
      stageOf(id),
      async (written) => {
        live.job = { ...live.job, progress: { ...live.job.progress, written } };
        await step();
      },
      short,
    );
    const timings = { readMs, checkedMs, mergeMs: performance.now() - started - readMs - checkedMs };
    this.context.logger.info({ importId: id, inserted, updated, ...timings }, 'CSV import done');
    // 'mis à jour' counts the users whose values changed; every valid row was still merged (written).
    return { state: 'done', message: M.done(inserted, updated), inserted, updated, written: live.job.progress.written };
  }

  /** Reads the file, checks each row, stages the valid ones in batches. */
  private async readAndStage(
    live: LiveJob,
    key: string,
    plan: ImportPlan,
    errors: ErrorList,
    step: (force?: boolean) => Promise<void>,
  ): Promise<void> {
    const file = await this.context.storage.get(key);
    if (!file) throw new HttpError(404, M.fileNotFound);
    const stage = await openStageWriter(this.context.db, this.context.dbKind, live.job.id);
    let read = 0;
    let valid = 0;
    const flush = async () => {
      await stage.flush();
      live.job = { ...live.job, progress: { read, valid, written: 0 } };
      await step();
    };
    try {
      await readCsv(file.body, {
        onRow: (cells, line) => {
          read += 1;
          const result = readImportRow(cells, plan, line);
          if ('errors' in result) errors.add(result.errors);
          else {
            valid += 1;
            // Once a row is wrong nothing will be applied: the others are still checked, no longer staged.
            if (errors.count === 0) stage.add(line, result.user);
          }
        },
        afterChunk: async () => {
          if (stage.buffered >= (this.context.dbKind === 'postgresql' ? STAGE_BATCH : PGLITE_STAGE_BATCH)) await flush();
          else stopIfAsked(live);
        },
      });
      // A wrong row means nothing is applied: what was staged is thrown away rather than kept.
      if (errors.count > 0) stage.abort();
      else await stage.end();
    } catch (error) {
      stage.abort();
      throw error;
    }
    live.job = { ...live.job, progress: { read, valid, written: 0 } };
    await step(true);
  }

  /** Keys the database checks: rows found by e-mail, unknown e-mails, an externalId twice in the file. */
  private async checkKeys(live: LiveJob, plan: ImportPlan, errors: ErrorList): Promise<void> {
    if (errors.count > 0) return;
    const id = live.job.id;
    const column = (field: 'externalId' | 'email') => plan.find((entry) => entry.field === field)?.header;
    const emailColumn = column('email');
    if (emailColumn) {
      await this.population.resolveByEmail(stageOf(id));
      const unknown = await unknownEmails(this.context.db, id, MAX_LISTED_ERRORS);
      errors.add(
        unknown.rows.map(({ line }) => ({ line, column: emailColumn, message: M.unknownEmail })),
        unknown.count,
      );
    }
    const duplicates = await duplicateKeys(this.context.db, id, MAX_LISTED_ERRORS);
    const keyColumn = column('externalId') ?? emailColumn!;
    errors.add(
      duplicates.rows.map(({ line, first }) => ({
        line,
        column: keyColumn,
        message: M.duplicateKey(column('externalId') ? 'externalId' : 'email', first),
      })),
      duplicates.count,
    );
  }
}
