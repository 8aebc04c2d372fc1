import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'drizzle-orm';
import { MESSAGES } from '@shared/messages';
import type { Database } from './db/client';
import { inRequestTransaction } from './db/request-transaction';
import { rows, type Executor } from './db/rows';
import { HttpError } from './errors';

/**
 * Idempotent creates (the IETF "Idempotency-Key HTTP Header Field" draft): a caller that did not get the answer of a
 * create (connection cut, server restarting) sends it again with the same key and gets the first answer back, so one
 * record is made. The desktop client sends a key with every create (operations answering 201) and retries them;
 * outside callers may send one on any write. Keys are per caller (an account, or the app platform's token; public
 * calls have none) and kept a day.
 */
export const IDEMPOTENCY_HEADER = 'idempotency-key';
const KEY_PATTERN = /^[A-Za-z0-9_-]{8,128}$/;

interface StoredCreate {
  fingerprint: string;
  status: number | null;
  answer: string | null;
}

/**
 * Runs `create` once per (caller, key); a repeat answers what the first run answered. A create (`atomic`: the
 * operations answering 201, which the desktop client keys and retries) runs in one transaction with its claim and
 * its stored answer: a process that dies in between leaves neither the record nor the claim, and a retry sent
 * meanwhile waits for the claim's row, then replays the answer (or, the first run rolled back, creates). Other keyed
 * writes claim first and store the answer after.
 */
export async function runIdempotently(
  db: Database,
  request: FastifyRequest,
  reply: FastifyReply,
  { operationId, scope, atomic = false }: { operationId: string; scope: string; atomic?: boolean },
  create: () => Promise<unknown>,
): Promise<unknown> {
  const key = request.headers[IDEMPOTENCY_HEADER];
  if (key === undefined) return create();
  if (typeof key !== 'string' || !KEY_PATTERN.test(key)) throw new HttpError(400, MESSAGES.invalidIdempotencyKey);
  const fingerprint = createHash('sha256')
    .update(JSON.stringify([operationId, request.params ?? null, request.query ?? null, request.body ?? null]))
    .digest('hex');
  // This caller's keys older than a day go first, so the claim below can take a reused key afresh.
  await db.execute(sql`DELETE FROM idempotency_keys WHERE scope = ${scope} AND created_at < now() - interval '1 day'`);
  const claim = (tx: Executor) =>
    rows<{ key: string }>(
      tx,
      sql`INSERT INTO idempotency_keys (scope, key, operation_id, fingerprint) VALUES (${scope}, ${key}, ${operationId}, ${fingerprint})
          ON CONFLICT DO NOTHING RETURNING key`,
    );
  const store = (tx: Executor, answer: unknown) => {
    const text = typeof answer === 'string' ? answer : JSON.stringify(answer ?? null);
    return tx.execute(sql`UPDATE idempotency_keys SET status = ${reply.statusCode}, answer = ${text} WHERE scope = ${scope} AND key = ${key}`);
  };
  if (atomic) {
    // A refused or failed create rolls back with its claim: the same key may try again.
    return db.transaction(async (tx) => {
      if ((await claim(tx)).length === 0) return replay(tx, reply, scope, key, fingerprint);
      const answer = await inRequestTransaction(tx as unknown as Database, create);
      await store(tx, answer);
      return answer;
    });
  }
  if ((await claim(db)).length === 0) return replay(db, reply, scope, key, fingerprint);
  let answer: unknown;
  try {
    answer = await create();
  } catch (error) {
    // A refused or failed write made nothing: the same key may try again.
    await db.execute(sql`DELETE FROM idempotency_keys WHERE scope = ${scope} AND key = ${key}`);
    throw error;
  }
  await store(db, answer);
  return answer;
}

async function replay(db: Executor, reply: FastifyReply, scope: string, key: string, fingerprint: string): Promise<unknown> {
  const [stored] = await rows<StoredCreate>(
    db,
    sql`SELECT fingerprint, status, answer FROM idempotency_keys WHERE scope = ${scope} AND key = ${key}`,
  );
  // Gone between the claim and here (its first run failed): the caller's retry will claim it.
  if (!stored || stored.status === null || stored.answer === null) {
    throw new HttpError(409, MESSAGES.idempotencyInProgress, { 'retry-after': '1' });
  }
  if (stored.fingerprint !== fingerprint) throw new HttpError(422, MESSAGES.idempotencyKeyReused);
  reply.header('idempotent-replayed', 'true');
  reply.code(stored.status);
  return JSON.parse(stored.answer) as unknown;
}
