import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { accounts, versionColumns } from './accounts';
import { appUsers } from './audiences';

/**
 * Laboratory projects ("Alphonse", docs/laboratory.md): a client laboratory's panel of health professionals, its tags and
 * the accounts allowed on it. `pending` while the panel's rows load; `crits` are the CRIT_nn numbers of its file.
 */
export const labProjects = pgTable('lab_projects', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  specialtyId: integer('specialty_id').notNull().default(26),
  pending: boolean('pending').notNull().default(true),
  /** While pending: until when the instance loading the panel vouches for it (jobs/lease.ts); past it, removed. */
  leaseUntil: timestamp('lease_until', { withTimezone: true }),
  usersCount: integer('users_count').notNull().default(0),
  matchedCount: integer('matched_count').notNull().default(0),
  crits: integer('crits')
    .array()
    .notNull()
    .default(sql`'{}'::int[]`),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  ...versionColumns(),
});

/**
 * The panel: one row per line of the file (line 2 is the first after the header). `crits[n]` is the CRIT_nn cell;
 * `appUserId` the app user of the population it matched (by externalId, else e-mail). Keyed by project then line,
 * so a project's members are one range of the primary key.
 */
export const labPanelMembers = pgTable(
  'lab_panel_members',
  {
    projectId: integer('project_id')
      .notNull()
      .references(() => labProjects.id, { onDelete: 'cascade' }),
    line: integer('line').notNull(),
    name: text('name').notNull().default(''),
    surname: text('surname').notNull().default(''),
    gender: text('gender').notNull().default(''),
    crits: text('crits')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    email: text('email'),
    externalId: text('external_id'),
    appUserId: integer('app_user_id').references(() => appUsers.id, { onDelete: 'set null' }),
  },
  (table) => [primaryKey({ columns: [table.projectId, table.line] }), index('lab_panel_members_app_user_idx').on(table.appUserId)],
);

/** A project's tags; query and params stored base64-encoded as they travel (spec §3). */
export const labTags = pgTable(
  'lab_tags',
  {
    id: serial('id').primaryKey(),
    projectId: integer('project_id')
      .notNull()
      .references(() => labProjects.id, { onDelete: 'cascade' }),
    name: text('name').notNull().default(''),
    type: text('type').notNull(),
    level: text('level').notNull().default('UNDERSTAND'),
    content: text('content').notNull().default(''),
    linkTitle: text('link_title').notNull().default(''),
    link: text('link').notNull().default(''),
    query: text('query').notNull().default(''),
    params: text('params').notNull().default(''),
    usersCount: integer('users_count').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    ...versionColumns(),
  },
  (table) => [index('lab_tags_project_idx').on(table.projectId, table.id)],
);

/** The accounts allowed on a project (its Access tab). */
export const labProjectAccounts = pgTable(
  'lab_project_accounts',
  {
    projectId: integer('project_id')
      .notNull()
      .references(() => labProjects.id, { onDelete: 'cascade' }),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
  },
  (table) => [primaryKey({ columns: [table.projectId, table.accountId] }), index('lab_project_accounts_account_idx').on(table.accountId)],
);
