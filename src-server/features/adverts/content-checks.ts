import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import { advertInputSchema, advertWritableShape, articleWritableShape } from '@shared/contract/adverts';
import { CONTENT_FIELD_RULES, refusedFieldChange } from '@shared/contract/field-access';
import { MESSAGES, describeIssue } from '@shared/messages';
import { contentFieldLabel } from '@shared/messages/content-fields';
import { parseAdvertCsvRow } from '@shared/rules/advert-screens/csv-import';
import { advertPublicationProblems, articlePublicationProblems, WARNING_SEPARATOR } from '@shared/rules/publication';
import { scheduleErrors, type Schedule } from '@shared/rules/schedule';
import { HttpError } from '../../errors';
import { staleVersion } from '../../db/versioning';
import { rows, TABLES, type AnyModel, type Executor, type Kind, type LinkedAudience } from './store';

// The checks a write of the content service passes before it changes anything (see content.ts).

/** The caller; its roles decide the fields it may write (absent for the server's own writes: media, jobs). */
export type Account = { id: number; roles?: readonly string[] } | null;

/** The first field of CONTENT_FIELD_RULES the caller may not write that differs from `before` to `after`, or null. */
export function refusedField(account: Account, before: unknown, after: unknown): string | null {
  if (!account?.roles) return null;
  return refusedFieldChange(CONTENT_FIELD_RULES, account.roles, before, after)?.field ?? null;
}

/** 403 on a write changing a field the caller may not write (spec §6: ADMIN-only fields); unchanged, it passes. */
export function checkFieldAccess(account: Account, before: unknown, after: unknown): void {
  const field = refusedField(account, before, after);
  if (field) throw new HttpError(403, fieldNotAllowed(field), {}, field);
}

export const fieldNotAllowed = (field: string) => MESSAGES.fieldNotAllowed.replace('{field}', contentFieldLabel(field));

/** 400 at the field when a scheduling date set or changed is past, or the auto-stop is not after the auto-start. */
export function checkSchedule(next: Schedule, saved: Schedule | null, now: number): void {
  const [error] = scheduleErrors(next, saved, now);
  if (error) throw new HttpError(400, error.message, {}, error.field);
}

/** Why the item may not be published (spec §5), joined as the editor shows warnings; null when it may. */
export function publicationError(kind: Kind, model: AnyModel, audiences: readonly LinkedAudience[]): string | null {
  const problems =
    kind === 'advert' ? advertPublicationProblems(model as unknown as Record<string, unknown>, audiences) : articlePublicationProblems(model);
  return problems.length ? problems.join(WARNING_SEPARATOR) : null;
}

/**
 * The 409 of a write or delete based on `basedOn` when the item is now at another version; nothing when it is not,
 * or when the caller named no version. Reads who made the newest change only when refusing.
 */
export async function checkVersion(tx: Executor, kind: Kind, current: AnyModel, basedOn: number | undefined): Promise<void> {
  if (basedOn === undefined || current.version === basedOn) return;
  const [row] = await rows<{ name: string | null }>(
    tx,
    sql`SELECT a.name FROM ${TABLES[kind].items} i LEFT JOIN accounts a ON a.id = i.updated_by WHERE i.id = ${current.id}`,
  );
  throw staleVersion(
    kind,
    { version: current.version ?? 1, updatedAt: (current.updatedAt ?? 0) * 1000, editorName: row?.name ?? null },
    current as unknown as Record<string, unknown>,
  );
}

/** One writable property's value, checked against its schema; a 400 naming the property's label otherwise. */
export function parsedProperty(kind: Kind, property: string, value: unknown): unknown {
  const shape = (kind === 'advert' ? advertWritableShape : articleWritableShape) as Record<string, z.ZodType>;
  const schema = shape[property];
  if (!schema) throw new HttpError(400, MESSAGES.unknownProperty, {}, 'prop');
  const parsed = schema.safeParse(value);
  if (!parsed.success || parsed.data === undefined) {
    const issue = parsed.success ? { code: 'invalid_type', path: [], message: 'Required', expected: 'nonoptional' } : parsed.error.issues[0];
    // Named by the property's label ('Source : …'), about the body's `value`.
    const described = describeIssue({ ...issue, path: [property, ...issue.path] } as never, 'body');
    throw new HttpError(400, described.errorMsg, {}, ['value', ...issue.path.map(String)].join('.'));
  }
  return parsed.data;
}

/** CSV rows parsed with the §5 rules and checked like a create: the inputs, and every error with its spreadsheet row. */
export function checkedImportRows(csvRows: Record<string, string>[], firstLine: number, now: number) {
  const errors: { line: number; message: string }[] = [];
  const inputs: Record<string, unknown>[] = [];
  csvRows.forEach((row, index) => {
    const line = firstLine + index;
    const parsed = parseAdvertCsvRow(row);
    const { id: _id, published: _published, ...fields } = parsed.value as Record<string, unknown>;
    for (const message of parsed.errors) errors.push({ line, message });
    if (!fields.name) errors.push({ line, message: MESSAGES.advertNameRequired });
    const checked = advertInputSchema.safeParse(fields);
    if (!checked.success)
      for (const issue of checked.error.issues)
        // The message names the field by its label already ('Vues max par utilisateur : 1000000 au plus').
        errors.push({ line, message: describeIssue(issue as never, 'body').errorMsg });
    else {
      for (const error of scheduleErrors(checked.data, null, now)) errors.push({ line, message: error.message });
      inputs.push(checked.data as Record<string, unknown>);
    }
  });
  return { errors, inputs };
}
