import { z } from 'zod';
import { VALIDATION_MESSAGES } from '../messages/validation';
import { ROLES } from '../roles';

export const roleSchema = z.enum(ROLES);

/** A token with its expiry, as in spec §3 Session. */
export const tokenSchema = z.object({
  value: z.string(),
  expiresAt: z.iso.datetime(),
});

export const sessionSchema = z.object({
  accessToken: tokenSchema,
  refreshToken: tokenSchema,
  userId: z.number().int(),
  roles: z.array(roleSchema),
});
export type Session = z.infer<typeof sessionSchema>;

export const accountSchema = z.object({
  id: z.number().int(),
  uuid: z.uuid(),
  name: z.string(),
  nickname: z.string(),
  /** The e-mail; the admin screen calls it username. */
  username: z.string(),
  email: z.string(),
  roles: z.array(roleSchema),
  /**
   * The account's version (docs/architecture.md, "Versions and conflicts"), answered by the administration's
   * reads and writes; its writes send back the one they were based on.
   */
  version: z.number().int().optional(),
});
export type Account = z.infer<typeof accountSchema>;

export const referenceItemSchema = z.object({ id: z.number().int(), name: z.string() });

export const metaSchema = z.object({
  professions: z.array(referenceItemSchema),
  specialties: z.array(referenceItemSchema),
  audiences: z.array(z.object({ id: z.number().int(), name: z.string() })),
  csm: z.array(referenceItemSchema),
});
export type Meta = z.infer<typeof metaSchema>;

export const okSchema = z.object({ ok: z.literal(true) });
export const messageSchema = z.object({ message: z.string() });

/**
 * A version every editable record carries (docs/architecture.md, "Versions and conflicts"): a counter bumped by
 * each change. Writes send, as the body field `version`, the one they were based on.
 */
export const recordVersionSchema = z.number().int().min(1).max(2_147_483_647);

/** What a 409 for a stale `version` says of the record as it is now, so the editor can show theirs and yours. */
export const conflictSchema = z.object({
  version: recordVersionSchema,
  /** The name of who made the newest change; null when unknown (an import, an account deleted since). */
  updatedBy: z.string().nullable(),
  /** When, as an ISO 8601 instant. */
  updatedAt: z.string(),
  /** The record as its read operation answers it now; absent after a delete. */
  current: z.record(z.string(), z.unknown()).nullable(),
});
export type Conflict = z.infer<typeof conflictSchema>;

/** The version a write was based on, in a body (`version`); absent, the write is last-write-wins. */
export const basedOnVersion = { version: recordVersionSchema.optional() };

/** Every error answer of the API. */
export const errorSchema = z.object({ errorMsg: z.string(), field: z.string().optional(), conflict: conflictSchema.optional() });
export type ApiError = z.infer<typeof errorSchema>;

/**
 * No control characters (C0, DEL, C1) in any text the API takes: a NUL makes PostgreSQL fail (500), and the
 * others have no place in a name, an e-mail, a password or a token.
 */
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;
const withoutControlCharacters = (text: string) => !CONTROL_CHARACTERS.test(text);

/** Text kept as typed (passwords, tokens): bounded, and free of control characters. */
export const plainText = (max: number) => z.string().max(max).refine(withoutControlCharacters, VALIDATION_MESSAGES.controlCharacters);
/** Text fields: trimmed, bounded so that a huge string is a clear 400 (never a stored megabyte), no control characters. */
export const shortText = (max = 200) => z.string().trim().max(max).refine(withoutControlCharacters, VALIDATION_MESSAGES.controlCharacters);
/**
 * What `shortText(max).min(1)` answers for `value` (the trimmed text), or undefined where it would refuse it: for
 * hand-written body readers (Operation.fastBody) that must accept exactly what the schema accepts.
 */
export function readShortText(value: unknown, max: number): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  return text.length >= 1 && text.length <= max && withoutControlCharacters(text) ? text : undefined;
}
/** Multi-line text (a pasted CSV file): tabs and line breaks allowed, no other control character. */
export const multilineText = (max: number) =>
  z
    .string()
    .max(max)
    .refine((text) => !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/.test(text), VALIDATION_MESSAGES.controlCharacters);
export const emailField = shortText(254).pipe(z.email());
/** A whole number from a path or query string (digits only: '' or '1e3' are refused), or already a number. */
export const wholeNumber = (min: number, max: number) =>
  z
    .union([z.number(), z.string().regex(/^\d{1,12}$/, VALIDATION_MESSAGES.wholeNumber)])
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));
export const idParam = wholeNumber(1, 2_147_483_647);

/** The version a delete was based on, as its query (`?version=3`); absent, the delete is last-write-wins. */
export const versionQuery = z.strictObject({ version: wholeNumber(1, 2_147_483_647).optional() });
