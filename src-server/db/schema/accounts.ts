import { sql, type SQL } from 'drizzle-orm';
import { index, integer, pgTable, serial, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
// A relative path, not @shared: electron.vite.config.ts bundles the schema (through build-template) without the alias.
import { SQL_FOLD_ACCENTED, SQL_FOLD_UNACCENTED } from '../../../src-shared/rules/fold';

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

/**
 * Text folded for search: accents off, then lower case ('Chloé' and 'CHLOE' both give 'chloe'). translate() is
 * plain SQL, so PGlite (no unaccent extension) and PostgreSQL fold alike, and immutable, so a generated column
 * may use it; the search term goes through the same expression. Accents come off first: lower() of the default
 * C locale leaves 'É' as it is. The JavaScript fold of the same text is foldForSearch in src-shared/rules/fold.ts
 * (tests/server/fold.test.ts compares the two).
 */
export function foldForSearch(text: SQL): SQL {
  return sql`lower(replace(replace(translate(${text}, '${sql.raw(SQL_FOLD_ACCENTED)}', '${sql.raw(SQL_FOLD_UNACCENTED)}'), 'œ', 'oe'), 'Œ', 'OE'))`;
}

/**
 * The version of an editable record (docs/architecture.md, "Versions and conflicts"): bumped by every change a
 * person makes, with who made it, so a save based on an older version is refused with their name and the time.
 * `updatedBy` is a plain account id (no foreign key): a deleted account leaves its changes, named "un autre
 * utilisateur".
 */
export const versionColumns = () => ({
  version: integer('version').notNull().default(1),
  updatedBy: integer('updated_by'),
});

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
    roles: text('roles')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Access tokens issued before this instant are refused (set when the password changes). */
    tokensValidAfter: timestamp('tokens_valid_after', { withTimezone: true }),
    /** Name, nickname and e-mail folded for the account search, one per line; kept by the database itself. */
    searchKey: text('search_key')
      .notNull()
      .generatedAlwaysAs(foldForSearch(sql.raw(`name || chr(10) || nickname || chr(10) || email`))),
    ...timestamps,
    ...versionColumns(),
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
