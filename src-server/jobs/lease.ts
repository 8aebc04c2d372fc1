import type { ServerContext } from '../context';

/**
 * Jobs that outlive a request (a CSV import, a laboratory panel load) hold a lease in their row: the instance
 * running one renews it every quarter of `JOB_LEASE_MS`. An instance killed mid-job (crash, OOM, deploy) renews
 * nothing, so past its lease any instance may end the job as failed and drop what it staged; without one, the job
 * stayed running (or pending) for ever, its cancel changing nothing, its staged rows kept. Times are the database's
 * (`now()`), the one clock every instance shares.
 */
export const JOB_LEASE_MS = 2 * 60_000;

/** `lease_until` as set at the job's start and at each renewal. */
export const LEASE_INTERVAL = `${JOB_LEASE_MS / 1000} seconds`;

/**
 * Renews a lease until `stop`: `renew` writes `lease_until = now() + LEASE_INTERVAL` for the job. A renewal that
 * fails is logged and tried again at the next tick (the lease has four of them to succeed).
 */
export function holdLease(context: Pick<ServerContext, 'logger'>, what: string, renew: () => Promise<unknown>): { stop(): void } {
  const timer = setInterval(() => {
    renew().catch((error) => context.logger.warn({ err: error, job: what }, 'job lease not renewed'));
  }, JOB_LEASE_MS / 4);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/**
 * Runs `sweep` (end the jobs whose lease expired) at start and every `config.jobSweepMs`, until the server closes.
 * Several instances may sweep at once: each job is ended by one UPDATE … RETURNING, so by one of them.
 */
export function sweepExpiredLeases(context: ServerContext, what: string, sweep: () => Promise<unknown>): void {
  let running: Promise<unknown> = Promise.resolve();
  const tick = () => {
    running = sweep().catch((error) => context.logger.warn({ err: error, job: what }, 'expired job leases not swept'));
  };
  tick();
  const timer = setInterval(tick, context.config.jobSweepMs);
  timer.unref();
  context.onClose(async () => {
    clearInterval(timer);
    await running;
  });
}
