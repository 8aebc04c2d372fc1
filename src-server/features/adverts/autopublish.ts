import { hostname } from 'node:os';
import { sql } from 'drizzle-orm';
import { AUTOPUBLISH_MAILS } from '@shared/messages/adverts';
import { epochSeconds } from '@shared/rules/advert-model';
import type { ServerContext } from '../../context';
import { publicationError } from './content-checks';
import { bumpContentVersion, loadItem, recordHistory, rows, TABLES, type Executor, type Kind } from './store';

/**
 * The autopublish job (docs/content.md): applies autoStartAt and autoStopAt when they are due, mails
 * autoPublishOptions.emails (when activated), and answers the report of items whose state disagrees with their
 * dates (the alert bell).
 *
 * Exactly once with several instances on one PostgreSQL: each due row is claimed with SELECT … FOR UPDATE SKIP
 * LOCKED inside the transaction that applies it, so two instances never take the same row, and neither waits for
 * the other (a global advisory lock would serialise every instance on one key and needs session-level care on a
 * pooled connection; a queue such as pg-boss is a second scheduler to run for one query a minute). Once committed,
 * the row no longer matches (a re-check of the WHERE on the newest version), and the unique key of
 * autopublish_log (item, start or stop, due date) makes the transition happen once even then: it also keeps a
 * later manual unpublish from being undone by the same due start. SKIP LOCKED works alike on PGlite.
 */

const BATCH = 100;
const INSTANCE = `${hostname()}:${process.pid}`;

interface Due {
  id: number;
  name: string;
  dueAt: string | number;
}

export interface AutopublishOutcome {
  kind: Kind;
  id: number;
  action: 'start' | 'stop';
  outcome: 'applied' | 'refused';
}

interface Mail {
  to: string[];
  subject: string;
  text: string;
}

const fill = (template: string, values: Record<string, string>) => template.replace(/\{(\w+)\}/g, (_, key: string) => values[key] ?? '');

export class AutopublishJob {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<AutopublishOutcome[]> | undefined;
  private stopped = false;

  constructor(private readonly context: ServerContext) {}

  start(intervalMs: number): void {
    if (intervalMs <= 0) return;
    const tick = () => {
      if (this.stopped) return;
      this.runOnce()
        .catch((error) => this.context.logger.error({ err: error }, 'autopublish failed; retrying at the next tick'))
        .finally(() => {
          if (!this.stopped) this.timer = setTimeout(tick, intervalMs);
        });
    };
    this.timer = setTimeout(tick, Math.min(intervalMs, 1000));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running?.catch(() => undefined);
  }

  /** One pass over adverts and articles; runs of one instance never overlap. */
  runOnce(): Promise<AutopublishOutcome[]> {
    const previous = this.running ?? Promise.resolve([]);
    const run = previous.catch(() => []).then(() => this.pass());
    this.running = run;
    return run;
  }

  private async pass(): Promise<AutopublishOutcome[]> {
    const outcomes: AutopublishOutcome[] = [];
    for (const kind of ['advert', 'article'] as const) {
      for (const action of ['stop', 'start'] as const) {
        for (;;) {
          const batch = await this.applyBatch(kind, action);
          outcomes.push(...batch.outcomes);
          for (const mail of batch.mails) await this.sendMail(mail);
          if (batch.outcomes.length < BATCH) break;
        }
      }
    }
    return outcomes;
  }

  private async sendMail(mail: Mail): Promise<void> {
    for (const to of mail.to) {
      try {
        await this.context.mailer.send({ to, subject: mail.subject, text: mail.text });
      } catch (error) {
        this.context.logger.error({ err: error, to }, 'autopublish mail not sent');
      }
    }
  }

  /** Seconds since the oldest start or stop that is due and not yet applied (0 when none): the metrics' autopublish lag. */
  async lagSeconds(): Promise<number> {
    const now = epochSeconds(this.context.clock.now());
    let oldest = now;
    for (const kind of Object.keys(TABLES) as Kind[]) {
      const { items } = TABLES[kind];
      const [row] = await rows<{ dueAt: string | number | null }>(
        this.context.db,
        sql`SELECT min(due) AS "dueAt" FROM (
              SELECT i.auto_start_at AS due FROM ${items} i
              WHERE NOT i.published AND NOT i.archived AND i.auto_start_at <= ${now} AND (i.auto_stop_at IS NULL OR i.auto_stop_at > ${now})
                AND NOT EXISTS (SELECT 1 FROM autopublish_log g WHERE g.kind = ${kind} AND g.item_id = i.id AND g.action = 'start' AND g.due_at = i.auto_start_at)
              UNION ALL
              SELECT i.auto_stop_at FROM ${items} i
              WHERE i.published AND i.auto_stop_at <= ${now}
                AND NOT EXISTS (SELECT 1 FROM autopublish_log g WHERE g.kind = ${kind} AND g.item_id = i.id AND g.action = 'stop' AND g.due_at = i.auto_stop_at)
            ) due`,
      );
      if (row?.dueAt !== null && row?.dueAt !== undefined) oldest = Math.min(oldest, Number(row.dueAt));
    }
    return now - oldest;
  }

  private async applyBatch(kind: Kind, action: 'start' | 'stop'): Promise<{ outcomes: AutopublishOutcome[]; mails: Mail[] }> {
    const now = epochSeconds(this.context.clock.now());
    const { items } = TABLES[kind];
    const outcomes: AutopublishOutcome[] = [];
    const mails: Mail[] = [];
    await this.context.db.transaction(async (tx) => {
      const due = await rows<Due>(
        tx,
        action === 'start'
          ? sql`SELECT i.id, i.name, i.auto_start_at AS "dueAt" FROM ${items} i
                WHERE NOT i.published AND NOT i.archived AND i.auto_start_at <= ${now} AND (i.auto_stop_at IS NULL OR i.auto_stop_at > ${now})
                  AND NOT EXISTS (SELECT 1 FROM autopublish_log g WHERE g.kind = ${kind} AND g.item_id = i.id AND g.action = 'start' AND g.due_at = i.auto_start_at)
                ORDER BY i.id LIMIT ${BATCH} FOR UPDATE OF i SKIP LOCKED`
          : sql`SELECT i.id, i.name, i.auto_stop_at AS "dueAt" FROM ${items} i
                WHERE i.published AND i.auto_stop_at <= ${now}
                  AND NOT EXISTS (SELECT 1 FROM autopublish_log g WHERE g.kind = ${kind} AND g.item_id = i.id AND g.action = 'stop' AND g.due_at = i.auto_stop_at)
                ORDER BY i.id LIMIT ${BATCH} FOR UPDATE OF i SKIP LOCKED`,
      );
      for (const item of due) {
        const applied = await this.apply(tx, kind, action, item, now);
        if (!applied) continue;
        outcomes.push(applied.outcome);
        if (applied.mail) mails.push(applied.mail);
      }
    });
    return { outcomes, mails };
  }

  private async apply(tx: Executor, kind: Kind, action: 'start' | 'stop', item: Due, now: number) {
    const { model, audiences } = await loadItem(tx, kind, item.id);
    const problem = action === 'start' ? publicationError(kind, { ...model, published: true }, audiences) : null;
    const outcome = problem ? 'refused' : 'applied';
    const logged = await rows(
      tx,
      sql`INSERT INTO autopublish_log (kind, item_id, action, due_at, outcome, detail, instance)
          VALUES (${kind}, ${item.id}, ${action}, ${Number(item.dueAt)}, ${outcome}, ${problem ?? ''}, ${INSTANCE})
          ON CONFLICT (kind, item_id, action, due_at) DO NOTHING RETURNING id`,
    );
    if (!logged.length) return null;
    if (!problem) {
      await tx.execute(
        action === 'start'
          ? sql`UPDATE ${TABLES[kind].items} SET published = true, published_at = ${now}, unpublished_at = NULL, updated_at = ${now}, version = version + 1, updated_by = NULL WHERE id = ${item.id}`
          : sql`UPDATE ${TABLES[kind].items} SET published = false, unpublished_at = ${now}, updated_at = ${now}, version = version + 1, updated_by = NULL WHERE id = ${item.id}`,
      );
      if (kind === 'advert') await bumpContentVersion(tx);
      const { model: after } = await loadItem(tx, kind, item.id);
      await recordHistory(
        tx,
        kind,
        item.id,
        action === 'start' ? 'autopublish' : 'autounpublish',
        { id: null, name: 'Publication automatique' },
        model,
        after,
      );
    }
    const options = model.autoPublishOptions;
    const date = new Date(now * 1000).toLocaleString('fr-FR', { timeZone: 'Europe/Paris' });
    const values = { name: model.name, date, reason: problem ?? '' };
    const templates =
      problem !== null
        ? [AUTOPUBLISH_MAILS.refusedSubject, AUTOPUBLISH_MAILS.refusedBody]
        : action === 'start'
          ? [AUTOPUBLISH_MAILS.startedSubject, AUTOPUBLISH_MAILS.startedBody]
          : [AUTOPUBLISH_MAILS.stoppedSubject, AUTOPUBLISH_MAILS.stoppedBody];
    const mail =
      options.activated && options.emails.length
        ? { to: options.emails, subject: fill(templates[0], values), text: fill(templates[1], values) }
        : null;
    return { outcome: { kind, id: item.id, action, outcome } as AutopublishOutcome, mail };
  }

  /** Items whose published state disagrees with their dates (spec platform §3 Autopublish report). */
  async report(): Promise<{ shouldBePublished: ReportItem[]; shouldBeUnpublished: ReportItem[] }> {
    const now = epochSeconds(this.context.clock.now());
    const list = async (condition: ReturnType<typeof sql>) => {
      const found: ReportItem[] = [];
      for (const kind of ['advert', 'article'] as const) {
        const items = await rows<Omit<ReportItem, 'kind'> & { autoStartAt: string | number | null; autoStopAt: string | number | null }>(
          this.context.db,
          sql`SELECT i.id, i.name, i.published, i.auto_start_at AS "autoStartAt", i.auto_stop_at AS "autoStopAt" FROM ${TABLES[kind].items} i
              WHERE ${condition} ORDER BY i.id LIMIT 500`,
        );
        found.push(...items.map((item) => ({ ...item, kind, autoStartAt: num(item.autoStartAt), autoStopAt: num(item.autoStopAt) })));
      }
      return found;
    };
    return {
      shouldBePublished: await list(
        sql`NOT i.published AND NOT i.archived AND i.auto_start_at <= ${now} AND (i.auto_stop_at IS NULL OR i.auto_stop_at > ${now})`,
      ),
      shouldBeUnpublished: await list(sql`i.published AND i.auto_stop_at <= ${now}`),
    };
  }
}

interface ReportItem {
  id: number;
  kind: Kind;
  name: string;
  published: boolean;
  autoStartAt: number | null;
  autoStopAt: number | null;
}

const num = (value: string | number | null) => (value === null ? null : Number(value));

const jobs = new WeakMap<ServerContext, AutopublishJob>();

/** The job of a server (tests drive it with a controlled clock and autopublishIntervalMs 0). */
export function autopublishJobOf(context: ServerContext): AutopublishJob | undefined {
  return jobs.get(context);
}

export function startAutopublish(context: ServerContext): AutopublishJob {
  const job = new AutopublishJob(context);
  jobs.set(context, job);
  job.start(context.config.autopublishIntervalMs ?? 30_000);
  context.onClose(() => job.stop());
  context.metrics.gauge(
    'backoffice_autopublish_lag_seconds',
    'Age of the oldest autoStartAt or autoStopAt that is due and not yet applied (0: none).',
    () => job.lagSeconds(),
  );
  return job;
}
