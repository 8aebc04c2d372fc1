import { sql } from 'drizzle-orm';
import { rows, type Executor } from '../../../db/rows';

// ---- an article's own audience ---------------------------------------------------------------------------------

export async function articleExists(db: Executor, articleId: number, lock: boolean): Promise<boolean> {
  const found = await rows(db, sql`SELECT id FROM articles WHERE id = ${articleId} ${lock ? sql`FOR UPDATE` : sql``}`);
  return found.length > 0;
}

/** The id of the audience an article owns (its inline criteria), if it has one. */
export async function articleOwnAudienceId(db: Executor, articleId: number, lock = false): Promise<number | undefined> {
  const [owned] = await rows<{ id: number }>(db, sql`SELECT id FROM audiences WHERE article_id = ${articleId} ${lock ? sql`FOR UPDATE` : sql``}`);
  return owned?.id;
}

/** The nodes an audience points at, by label then name. */
export function audienceNodes(db: Executor, audienceId: number) {
  return rows<{ id: number; label: string; name: string }>(
    db,
    sql`SELECT n.id, n.label, n.name FROM relationships r JOIN nodes n ON n.id = r.node_id
        WHERE r.audience_id = ${audienceId} ORDER BY n.label, lower(n.name), n.id`,
  );
}

export async function setAudienceArea(db: Executor, audienceId: number, area: string): Promise<void> {
  await db.execute(sql`UPDATE audiences SET area = ${area}, updated_at = now() WHERE id = ${audienceId}`);
}

/** The article's audience is this one alone (in place of any saved audience it had). */
export async function setArticleAudience(db: Executor, articleId: number, audienceId: number): Promise<void> {
  await db.execute(sql`DELETE FROM article_audiences WHERE article_id = ${articleId}`);
  await db.execute(sql`INSERT INTO article_audiences (article_id, audience_id) VALUES (${articleId}, ${audienceId})`);
}

/** Deletes the audience an article owns; answers its id, if there was one. */
export async function deleteArticleOwnAudience(db: Executor, articleId: number): Promise<number[]> {
  const dropped = await rows<{ id: number }>(db, sql`DELETE FROM audiences WHERE article_id = ${articleId} RETURNING id`);
  return dropped.map((row) => row.id);
}
