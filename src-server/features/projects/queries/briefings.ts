import { sql } from 'drizzle-orm';
import { rows, type Executor } from '../../../db/rows';

// ---- briefings -------------------------------------------------------------------------------------------------

export interface BriefingRow {
  id: number;
  projectId: number;
  content: Record<string, unknown>;
  updatedAt: number;
}

/** A briefing by its id or its project's. */
export async function briefingRow(db: Executor, by: { id: number } | { projectId: number }): Promise<BriefingRow | undefined> {
  const [row] = await rows<BriefingRow>(
    db,
    sql`SELECT id, project_id AS "projectId", content, floor(extract(epoch FROM updated_at) * 1000)::float8 AS "updatedAt" FROM briefings
        WHERE ${'id' in by ? sql`id = ${by.id}` : sql`project_id = ${by.projectId}`}`,
  );
  return row;
}

/** A project's briefing, unless it has one already; answers its id then. */
export async function insertBriefing(db: Executor, projectId: number, content: unknown, authorId: number): Promise<number | undefined> {
  const [inserted] = await rows<{ id: number }>(
    db,
    sql`INSERT INTO briefings (project_id, content, author_id) VALUES (${projectId}, ${JSON.stringify(content)}::jsonb, ${authorId})
        ON CONFLICT (project_id) DO NOTHING RETURNING id`,
  );
  return inserted?.id;
}

/** Answers whether the briefing was there. */
export async function updateBriefing(db: Executor, id: number, content: unknown, authorId: number): Promise<boolean> {
  const updated = await rows(
    db,
    sql`UPDATE briefings SET content = ${JSON.stringify(content)}::jsonb, author_id = ${authorId}, updated_at = now() WHERE id = ${id} RETURNING id`,
  );
  return updated.length > 0;
}
