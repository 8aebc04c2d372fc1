import { sql } from 'drizzle-orm';
import { param, rows, type Executor } from '../../../db/rows';
import type { UserAttributes } from '../engine/semantics';

// ---- app users ------------------------------------------------------------------------------------------------

export interface AppUserResult {
  id: number;
  email: string;
  name: string;
  relsCount: number;
}

/** E-mail prefix, case-insensitive (app_users_email_prefix_idx), with each user's interactions count. */
export function usersByEmailPrefix(db: Executor, term: string, limit: number) {
  const prefix = term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`) + '%';
  return rows<AppUserResult>(
    db,
    sql`SELECT u.id, u.email, u.name, (SELECT count(*)::int FROM interaction_events e WHERE e.user_id = u.id) AS "relsCount"
        FROM app_users u WHERE lower(u.email) LIKE ${prefix} ORDER BY lower(u.email), u.id LIMIT ${limit}`,
  );
}

/** An app user as read for the engine: its matching attributes, and what identifies it to people. */
export interface UserAttributeRow extends UserAttributes {
  externalId: string;
  email: string;
}

export const userAttributeColumns = sql`id, external_id AS "externalId", email, profession_id AS "professionId", specialty_id AS "specialtyId", title, area,
  country_id AS "countryId", zipcode, uga, workplace, roles, feeds, apps`;

// ---- app users of the population -------------------------------------------------------------------------------

export async function appUserExists(db: Executor, userId: number, lock = false): Promise<boolean> {
  const found = await rows(db, sql`SELECT id FROM app_users WHERE id = ${userId} ${lock ? sql`FOR UPDATE` : sql``}`);
  return found.length > 0;
}

export function appUsersByEmails(db: Executor, lowerCaseEmails: string[]) {
  return rows<{ id: number; email: string }>(db, sql`SELECT id, email FROM app_users WHERE lower(email) = ANY(${param(lowerCaseEmails)}::text[])`);
}

/** Deletes a user's interaction events; answers the (node, event) of each. */
export function deleteUserEvents(db: Executor, userId: number) {
  return rows<{ nodeId: number; event: string }>(
    db,
    sql`DELETE FROM interaction_events WHERE user_id = ${userId} RETURNING node_id AS "nodeId", event`,
  );
}
