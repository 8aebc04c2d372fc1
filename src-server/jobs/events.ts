import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type pg from 'pg';
import type { JobEvent } from '@shared/jobs';
import { hasAnyRole, type Role } from '@shared/roles';
import type { Database, DatabaseKind } from '../db/client';

/**
 * Who may see a job's events: the account named, and every account holding one of the roles (ADMIN passes, as in
 * every any-of check). An audience naming neither is seen by no one.
 */
export interface JobAudience {
  accountId?: number;
  roles?: Role[];
}

/** A signed-in caller of the event stream, as the guard read it. */
export interface JobSubscriber {
  accountId: number;
  roles: readonly Role[];
}

export function mayReceive(audience: JobAudience, subscriber: JobSubscriber): boolean {
  if (audience.accountId !== undefined && audience.accountId === subscriber.accountId) return true;
  return audience.roles !== undefined && audience.roles.length > 0 && hasAnyRole(subscriber.roles, audience.roles);
}

/** The PostgreSQL channel the instances share job events on. */
export const JOB_EVENTS_CHANNEL = 'backoffice_job_events';
/** The channel telling the instances that an account changed for the guard (auth/account-cache.ts). */
export const ACCOUNT_CHANGES_CHANNEL = 'backoffice_account_changes';
/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more: stay under it. */
export const MAX_NOTIFY_BYTES = 7900;
/** Events sent to the other instances in one statement, at most (each its own NOTIFY, in order). */
const NOTIFY_BATCH = 500;

interface Notification {
  /** The instance that published it (it delivered it to its own subscribers already). */
  origin: string;
  event: JobEvent;
  audience: JobAudience;
}

/** The NOTIFY payload of an event: its message dropped if too long, null if it still does not fit. */
export function notifyPayload(notification: Notification): string | null {
  let text = JSON.stringify(notification);
  if (Buffer.byteLength(text) < MAX_NOTIFY_BYTES) return text;
  const { message: _dropped, ...event } = notification.event;
  text = JSON.stringify({ ...notification, event });
  return Buffer.byteLength(text) < MAX_NOTIFY_BYTES ? text : null;
}

type Listener = (event: JobEvent) => void;

/**
 * Job events of the server: `publish` hands an event to every subscriber of this instance that may see it, and on
 * PostgreSQL to the other instances too (NOTIFY on one channel, each instance LISTENing on its own connection,
 * reopened with backoff when it drops). Nothing is stored: a page that (re)opens reads the job's state from its
 * feature's GET call, then follows the events.
 */
export class JobEvents {
  private readonly subscribers = new Map<Listener, JobSubscriber>();
  private readonly accountListeners = new Set<(accountId: number) => void>();
  private readonly origin = randomUUID();
  private listener: pg.Client | null = null;
  private closed = false;
  private retry: NodeJS.Timeout | null = null;
  private attempts = 0;
  /** Events for the other instances not sent yet, by job (kind and id), oldest first. */
  private readonly unsent = new Map<string, string>();
  private sending: Promise<void> | null = null;
  /** Resolved once this instance LISTENs (PostgreSQL), at once otherwise: tests wait for it. */
  readonly ready: Promise<void>;

  constructor(private readonly options: { db: Database; dbKind: DatabaseKind; logger: Logger }) {
    this.ready = options.dbKind === 'postgresql' ? this.listen() : Promise.resolve();
  }

  publish(event: JobEvent, audience: JobAudience): void {
    this.deliver(event, audience);
    if (this.options.dbKind !== 'postgresql' || this.closed) return;
    const payload = notifyPayload({ origin: this.origin, event, audience });
    if (payload === null) {
      this.options.logger.warn({ kind: event.kind, id: event.id }, 'job event too large for NOTIFY: other instances miss it');
      return;
    }
    // Newest last: a job published again before its last state went out keeps only the new one.
    const key = `${event.kind}\u0000${event.id}`;
    this.unsent.delete(key);
    this.unsent.set(key, payload);
    this.flushUnsent();
  }

  private flushUnsent(): void {
    if (this.sending || this.unsent.size === 0) return;
    this.sending = this.sendUnsent().finally(() => {
      this.sending = null;
      // Published while the last statement's answer was on its way.
      this.flushUnsent();
    });
  }

  /**
   * Sends the events waiting for the other instances, many per statement, until none wait. An event is its job's
   * whole state, so while a statement runs only each job's newest state waits: a burst of progress events takes a
   * few statements, not one pool query each ahead of the API's own (they queued 20,000 deep in a test).
   */
  private async sendUnsent(): Promise<void> {
    while (this.unsent.size > 0) {
      const batch = [...this.unsent].slice(0, NOTIFY_BATCH);
      for (const [key] of batch) this.unsent.delete(key);
      const payloads = batch.map(([, payload]) => payload);
      await this.pool()
        .query('SELECT pg_notify($1, payload) FROM unnest($2::text[]) WITH ORDINALITY AS sent(payload, n) ORDER BY n', [JOB_EVENTS_CHANNEL, payloads])
        .catch((error: unknown) => this.options.logger.warn({ err: error, events: payloads.length }, 'job events not sent to the other instances'));
    }
  }

  /**
   * Tells the other instances that an account changed (its roles, password, sessions, or it was deleted), on the
   * same listening connection as the job events; this instance's own cache was told already.
   */
  publishAccountChange(accountId: number): void {
    if (this.options.dbKind !== 'postgresql' || this.closed) return;
    this.pool()
      .query('SELECT pg_notify($1, $2)', [ACCOUNT_CHANGES_CHANNEL, `${this.origin}:${accountId}`])
      .catch((error: unknown) => this.options.logger.warn({ err: error }, 'account change not sent to the other instances'));
  }

  /** Calls `listener` with the id of each account another instance changed. */
  onAccountChange(listener: (accountId: number) => void): void {
    this.accountListeners.add(listener);
  }

  /** Calls `listener` with every event `subscriber` may see, until the returned function is called. */
  subscribe(subscriber: JobSubscriber, listener: Listener): () => void {
    this.subscribers.set(listener, subscriber);
    return () => {
      this.subscribers.delete(listener);
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    // What was published before the close still reaches the other instances (the pool closes after this).
    while (this.sending) await this.sending;
    if (this.retry) clearTimeout(this.retry);
    this.subscribers.clear();
    const client = this.listener;
    this.listener = null;
    await client?.end().catch(() => undefined);
  }

  private deliver(event: JobEvent, audience: JobAudience): void {
    for (const [listener, subscriber] of this.subscribers) {
      if (!mayReceive(audience, subscriber)) continue;
      try {
        listener(event);
      } catch (error) {
        this.options.logger.warn({ err: error }, 'job event subscriber failed');
      }
    }
  }

  private pool(): pg.Pool {
    return (this.options.db as unknown as { $client: pg.Pool }).$client;
  }

  /** One connection of its own (not the pool's) LISTENing; on loss, another after a backoff up to 10 s. */
  private async listen(): Promise<void> {
    const { default: pgModule } = await import('pg');
    const client = new pgModule.Client(this.pool().options);
    const lost = (error?: Error) => {
      if (this.listener !== client) return;
      this.listener = null;
      void client.end().catch(() => undefined);
      if (this.closed) return;
      this.options.logger.warn({ err: error }, 'job events listener lost; reconnecting');
      this.scheduleListen();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', (message) => {
      if (message.channel === JOB_EVENTS_CHANNEL && message.payload) this.received(message.payload);
      if (message.channel === ACCOUNT_CHANGES_CHANNEL && message.payload) this.accountChanged(message.payload);
    });
    try {
      this.listener = client;
      await client.connect();
      await client.query(`LISTEN ${JOB_EVENTS_CHANNEL}`);
      await client.query(`LISTEN ${ACCOUNT_CHANGES_CHANNEL}`);
      this.attempts = 0;
    } catch (error) {
      if (this.listener === client) lost(error as Error);
    }
  }

  private scheduleListen(): void {
    const delay = Math.min(10_000, 250 * 2 ** this.attempts);
    this.attempts += 1;
    this.retry = setTimeout(() => {
      this.retry = null;
      if (!this.closed) void this.listen();
    }, delay);
    this.retry.unref();
  }

  private accountChanged(payload: string): void {
    const [origin, id] = payload.split(':');
    const accountId = Number(id);
    if (origin === this.origin || !Number.isSafeInteger(accountId)) return;
    for (const listener of this.accountListeners) listener(accountId);
  }

  private received(payload: string): void {
    let notification: Notification;
    try {
      notification = JSON.parse(payload) as Notification;
    } catch {
      return;
    }
    if (notification.origin === this.origin || !notification.event || !notification.audience) return;
    this.deliver(notification.event, notification.audience);
  }
}
