import { z } from 'zod';
import { audienceRestorers } from '../access-rules';
import { access } from '../roles';
import { HISTORY_ACTIONS, HISTORY_FIELDS, HISTORY_SUBJECT_KINDS } from '../rules/audience-history';
import { defineOperation } from './define';
import { idParam, wholeNumber } from './entities';

const snapshotRelationshipSchema = z.object({
  nodeId: z.number().int(),
  label: z.string(),
  name: z.string(),
  type: z.string(),
  kind: z.string(),
  event: z.string().nullable(),
  caping: z.number().int().nullable(),
});
const fieldValue = z.union([z.string(), z.boolean(), z.null()]);

export const historyEntrySchema = z.object({
  id: z.number().int(),
  subjectKind: z.enum(HISTORY_SUBJECT_KINDS),
  subjectId: z.number().int(),
  action: z.enum(HISTORY_ACTIONS),
  operation: z.string(),
  /** Who: the account's name at the time ('' for a service or a deleted account). */
  accountName: z.string(),
  accountId: z.number().int().nullable(),
  /** When, in milliseconds. */
  at: z.number().int(),
  /** The subject's name after the change (before it, for a deletion). */
  name: z.string(),
  changes: z.object({
    fields: z.array(z.object({ field: z.enum(HISTORY_FIELDS), from: fieldValue, to: fieldValue })),
    added: z.array(snapshotRelationshipSchema),
    removed: z.array(snapshotRelationshipSchema),
    changed: z.array(z.object({ from: snapshotRelationshipSchema, to: snapshotRelationshipSchema })),
  }),
});
export type HistoryEntry = z.infer<typeof historyEntrySchema>;

const page = z.strictObject({ limit: wholeNumber(1, 200).default(50), skip: wholeNumber(0, 10_000_000).default(0) });
const historyPage = z.object({ items: z.array(historyEntrySchema), total: z.number().int() });

/** Who edits audiences and groups (CSM_LEAD and ADMIN) reads their history; only ADMIN restores. */
export const audienceHistoryOperations = {
  'audienceHistory.audience': defineOperation({
    method: 'GET',
    path: '/audience/:id/history',
    summary: "An audience's changes, newest first (also after its deletion)",
    access: access.anyOf('CSM_LEAD'),
    params: z.strictObject({ id: idParam }),
    query: page,
    response: historyPage,
  }),
  'audienceHistory.group': defineOperation({
    method: 'GET',
    path: '/v2/group/:id/history',
    summary: "A group's changes, newest first",
    access: access.anyOf('CSM_LEAD'),
    params: z.strictObject({ id: idParam }),
    query: page,
    response: historyPage,
  }),
  'audienceHistory.deleted': defineOperation({
    method: 'GET',
    path: '/audiences/deleted',
    summary: 'Deleted audiences not restored since, newest deletion first (ADMIN)',
    access: audienceRestorers,
    query: page,
    response: historyPage,
  }),
  'audienceHistory.restore': defineOperation({
    method: 'POST',
    path: '/audience/:id/restore',
    summary: 'Restore a deleted audience as it was before its deletion (ADMIN); criteria whose node is gone are skipped',
    access: audienceRestorers,
    params: z.strictObject({ id: idParam }),
    response: z.object({ id: z.number().int(), name: z.string(), skipped: z.array(snapshotRelationshipSchema) }),
    successStatus: 201,
  }),
};
