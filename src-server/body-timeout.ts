import type { FastifyInstance } from 'fastify';
import { MESSAGES } from '@shared/messages';

/**
 * A request body not received in full within `timeoutMs` is answered 408 « Requête trop lente, abandonnée » and
 * its connection closed (docs/security.md, "Streams and slow requests"). Armed just before Fastify reads the body
 * (after the start-up wait), so before any authentication: a client trickling a sign-in one byte at a time holds a
 * socket for that long at most. Uploads (multipart, read by their handler) are left to their own idle timer
 * (storage/multipart.ts): a large file on a slow link may take longer, as long as its bytes keep coming.
 */
export function registerBodyTimeout(app: FastifyInstance, timeoutMs: number): void {
  if (timeoutMs <= 0) return;
  app.addHook('preParsing', async (request, reply, payload) => {
    const raw = request.raw;
    const length = raw.headers['content-length'];
    const hasBody = raw.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
    const multipart = /^multipart\/form-data/i.test(String(raw.headers['content-type'] ?? ''));
    if (!hasBody || multipart || raw.complete) return payload;
    const timer = setTimeout(() => {
      if (raw.complete || reply.sent) return;
      request.log.warn({ url: request.url }, 'request body too slow: cut');
      // Closed once answered: the rest of the body would never be read.
      reply.raw.once('finish', () => raw.socket?.destroy());
      void reply.code(408).header('connection', 'close').send({ errorMsg: MESSAGES.requestTimeout });
    }, timeoutMs);
    timer.unref();
    const stop = () => clearTimeout(timer);
    raw.once('end', stop);
    raw.once('close', stop);
    reply.raw.once('close', stop);
    return payload;
  });
}
