import { index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Every change of an audience or a group (docs/audience-history.md, beyond the spec): who, when, what changed, and the
 * definition after the change (before it, for a deletion, so that an ADMIN can restore a deleted audience). No
 * foreign keys on purpose: the rows outlive the audience, the group and the account they name.
 */
export const audienceHistory = pgTable(
  'audience_history',
  {
    id: serial('id').primaryKey(),
    /** audience or group. */
    subjectKind: text('subject_kind').notNull(),
    /** The audience's id, or the group's (its node's) id: one sequence numbers both, so the id alone is unambiguous. */
    subjectId: integer('subject_id').notNull(),
    /** create, update, delete or restore. */
    action: text('action').notNull(),
    /** The contract operation that made the change (audiences.update, groups.delete, ...). */
    operation: text('operation').notNull(),
    accountId: integer('account_id'),
    /** The account's name at the time: it stays readable after the account is renamed or deleted. */
    accountName: text('account_name').notNull().default(''),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** HistoryChanges (src-shared/rules/audience-history.ts). */
    changes: jsonb('changes').notNull(),
    /** DefinitionSnapshot after the change; before it for a deletion. */
    snapshot: jsonb('snapshot').notNull(),
  },
  (table) => [
    index('audience_history_subject_idx').on(table.subjectId, table.id),
    index('audience_history_deleted_idx').on(table.subjectKind, table.action, table.id),
  ],
);
