import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { JOB_EVENTS_PATH, JOB_EVENT_SSE_NAME, jobEventSchema, type JobEvent } from '@shared/jobs';
import type { ApiClient, ApiClientLogger } from './api-client';
import { equalJitter } from './retry-policy';

export interface JobEventsFollowerOptions {
  api: Pick<ApiClient, 'openStream'>;
  /** Each event the server streams, checked against the shared schema. */
  onEvent: (event: JobEvent) => void;
  logger?: ApiClientLogger;
  /** First wait after a failure, doubled up to `maxRetryMs` (default 500 ms and 15 s), then jittered (half of it random). */
  retryMs?: number;
  maxRetryMs?: number;
}

/**
 * Follows the server's job events while the session is signed in: opens GET /jobs/events with the session's
 * token, relays each event, and reopens the stream when it ends (the server ends it when the access token
 * expires: the next one is refreshed) or fails (server restarting: backoff). Signed out, it waits for `wake()`
 * (a sign-in). Missed events need no replay: a page reads its job's state with its own GET when it opens.
 */
export class JobEventsFollower {
  private closed = false;
  private running: Promise<void> | null = null;
  private current: AbortController | null = null;
  private waiting: (() => void) | null = null;
  /** A sign-in came since the last attempt began: a pause for one returns at once. */
  private wakeRequested = false;
  private readonly retryMs: number;
  private readonly maxRetryMs: number;

  constructor(private readonly options: JobEventsFollowerOptions) {
    this.retryMs = options.retryMs ?? 500;
    this.maxRetryMs = options.maxRetryMs ?? 15_000;
  }

  /** Starts following (at once if a session is stored), or wakes a follower waiting for a sign-in. */
  wake(): void {
    if (this.closed) return;
    this.wakeRequested = true;
    this.running ??= this.run().finally(() => (this.running = null));
    this.waiting?.();
  }

  /** Signed out: drops the stream and waits for the next `wake()`. */
  pause(): void {
    this.current?.abort();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.current?.abort();
    this.waiting?.();
    await this.running;
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.closed) {
      this.wakeRequested = false;
      const controller = new AbortController();
      this.current = controller;
      const started = Date.now();
      let opened: Awaited<ReturnType<ApiClient['openStream']>>;
      try {
        opened = await this.options.api.openStream(JOB_EVENTS_PATH, controller.signal);
      } catch {
        opened = { ok: false, status: 0, errorMsg: 'aborted' };
      }
      if (this.closed) return;
      if (!opened.ok && (opened.status === 401 || controller.signal.aborted)) {
        // Signed out (or paused at sign-out): nothing to follow until the next sign-in.
        failures = 0;
        await this.pauseUntil(null);
        continue;
      }
      if (opened.ok) {
        await this.relay(opened.data, controller.signal);
        if (controller.signal.aborted) {
          await this.pauseUntil(null);
          continue;
        }
      }
      // A stream that lasted is a normal end (token expiry): reopen at once; quick failures back off.
      failures = opened.ok && Date.now() - started > 5_000 ? 0 : failures + 1;
      // Jittered: every desktop app of a team reconnects when the server restarts, not all at one instant.
      if (failures > 0) await this.pauseUntil(equalJitter(Math.min(this.maxRetryMs, this.retryMs * 2 ** (failures - 1))));
    }
  }

  private async relay(body: AsyncIterable<Uint8Array>, signal: AbortSignal): Promise<void> {
    const decoder = new TextDecoder();
    const parser = createParser({ onEvent: (message) => this.received(message) });
    try {
      for await (const chunk of body) {
        if (signal.aborted) return;
        parser.feed(decoder.decode(chunk, { stream: true }));
      }
    } catch {
      // Cut connection, silence past the idle limit, abort: the loop decides what comes next.
    }
  }

  private received(message: EventSourceMessage): void {
    if (message.event !== JOB_EVENT_SSE_NAME) return;
    const checked = jobEventSchema.safeParse(safeJson(message.data));
    if (checked.success) this.options.onEvent(checked.data);
    else this.options.logger?.warn({ issues: checked.error.issues.slice(0, 3) }, 'job event does not match the contract');
  }

  /** Waits for `wake()` or `close()` (at once if one came meanwhile), or `ms` when given. */
  private pauseUntil(ms: number | null): Promise<void> {
    if (this.closed || (ms === null && this.wakeRequested)) return Promise.resolve();
    return new Promise((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        if (this.waiting === finish) this.waiting = null;
        resolve();
      };
      const timer = ms === null ? undefined : setTimeout(finish, ms);
      this.waiting = finish;
    });
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
