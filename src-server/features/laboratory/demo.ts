import { eq, sql } from 'drizzle-orm';
import { toBase64 } from '@shared/rules/laboratory';
import type { ServerContext } from '../../context';
import { param, rows } from '../../db/rows';
import { labProjects, labTags } from '../../db/schema';
import { LEASE_INTERVAL } from '../../jobs/lease';
import { matchPanel } from './panel-import';
import { compileTagQuery, countPanel } from './tag-query';

const DEMO_NAME = 'Panel cardiologie (démo)';
const DEMO_MEMBERS = 3000;
const GENDERS = ['F', 'M'];
const PRESCRIBING = ['fort', 'moyen', 'faible'];
const REGIONS = ['Île-de-France', 'Auvergne-Rhône-Alpes', 'Occitanie', 'Hauts-de-France'];
const INTEREST = ['oui', 'non'];

const DEMO_TAGS = [
  { name: 'Forts prescripteurs', type: 'Efficacité', level: 'CONVINCE', query: "CRIT_01 = 'fort'", params: {} },
  {
    name: 'Franciliennes',
    type: 'Environnement',
    level: 'UNDERSTAND',
    query: 'GENDER = :g and CRIT_02 = :region',
    params: { g: 'F', region: 'Île-de-France' },
  },
  { name: 'Intéressés hors IDF', type: 'Bon Usage', level: 'SURPRISE', query: "CRIT_03 = 'oui' and not CRIT_02 = 'Île-de-France'", params: {} },
  { name: 'Prescripteurs moyens ou faibles', type: 'Efficacité', level: 'UNDERSTAND', query: "CRIT_01 in ('moyen', 'faible')", params: {} },
] as const;

/**
 * The demo workspace's laboratory project: 3,000 panel members (CRIT_01 prescribing, CRIT_02 region, CRIT_03
 * interest) named by the external ids of the demo population, and four tags. Only while no laboratory project
 * exists; answers the new project's id, for matchLaboratoryDemo once the population is in.
 */
export async function seedLaboratoryDemo(context: ServerContext): Promise<number | undefined> {
  const { db } = context;
  const [{ count }] = await rows<{ count: number }>(db, sql`SELECT count(*)::int AS count FROM lab_projects`);
  if (count > 0) return undefined;
  const [project] = await db
    .insert(labProjects)
    // Written in a few statements: one lease (jobs/lease.ts) covers them, no renewal needed.
    .values({ name: DEMO_NAME, pending: true, crits: [1, 2, 3], leaseUntil: sql`now() + ${LEASE_INTERVAL}::interval` })
    .returning();
  const members = Array.from({ length: DEMO_MEMBERS }, (_, i) => ({
    l: i + 2,
    n: `Nom${i + 1}`,
    s: `Prénom${i + 1}`,
    g: GENDERS[i % 2],
    c: [PRESCRIBING[i % 3], REGIONS[(i * 7) % 4], INTEREST[(i * 5) % 2]].join('\u001f'),
    x: `gen-2026-${i * 5 + 1}`,
  }));
  await db.execute(sql`
    INSERT INTO lab_panel_members (project_id, line, name, surname, gender, crits, external_id)
    SELECT ${project.id}, r.l, r.n, r.s, r.g, string_to_array(r.c, chr(31)), r.x
    FROM jsonb_to_recordset(${param(JSON.stringify(members))}::jsonb) AS r(l int, n text, s text, g text, c text, x text)`);
  for (const tag of DEMO_TAGS) {
    const query = toBase64(tag.query);
    const params = toBase64(JSON.stringify(tag.params));
    const usersCount = await countPanel(db, project.id, compileTagQuery(query, params, project.crits));
    await db.insert(labTags).values({ projectId: project.id, name: tag.name, type: tag.type, level: tag.level, query, params, usersCount });
  }
  await db.update(labProjects).set({ pending: false, usersCount: DEMO_MEMBERS }).where(eq(labProjects.id, project.id));
  return project.id;
}

/** The demo panel matched against the demo population (src-server/demo/ calls it once the population is seeded). */
export async function matchLaboratoryDemo(context: ServerContext, projectId: number): Promise<void> {
  const { db } = context;
  const matched = await matchPanel(db, projectId, DEMO_MEMBERS);
  // updatedAt moves with the matching: panels cached for tag counts are read again.
  await db
    .update(labProjects)
    .set({ matchedCount: matched, updatedAt: new Date(context.clock.now()) })
    .where(eq(labProjects.id, projectId));
}
