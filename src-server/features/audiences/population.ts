import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import * as schema from '../../db/schema';
import type { PopulationEvent, PopulationUser } from '@shared/contract/audiences/population';
import { AUDIENCE_MESSAGES, FIELD_LABELS, VALIDATION_MESSAGES } from '@shared/messages';
import { PROFESSIONS, SPECIALTIES } from '@shared/reference';
import { PUSH_TOKEN_LABEL } from '@shared/rules/push';
import { driverOf, type Database } from '../../db/client';
import { copyText } from '../../db/copy';
import { isUniqueViolation } from '../../accounts/queries';
import { HttpError } from '../../errors';
import type { AudienceEngine } from './engine/engine';
import { INDEXED_ITEM_LABELS } from './engine/bitmap-index';
import { attributeValues } from './engine/semantics';
import { arrayLiteral } from './queries/array-literal';
import { param, rows, type Executor } from '../../db/rows';
import { upsertNodes } from './queries/nodes';
import { userAttributeColumns, type UserAttributeRow } from './queries/population';

/** 400 naming the row and its field, like validation does: 'Élément 3 — externalId : en double dans la requête'. */
export function rowError(index: number, field: string, reason: string): HttpError {
  return new HttpError(400, `${VALIDATION_MESSAGES.row} ${index} — ${FIELD_LABELS[field] ?? field} : ${reason}`, {}, `${index}.${field}`);
}

const professionNames = new Map(PROFESSIONS.map((item) => [String(item.id), item.name]));
const specialtyNames = new Map(SPECIALTIES.map((item) => [String(item.id), item.name]));

/** The shown name of an attribute node: the reference name for professions and specialties, the e-mail for a user. */
export function attributeNodeName(label: string, value: string, email: string): string {
  if (label === 'Profession') return professionNames.get(value) ?? value;
  if (label === 'Specialty') return specialtyNames.get(value) ?? value;
  if (label === 'User') return email || value;
  return value;
}

/** Attribute nodes (User nodes included) for the given users, so that node search finds every value in use. */
export async function upsertAttributeNodes(db: Executor, users: UserAttributeRow[]): Promise<void> {
  const list = users.flatMap((user) =>
    attributeValues(user).map(([label, value]) => ({ label, value, name: attributeNodeName(label, value, user.email) })),
  );
  // One order for every writer, across the statements too: concurrent ingestions then wait for each other, never deadlock.
  list.sort(byLabelAndValue);
  for (let start = 0; start < list.length; start += 20_000) await upsertNodes(db, list.slice(start, start + 20_000));
}

/** Whether a database error is PostgreSQL breaking a deadlock (40P01), wherever drizzle wrapped it. */
export function isDeadlock(error: unknown): boolean {
  for (let e = error as { code?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code === '40P01') return true;
  }
  return false;
}

/**
 * Runs a transaction, and once more if PostgreSQL chose it as the victim of a deadlock: writers lock rows in one
 * order (externalId, then node label and value), so what remains is rare (a row committed by a third writer between
 * the lock of the existing rows and the upsert) and passes on the second try.
 */
export async function retryingDeadlockOnce<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!isDeadlock(error)) throw error;
    return run();
  }
}

const byExternalId = (a: PopulationUser, b: PopulationUser) => (a.externalId < b.externalId ? -1 : a.externalId > b.externalId ? 1 : 0);
const byLabelAndValue = (a: { label: string; value: string }, b: { label: string; value: string }) =>
  a.label < b.label ? -1 : a.label > b.label ? 1 : a.value < b.value ? -1 : a.value > b.value ? 1 : 0;

/**
 * Users one transaction of a batch writes on PGlite (10 to 30 ms there, bench pglite-writes): its one connection
 * answers nothing else while a transaction is open, and a batch of 10,000 in one held every other call for seconds.
 */
export const PGLITE_USERS_PER_TRANSACTION = 100;

/**
 * Upserts app users by externalId. The attributes before and after go to the engine (after each commit) and to
 * other instances (population_changes). `usersPerTransaction` (PGlite) writes the batch in several transactions,
 * each all or nothing, in externalId order: a failure leaves the first ones written, which the sender's retry of
 * the batch (idempotent, README) writes again unchanged. Otherwise the batch is one transaction.
 */
export async function ingestUsers(
  db: Database,
  engine: AudienceEngine,
  users: PopulationUser[],
  options: { usersPerTransaction?: number } = {},
): Promise<{ inserted: number; updated: number }> {
  const seen = new Map<string, number>();
  users.forEach((user, index) => {
    if (seen.has(user.externalId)) throw rowError(index, 'externalId', AUDIENCE_MESSAGES.duplicateInRequest);
    seen.set(user.externalId, index);
  });
  // A token sent by two users of the batch goes to the last one sent, whichever transaction writes it.
  const tokenOwners = new Map<string, string>();
  for (const user of users) for (const { token } of user.pushTokens ?? []) tokenOwners.set(token, user.externalId);
  // Rows written in externalId order, whatever the sender's: two requests with the same new users in different
  // orders each held a row the other waited for (PostgreSQL "deadlock detected", a 500).
  const sorted = [...users].sort(byExternalId);
  const size = options.usersPerTransaction ?? sorted.length;
  let inserted = 0;
  for (let start = 0; start < sorted.length; start += size) {
    inserted += await ingestUsersChunk(db, engine, sorted.slice(start, start + size), tokenOwners);
    if (start + size < sorted.length) await nextTurn();
  }
  return { inserted, updated: users.length - inserted };
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** One transaction of ingestUsers (users in externalId order); answers how many were new. */
async function ingestUsersChunk(db: Database, engine: AudienceEngine, users: PopulationUser[], tokenOwners: Map<string, string>): Promise<number> {
  const json = JSON.stringify(
    users.map((user) => ({
      external_id: user.externalId,
      email: user.email,
      name: user.name,
      profession_id: user.professionId ?? null,
      specialty_id: user.specialtyId ?? null,
      title: user.title ?? null,
      area: user.area ?? null,
      country_id: user.countryId ?? null,
      zipcode: user.zipcode || null,
      uga: user.uga || null,
      workplace: user.workplace || null,
      roles: [...new Set(user.roles)],
      feeds: [...new Set(user.feeds)],
      apps: [...new Set(user.apps)],
      os: user.os ?? null,
      created_at: user.createdAt ?? null,
    })),
  );
  const changes: { id: number; before: [string, string][]; after: [string, string][] }[] = [];
  let inserted = 0;
  await retryingDeadlockOnce(() =>
    db.transaction(async (tx) => {
      changes.length = 0;
      inserted = 0;
      await engine.ownTransaction(tx);
      // Locked, so that a concurrent upsert of the same user waits and its 'before' is what this one wrote.
      const before = await rows<UserAttributeRow>(
        tx,
        sql`SELECT ${userAttributeColumns} FROM app_users WHERE external_id = ANY(${param(users.map((user) => user.externalId))}::text[]) ORDER BY id FOR UPDATE`,
      );
      const after = await rows<UserAttributeRow & { inserted: boolean }>(
        tx,
        sql`INSERT INTO app_users (external_id, email, name, profession_id, specialty_id, title, area, country_id, zipcode, uga, workplace, roles, feeds, apps, os, created_at)
            SELECT external_id, email, name, profession_id, specialty_id, title, area, country_id, zipcode, uga, workplace, roles, feeds, apps, os, coalesce(created_at, now())
            FROM jsonb_to_recordset(${param(json)}::jsonb) AS r(external_id text, email text, name text, profession_id int, specialty_id int, title text, area text,
                 country_id int, zipcode text, uga text, workplace text, roles text[], feeds text[], apps text[], os text, created_at timestamptz)
            ON CONFLICT (external_id) DO UPDATE SET email = excluded.email, name = excluded.name, profession_id = excluded.profession_id,
              specialty_id = excluded.specialty_id, title = excluded.title, area = excluded.area, country_id = excluded.country_id, zipcode = excluded.zipcode,
              uga = excluded.uga, workplace = excluded.workplace, roles = excluded.roles, feeds = excluded.feeds, apps = excluded.apps, os = excluded.os, updated_at = now()
            RETURNING ${userAttributeColumns}, (xmax = 0) AS inserted`,
      );
      await upsertAttributeNodes(tx, after);
      const pushBefore = await pushValuesOf(tx, before);
      await replacePushTokens(tx, users, after, tokenOwners);
      const pushAfter = await pushValuesOf(tx, after);
      const previous = new Map(before.map((user) => [user.id, [...attributeValues(user), ...(pushBefore.get(user.id) ?? [])]]));
      for (const user of after) {
        if (user.inserted) inserted += 1;
        changes.push({ id: user.id, before: previous.get(user.id) ?? [], after: [...attributeValues(user), ...(pushAfter.get(user.id) ?? [])] });
      }
      await engine.publish(tx, { kind: 'users', payload: { users: changes } });
    }),
  );
  engine.applyUsers({ kind: 'users', payload: { users: changes } });
  return inserted;
}

/**
 * The index values of the push feature (docs/push.md) for these users: their OS, and PushToken when they hold a token.
 * Not attribute nodes (audiences do not target them): only the index and other instances' replay see them.
 */
async function pushValuesOf(tx: Executor, users: { id: number }[]): Promise<Map<number, [string, string][]>> {
  const values = new Map<number, [string, string][]>();
  if (!users.length) return values;
  const found = await rows<{ id: number; os: string | null; token: boolean }>(
    tx,
    sql`SELECT u.id, u.os, EXISTS (SELECT 1 FROM app_user_push_tokens t WHERE t.user_id = u.id) AS token
        FROM app_users u WHERE u.id = ANY(${param(users.map((user) => user.id))}::int[])`,
  );
  for (const { id, os, token } of found) {
    const pairs: [string, string][] = [];
    if (os) pairs.push(['Os', os]);
    if (token) pairs.push([PUSH_TOKEN_LABEL, 'any']);
    values.set(id, pairs);
  }
  return values;
}

/**
 * Replaces the push tokens of the users that sent `pushTokens`; a token sent by another user moves to them (within
 * the batch, to the last user that sent it: `owners`).
 */
async function replacePushTokens(
  tx: Executor,
  users: PopulationUser[],
  written: { id: number; externalId: string }[],
  owners: Map<string, string>,
): Promise<void> {
  const ids = new Map(written.map((user) => [user.externalId, user.id]));
  const sending = users.filter((user) => user.pushTokens);
  if (!sending.length) return;
  const userIds = sending.map((user) => ids.get(user.externalId)!);
  await tx.execute(sql`DELETE FROM app_user_push_tokens WHERE user_id = ANY(${param(userIds)}::int[])`);
  const tokens = new Map<string, { user_id: number; platform: string; token: string }>();
  for (const user of sending)
    for (const { platform, token } of user.pushTokens!)
      if (owners.get(token) === user.externalId) tokens.set(token, { user_id: ids.get(user.externalId)!, platform, token });
  if (!tokens.size) return;
  const list = [...tokens.values()].sort((a, b) => (a.token < b.token ? -1 : a.token > b.token ? 1 : 0));
  await tx.execute(
    sql`INSERT INTO app_user_push_tokens (user_id, platform, token)
        SELECT user_id, platform, token FROM jsonb_to_recordset(${param(JSON.stringify(list))}::jsonb) AS r(user_id int, platform text, token text)
        ON CONFLICT (token) DO UPDATE SET user_id = excluded.user_id, platform = excluded.platform`,
  );
}

/**
 * PostgreSQL: the events as COPY text, 10,000 rows a piece built while the database takes the previous one. COPY
 * parses its rows faster than unnest of array literals (306 – 349 ms against 499 – 506 ms for 50,000 events).
 */
async function copyEvents(client: pg.PoolClient, events: PopulationEvent[], userIdOf: Int32Array, nodeIdOf: Int32Array): Promise<void> {
  function* pieces() {
    for (let start = 0; start < events.length; start += INSERT_CHUNK) {
      let text = '';
      for (let index = start; index < Math.min(events.length, start + INSERT_CHUNK); index += 1) {
        const { eventId, event, at } = events[index];
        text += `${copyText(eventId)}\t${userIdOf[index]}\t${nodeIdOf[index]}\t${copyText(event)}\t${at}\n`;
      }
      yield text;
    }
  }
  await pipeline(Readable.from(pieces()), client.query(copyFrom('COPY interaction_events (event_id, user_id, node_id, event, at) FROM STDIN')));
}

/** Rows per INSERT of one ingestion: the next chunk's columns are built while the database inserts the previous one. */
const INSERT_CHUNK = 10_000;

/**
 * Adds events, idempotent by eventId; unknown items get their node. All or nothing.
 * The Node work (array literals of 50,000 rows) overlaps the database's: the next statement's text is built while the
 * database runs the previous one (and the id-free columns while it looks the users up).
 */
export async function ingestEvents(
  db: Database,
  engine: AudienceEngine,
  events: PopulationEvent[],
): Promise<{ inserted: number; duplicates: number }> {
  const externalIds = [...new Set(events.map((event) => event.userExternalId))];
  const chunks: { start: number; end: number }[] = [];
  for (let start = 0; start < events.length; start += INSERT_CHUNK) chunks.push({ start, end: Math.min(events.length, start + INSERT_CHUNK) });
  let added: { userId: number; nodeId: number; event: string }[] = [];
  let inserted = 0;
  // PostgreSQL: the transaction on a connection of its own, where the events go by COPY.
  const driver = driverOf(db);
  const pool = driver instanceof pg.Pool ? driver : undefined;
  const copyClient = pool ? await pool.connect() : undefined;
  const onConnection = copyClient ? (drizzle(copyClient, { schema }) as unknown as Database) : db;
  try {
    await onConnection.transaction(async (tx) => {
      await engine.ownTransaction(tx);
      const usersAnswer = rows<{ id: number; externalId: string }>(
        tx,
        sql`SELECT id, external_id AS "externalId" FROM app_users WHERE external_id = ANY(${arrayLiteral(externalIds)}::text[])`,
      );
      // The columns that need no id (event names and validated timestamps need no escaping), for the INSERTs: built
      // while the database looks the users up, unless COPY writes the events (then only should a duplicate need them).
      const ownColumnsOf = ({ start, end }: { start: number; end: number }) => {
        const slice = events.slice(start, end);
        return {
          eventIds: arrayLiteral(slice.map((event) => event.eventId)),
          names: arrayLiteral(slice.map((event) => event.event)),
          ats: arrayLiteral(slice.map((event) => event.at)),
        };
      };
      const ownColumns = copyClient ? [] : chunks.map(ownColumnsOf);
      // One pass over the events: each one's user id (an unknown user refuses the request, naming its row) and item.
      const userIds = new Map((await usersAnswer).map((user) => [user.externalId, user.id]));
      const userIdOf = new Int32Array(events.length);
      // label → name → id, without a key string per event.
      const itemIds = new Map<string, Map<string, number>>();
      const items: { label: string; value: string; name: string }[] = [];
      events.forEach(({ userExternalId, node }, index) => {
        const userId = userIds.get(userExternalId);
        if (userId === undefined) throw rowError(index, 'userExternalId', AUDIENCE_MESSAGES.unknownUser);
        userIdOf[index] = userId;
        let names = itemIds.get(node.label);
        if (!names) itemIds.set(node.label, (names = new Map()));
        if (!names.has(node.name)) {
          names.set(node.name, 0);
          items.push({ label: node.label, value: node.name, name: node.name });
        }
      });
      const nodes = await upsertNodes(tx, items);
      for (const node of nodes) itemIds.get(node.label)!.set(node.value, node.id);
      const nodeIdOf = Int32Array.from(events, (event) => itemIds.get(event.node.label)!.get(event.node.name)!);
      const columnsOf = (index: number) => {
        const { start, end } = chunks[index];
        const { eventIds, names, ats } = (ownColumns[index] ??= ownColumnsOf(chunks[index]));
        return sql`unnest(${eventIds}::text[], ${arrayLiteral(userIdOf.subarray(start, end))}::int[], ${arrayLiteral(nodeIdOf.subarray(start, end))}::int[], ${names}::text[], ${ats}::timestamptz[])`;
      };
      // New events are the rule: a plain INSERT took a quarter to a third less than ON CONFLICT (no speculative
      // insertion per row). A duplicate eventId (a batch sent again, a concurrent one, twice in this request) makes it
      // fail: back to the savepoint, and ON CONFLICT skips the duplicates. Only counts come back.
      let count: number | undefined;
      try {
        count = await tx.transaction(async (savepoint) => {
          if (copyClient) {
            await copyEvents(copyClient, events, userIdOf, nodeIdOf);
            return events.length;
          }
          let running = savepoint.execute(sql`INSERT INTO interaction_events (event_id, user_id, node_id, event, at) SELECT * FROM ${columnsOf(0)}`);
          for (let index = 1; index < chunks.length; index += 1) {
            const columns = columnsOf(index);
            await running;
            running = savepoint.execute(sql`INSERT INTO interaction_events (event_id, user_id, node_id, event, at) SELECT * FROM ${columns}`);
          }
          await running;
          return events.length;
        });
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
      }
      if (count === undefined) {
        count = 0;
        for (let index = 0; index < chunks.length; index += 1) {
          const [answer] = await rows<{ count: number }>(
            tx,
            sql`WITH added AS (
                INSERT INTO interaction_events (event_id, user_id, node_id, event, at) SELECT * FROM ${columnsOf(index)}
                ON CONFLICT (event_id) DO NOTHING
                RETURNING 1)
              SELECT count(*)::int AS count FROM added`,
          );
          count += answer.count;
        }
      }
      inserted = count;
      // Labels are known from the nodes resolved above: no join with the nodes table (a million User nodes at scale).
      const indexedNodes = new Set(nodes.filter((node) => INDEXED_ITEM_LABELS.has(node.label)).map((node) => node.id));
      if (inserted === events.length) {
        added = [];
        events.forEach((event, index) => {
          if (indexedNodes.has(nodeIdOf[index])) added.push({ userId: userIdOf[index], nodeId: nodeIdOf[index], event: event.event });
        });
      } else if (inserted > 0) {
        // Which rows were new: those this transaction wrote (interaction_events_tx_idx).
        added = (
          await rows<{ userId: number; nodeId: number; event: string }>(
            tx,
            sql`SELECT user_id AS "userId", node_id AS "nodeId", event FROM interaction_events WHERE tx = pg_current_xact_id()`,
          )
        ).filter((event) => indexedNodes.has(event.nodeId));
      }
    });
  } finally {
    copyClient?.release();
  }
  engine.addEvents(added);
  return { inserted, duplicates: events.length - inserted };
}
