import { sql } from 'drizzle-orm';
import { index, integer, pgTable, serial, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

/** Staff accounts: read by every feature (the guard, sign-in, administration, reference data). */
export const accounts = pgTable(
  'accounts',
  {
    id: serial('id').primaryKey(),
    uuid: uuid('uuid').notNull().defaultRandom(),
    name: text('name').notNull(),
    nickname: text('nickname').notNull().default(''),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    roles: text('roles').array().notNull().default(sql`'{}'::text[]`),
    /** Access tokens issued before this instant are refused (set when the password changes). */
    tokensValidAfter: timestamp('tokens_valid_after', { withTimezone: true }),
    ...timestamps,
  },
  (table) => [
    uniqueIndex('accounts_email_lower_key').on(sql`lower(${table.email})`),
    uniqueIndex('accounts_uuid_key').on(table.uuid),
    index('accounts_name_idx').on(table.name),
  ],
);

/**
 * Password links (reset, and the welcome link of a new account: sent by auth and admin alike), stored as
 * SHA-256 hashes: a database leak gives no usable link.
 */
export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('password_reset_tokens_account_idx').on(table.accountId)],
);
