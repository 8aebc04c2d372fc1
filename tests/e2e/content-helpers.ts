import type { WebApp } from './fixtures';

/**
 * An audience written straight in the embedded database, as the audience screens would have made it (the demo
 * population is seeded in the background and may not be there yet).
 */
export async function createAudience(target: WebApp, name: string, options: { type?: string; area?: string; expert: boolean }): Promise<number> {
  const { sql } = await import('drizzle-orm');
  const { rows } = await import('../../src-server/db/rows');
  const { upsertNodes } = await import('../../src-server/features/audiences/queries/nodes');
  const db = target.host.embedded!.database.db;
  const area = options.area ?? 'french';
  const nodes = await upsertNodes(db, [
    { label: 'Area', value: area, name: area },
    ...(options.expert ? [{ label: 'Role', value: 'ROLE_EXPERT', name: 'ROLE_EXPERT' }] : []),
  ]);
  const [{ id }] = await rows<{ id: number }>(
    db,
    sql`INSERT INTO audiences (name, type, area, is_in_catalog, author_name) VALUES (${name}, ${options.type ?? 'timeline'}, ${area}, true, 'E2E') RETURNING id`,
  );
  for (const node of nodes) await db.execute(sql`INSERT INTO relationships (audience_id, node_id, kind) VALUES (${id}, ${node.id}, 'required')`);
  return id;
}
