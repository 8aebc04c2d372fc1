import { z } from 'zod';

/**
 * Progress of a long server job (push campaign, CSV import, ...), pushed from the server to the page: the server's
 * event stream (GET /jobs/events) -> main (or the web host) -> the IPC event 'job-event' -> useJobEvents. A page
 * that (re)opens reads the job's state from its feature's own GET call first, then follows these events.
 */
export interface JobEvent {
  /** The feature's name of the job kind ('push-campaign', 'csv-import', ...): what useJobEvents filters on. */
  kind: string;
  /** The job's id within its kind. */
  id: string;
  state: 'queued' | 'running' | 'done' | 'failed' | 'cancelled';
  /** Counters of the job (e.g. { done: 2, iterations: 4 }). */
  progress: Record<string, number>;
  message?: string;
  /** When it happened (epoch milliseconds, server clock). */
  at: number;
}

/** The shape main checks every event the server streams against before relaying it (and the IPC event's schema). */
export const jobEventSchema = z.object({
  kind: z.string().min(1).max(100),
  id: z.string().min(1).max(200),
  state: z.enum(['queued', 'running', 'done', 'failed', 'cancelled']),
  progress: z.record(z.string().max(100), z.number()),
  message: z.string().max(2000).optional(),
  at: z.number(),
}) satisfies z.ZodType<JobEvent>;

/** The server's event stream of job events (text/event-stream, bearer access token). */
export const JOB_EVENTS_PATH = '/jobs/events';
/** The SSE event name of a job event on that stream. */
export const JOB_EVENT_SSE_NAME = 'job';
