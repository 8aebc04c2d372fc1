import { contentAdminFieldWriters } from '../access-rules';
import { isAllowed, type Access } from '../roles';

/**
 * A field of an item only some roles may write, though the operation writing the item is open to more. The
 * operations that can write it list it (`Operation.fieldAccess`); the server refuses a change of the field to any
 * other caller, and the OpenAPI document says so.
 */
export interface FieldRule {
  /** The field's dotted path in the item ('quiz.votersCountDefault'). */
  readonly field: string;
  readonly access: Access;
  /** The value the field has when it, or its parent, is absent: writing it there is no change. */
  readonly unset: unknown;
}

/** The fields the editors show to contentAdminFieldWriters only (access-rules.ts), on adverts and articles. */
export const CONTENT_FIELD_RULES: readonly FieldRule[] = [
  { field: 'pixelTrackingUrl', access: contentAdminFieldWriters, unset: null },
  { field: 'quiz.votersCountDefault', access: contentAdminFieldWriters, unset: 0 },
];

/** The value at a dotted path, or undefined when a step is missing or null. */
function valueAt(item: unknown, path: string): unknown {
  let value = item;
  for (const step of path.split('.')) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[step];
  }
  return value;
}

/** Whether the field holds the same value in both (an absent field reads as its rule's `unset`). */
function sameValue(rule: FieldRule, before: unknown, after: unknown): boolean {
  const read = (item: unknown) => JSON.stringify(valueAt(item, rule.field) ?? rule.unset);
  return read(before) === read(after);
}

/**
 * The first rule whose field differs between `before` and `after` and that `roles` may not write, or null. A write
 * carrying the field unchanged is no write of it: the editor sends the whole item back.
 */
export function refusedFieldChange(rules: readonly FieldRule[], roles: readonly string[], before: unknown, after: unknown): FieldRule | null {
  return rules.find((rule) => !isAllowed(rule.access, roles) && !sameValue(rule, before, after)) ?? null;
}
