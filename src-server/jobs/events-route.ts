import type { FastifyInstance } from 'fastify';
import type { ServerResponse } from 'node:http';
import { JOB_EVENTS_PATH, JOB_EVENT_SSE_NAME, type JobEvent } from '@shared/jobs';
import { STREAM_MESSAGES } from '@shared/messages';
import { access } from '@shared/roles';
import { authorize } from '../auth/guard';
import type { ServerContext } from '../context';
import { HttpError } from '../errors';

/** A comment line this often keeps proxies and the client's body timeout from taking a quiet stream for a dead one. */
export const JOB_EVENTS_HEARTBEAT_MS = 20_000;

/**
 * GET /jobs/events: the job events the caller may see (JobEvents audiences), as server-sent events. The bearer
 * access token is checked as for any operation (roles read from the database); the stream ends when that token
 * expires, so the client reconnects with a refreshed one and its roles are read again. Closing the server ends
 * every stream (the clients reconnect to another instance, or to this one once restarted).
 */
export function registerJobEventsRoute(app: FastifyInstance, context: ServerContext): void {
  const open = new Set<ServerResponse>();
  const perAccount = new Map<number, number>();
  app.addHook('preClose', async () => {
    for (const stream of open) stream.end();
    open.clear();
  });
  context.metrics.gauge(
    'backoffice_job_event_streams',
    'GET /jobs/events streams open on this instance (job progress and presence).',
    () => open.size,
  );

  app.get(JOB_EVENTS_PATH, { logLevel: 'warn' }, async (request, reply) => {
    const account = await authorize(context, access.authenticated, request.headers.authorization);
    const token = await context.tokens.verify(/^Bearer (\S+)$/.exec(request.headers.authorization ?? '')![1]!, 'access');
    if (!account || !token) return reply.code(401).send();
    // Counted and taken in one synchronous step after the awaits: parallel opens cannot pass the caps together.
    const mine = perAccount.get(account.id) ?? 0;
    if (mine >= context.config.maxJobStreamsPerAccount) {
      throw new HttpError(429, STREAM_MESSAGES.tooManyStreamsForAccount(context.config.maxJobStreamsPerAccount), { 'retry-after': '15' });
    }
    if (open.size >= context.config.maxJobStreams) throw new HttpError(503, STREAM_MESSAGES.tooManyStreams, { 'retry-after': '15' });
    perAccount.set(account.id, mine + 1);
    const stream = reply.raw;
    reply.hijack();
    stream.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive', 'x-accel-buffering': 'no' });
    stream.write(': connected\n\n');
    open.add(stream);
    const sender = coalescingSender(stream);
    const unsubscribe = context.jobEvents.subscribe({ accountId: account.id, roles: account.roles }, sender.send);
    const heartbeat = setInterval(sender.ping, JOB_EVENTS_HEARTBEAT_MS);
    // Past the access token's expiry the caller must prove itself again (a refreshed token, roles re-read).
    const expiry = setTimeout(() => stream.end(), Math.max(0, token.expiresAt.getTime() - context.clock.now().getTime()));
    heartbeat.unref();
    expiry.unref();
    let closed = false;
    const release = () => {
      if (closed) return;
      closed = true;
      unsubscribe();
      clearInterval(heartbeat);
      clearTimeout(expiry);
      open.delete(stream);
      const left = (perAccount.get(account.id) ?? 1) - 1;
      if (left > 0) perAccount.set(account.id, left);
      else perAccount.delete(account.id);
    };
    stream.on('close', release);
    // A caller gone while it was authorized has no 'close' left to come: its place is given back now.
    if (request.raw.socket.destroyed) release();
  });
}

/**
 * Writes events to one stream without buffering without end: while the client does not read (its socket buffer is
 * full), only the newest event of each job is kept, and those go out once the stream drains. An event is a job's
 * whole state (progress counters, state), so the client that catches up sees every job as it is now.
 */
export function coalescingSender(stream: Pick<ServerResponse, 'write' | 'once'>) {
  const waiting = new Map<string, JobEvent>();
  let draining = false;
  const write = (text: string) => {
    if (!stream.write(text)) {
      draining = true;
      stream.once('drain', flush);
    }
  };
  const flush = () => {
    draining = false;
    const events = [...waiting.values()];
    waiting.clear();
    for (const event of events) send(event);
  };
  const send = (event: JobEvent) => {
    if (draining) waiting.set(`${event.kind}\u0000${event.id}`, event);
    else write(`event: ${JOB_EVENT_SSE_NAME}\ndata: ${JSON.stringify(event)}\n\n`);
  };
  return {
    send,
    /** A heartbeat only when nothing is waiting: a stream that cannot drain needs no more bytes. */
    ping: () => {
      if (!draining) write(': ping\n\n');
    },
  };
}
