import { integer, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';

/** Mail that the embedded server could not send through SMTP; read by staff and by the tests. */
export const outbox = pgTable('outbox', {
  id: serial('id').primaryKey(),
  recipient: text('recipient').notNull(),
  subject: text('subject').notNull(),
  body: text('body').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Server-wide secrets (the JWT signing key), shared by every instance on one database. */
export const serverSecrets = pgTable('server_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Creates already done, by the Idempotency-Key their caller sent (src-server/idempotency.ts): a create retried with
 * the same key is answered from here instead of making a second record. Kept a day.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    /** Whose key: `account:<id>`, or `service` for the app platform's token. */
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    operationId: text('operation_id').notNull(),
    /** SHA-256 of the operation and its input: the same key with another request is refused. */
    fingerprint: text('fingerprint').notNull(),
    /** The answer once the create finished; null while it runs. */
    status: integer('status'),
    answer: text('answer'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.scope, table.key] })],
);
