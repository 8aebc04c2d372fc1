import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { READINESS_MESSAGES as M } from '@shared/messages/api';
import type { Database } from '../db/client';
import { rows, type Executor } from '../db/rows';

/** One condition of readiness: `errorMsg` in French for people, `reason` in English for tools and logs. */
export interface ReadinessCheck {
  name: string;
  ok: boolean;
  errorMsg?: string;
  reason?: string;
}

/** Something an operator must know that does not stop this instance from serving (GET /ready's `warnings`). */
export interface ReadinessWarning {
  name: string;
  errorMsg: string;
  reason: string;
}

export interface ReadinessReport {
  ready: boolean;
  checks: ReadinessCheck[];
  warnings: ReadinessWarning[];
}

type Probe = () => Omit<ReadinessCheck, 'name'> | Promise<Omit<ReadinessCheck, 'name'>>;
type WarningProbe = () => Omit<ReadinessWarning, 'name'> | undefined | Promise<Omit<ReadinessWarning, 'name'> | undefined>;

/** How long a probe may take before it counts as failed: a load balancer polls /ready every few seconds. */
const PROBE_TIMEOUT_MS = 3000;

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/**
 * What GET /ready answers (docs/operations.md, "Monitor"): the conditions features register (the database, its
 * migrations, the audience engine), each probed at every call, and the warnings. Also holds the start-up tasks that
 * run after the server listens (the audience engine's first build on a team server): `started` once they are done.
 */
export class Readiness {
  private readonly probes = new Map<string, Probe>();
  private readonly warningProbes = new Map<string, WarningProbe>();
  private readonly startupTasks: Promise<unknown>[] = [];
  private startedFlag = true;
  private startedPromise: Promise<void> = Promise.resolve();

  check(name: string, probe: Probe): void {
    this.probes.set(name, probe);
  }

  warn(name: string, probe: WarningProbe): void {
    this.warningProbes.set(name, probe);
  }

  /** Work the instance must finish before it serves the API (the requests that come meanwhile wait for it). */
  startup(task: Promise<unknown>): void {
    this.startupTasks.push(task);
    this.startedFlag = false;
    const all = [...this.startupTasks];
    this.startedPromise = Promise.all(all).then(() => {
      if (this.startupTasks.length === all.length) this.startedFlag = true;
    });
  }

  get started(): boolean {
    return this.startedFlag;
  }

  /** Resolves once every start-up task is done; rejects if one failed. */
  whenStarted(): Promise<void> {
    return this.startedPromise;
  }

  async report(): Promise<ReadinessReport> {
    const checks = await Promise.all(
      [...this.probes].map(async ([name, probe]): Promise<ReadinessCheck> => {
        try {
          return { name, ...(await withTimeout(Promise.resolve(probe()), PROBE_TIMEOUT_MS, name)) };
        } catch (error) {
          return { name, ok: false, errorMsg: M.databaseUnreachable, reason: error instanceof Error ? error.message : String(error) };
        }
      }),
    );
    const warnings = (
      await Promise.all(
        [...this.warningProbes].map(async ([name, probe]) => {
          const warning = await withTimeout(Promise.resolve(probe()), PROBE_TIMEOUT_MS, name).catch(() => undefined);
          return warning && { name, ...warning };
        }),
      )
    ).filter((warning): warning is ReadinessWarning => Boolean(warning));
    return { ready: checks.every((check) => check.ok), checks, warnings };
  }
}

/** The last migration of the journal drizzle-kit writes beside the SQL files (`when`, what the migrator records). */
export function lastMigrationOf(migrationsFolder: string): number {
  const journal = JSON.parse(readFileSync(join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as { entries: { when: number }[] };
  return Math.max(...journal.entries.map((entry) => entry.when));
}

/** The last migration applied to the database (drizzle's journal there), as its `when` in text; null before any. */
export async function lastAppliedMigration(db: Executor): Promise<string | null> {
  const [row] = await rows<{ last: string | null }>(db, sql`SELECT max(created_at)::text AS last FROM drizzle.__drizzle_migrations`);
  return row?.last ?? null;
}

/** The database answers, and its migrations are exactly this build's (fewer: not migrated; more: a newer server migrated it). */
export function registerDatabaseChecks(readiness: Readiness, db: Database, migrationsFolder: string): void {
  const expected = lastMigrationOf(migrationsFolder);
  readiness.check('database', async () => {
    await db.execute(sql`SELECT 1`);
    return { ok: true };
  });
  readiness.check('migrations', async () => {
    const last = Number((await lastAppliedMigration(db)) ?? 0);
    if (last === expected) return { ok: true };
    return last < expected
      ? { ok: false, errorMsg: M.migrationsBehind, reason: `database migrated up to ${last}, this server needs ${expected}` }
      : {
          ok: false,
          errorMsg: M.migrationsAhead,
          reason: `database migrated up to ${last}, newer than this server's ${expected}: upgrade this instance`,
        };
  });
}
