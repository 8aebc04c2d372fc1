import { sql } from 'drizzle-orm';
import { DELAY_REASONS, SECONDS_PER_DAY } from '@shared/rules/campaigns';
import {
  actionCodeStem,
  advertSearchType,
  applyTargetChange,
  statusRank,
  TARGET_STATUSES,
  typeLink,
  type TimingFields,
} from '@shared/rules/projects';
import type { Database } from '../../db/client';
import { importEstimateCsv } from './estimates';
import { rows } from '../../db/rows';

/** Fictional clients and campaigns of a health-professional media (demo workspace only). */
const CLIENTS: { client: string; actor: string; projects: string[] }[] = [
  { client: 'Laboratoires Sanofa', actor: 'Laboratoire', projects: ['Cardio HTA 2026', 'Lancement Diabéto+', 'Vaccination grippe'] },
  { client: 'Pfizar France', actor: 'Laboratoire', projects: ['Oncologie sein', 'Campagne antibiorésistance'] },
  { client: 'Biogena', actor: 'Laboratoire', projects: ['Dermatologie atopique', 'Webinaire psoriasis'] },
  { client: 'MedTech Santé', actor: 'DM', projects: ['Capteur glycémie', 'Tensiomètre connecté'] },
  { client: 'Mutuelle Horizon', actor: 'Banques et assurances', projects: ['Prévoyance libéraux'] },
  { client: 'VetoPharm', actor: 'Santé animale', projects: ['Antiparasitaires printemps'] },
  { client: 'Doctolib-like', actor: 'Start-up', projects: ['Téléconsultation pharmaciens', 'Agenda infirmiers'] },
  { client: 'Servyer', actor: 'Laboratoire', projects: ['Insuffisance cardiaque', 'BPCO hiver'] },
  { client: 'Ipsène', actor: 'Laboratoire', projects: ['Neurologie spasticité'] },
];
const LINES: { type: string; category: string; sample: string; size: number; goal: [number, number, number]; revenue: number }[] = [
  { type: 'post', category: 'Médecine générale', sample: 'Médecins généralistes experts', size: 42_000, goal: [60_000, 0, 0], revenue: 9_000 },
  { type: 'video', category: 'Cardiologie', sample: 'Cardiologues France', size: 6_800, goal: [12_000, 0, 0], revenue: 7_500 },
  { type: 'notification', category: 'Pharmacien', sample: "Pharmaciens d'officine", size: 28_000, goal: [0, 0, 28_000], revenue: 4_200 },
  { type: 'mise en avant', category: 'Toute la base', sample: 'Toute la base', size: 180_000, goal: [0, 30, 0], revenue: 12_000 },
  { type: 'quiz', category: 'Infirmier', sample: 'Infirmiers libéraux', size: 35_000, goal: [20_000, 0, 0], revenue: 6_000 },
  { type: 'nl hebdo', category: 'Toute la base', sample: 'Abonnés newsletter', size: 95_000, goal: [0, 0, 95_000], revenue: 3_500 },
  { type: 'story', category: 'Dermatologie', sample: 'Dermatologues', size: 3_900, goal: [8_000, 0, 0], revenue: 5_000 },
  { type: 'référencement', category: 'Pharmacien', sample: 'Pharmaciens adjoints', size: 21_000, goal: [0, 90, 0], revenue: 8_000 },
];

/**
 * The demo's quotes, as the invoicing tool exports them (docs/projects.md, Quotes): 'DEV-2026-0001' to 'DEV-2026-0004'
 * answer in the create-project and quote-import dialogs out of the box, before an administrator imports a file.
 */
export const DEMO_ESTIMATE_CSV = [
  'Numéro de devis;Client;Libellé;Quantité;Prix unitaire HT;Date de signature',
  'DEV-2026-0001;Laboratoires Sanofa;Post sponsorisé cardio;2;4 500,00;12/01/2026',
  'DEV-2026-0001;Laboratoires Sanofa;Notification push pharmaciens;1;4 200,00;12/01/2026',
  'DEV-2026-0001;Laboratoires Sanofa;Vidéo pré-roll cardiologues;1;7 500,00;12/01/2026',
  'DEV-2026-0002;Pfizar France;Quiz oncologie;1;6 000,00;03/02/2026',
  'DEV-2026-0002;Pfizar France;NL hebdo sponsorisée;2;3 500,00;03/02/2026',
  'DEV-2026-0003;Biogena;Story dermatologie;1;5 000,00;17/02/2026',
  'DEV-2026-0003;Biogena;Mise en avant webinaire psoriasis;1;12 000,00;17/02/2026',
  'DEV-2026-0004;MedTech Santé;Référencement outil glycémie;1;8 000,00;',
].join('\r\n');

/** The demo's quotes, once, while no quote is stored (an administrator's import replaces them as any other). */
export async function seedEstimateDemo(db: Database): Promise<boolean> {
  const [{ count }] = await rows<{ count: number }>(db, sql`SELECT count(*)::int AS count FROM estimate_quotes`);
  if (count > 0) return false;
  await importEstimateCsv(db, DEMO_ESTIMATE_CSV);
  return true;
}

/** Sample projects for the demo workspace: once, while there is no project. */
export async function seedProjectDemo(db: Database, now: Date): Promise<boolean> {
  const [{ count }] = await rows<{ count: number }>(db, sql`SELECT count(*)::int AS count FROM projects`);
  if (count > 0) return false;
  const csms = await rows<{ id: number }>(db, sql`SELECT id FROM accounts WHERE 'CSM' = ANY(roles) ORDER BY id`);
  const authors = await rows<{ id: number }>(db, sql`SELECT id FROM accounts ORDER BY id LIMIT 3`);
  const today = Math.floor(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) / 1000);
  const year = now.getUTCFullYear();
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;

  await db.transaction(async (tx) => {
    let projectIndex = 0;
    for (const { client, actor, projects } of CLIENTS) {
      for (const name of projects) {
        projectIndex += 1;
        const keyAccount = csms.length ? csms[projectIndex % csms.length].id : null;
        const stem = actionCodeStem(client, name, year);
        const [{ id }] = await rows<{ id: number }>(
          tx,
          sql`INSERT INTO projects (name, client_name, key_account_id, actor, action_code, status)
              VALUES (${name}, ${client}, ${keyAccount}, ${actor}, ${stem}, ${projectIndex % 7 === 0 ? 'draft' : 'active'}) RETURNING id`,
        );
        const lineCount = 3 + Math.floor(next() * 4);
        for (let line = 0; line < lineCount; line += 1) {
          const plan = LINES[(projectIndex + line * 3) % LINES.length];
          const quotation = today - Math.floor(next() * 120) * SECONDS_PER_DAY;
          const start = quotation + Math.floor(next() * 40) * SECONDS_PER_DAY;
          const status = TARGET_STATUSES[Math.min(TARGET_STATUSES.length - 1, Math.floor(next() * TARGET_STATUSES.length))];
          const base: TimingFields = {
            type: plan.type,
            status: '1. offline - préparation',
            startDate: null,
            endDate: null,
            initialQuotationDate: quotation,
            revenue: plan.revenue,
            releaseDateDiff: null,
            delayReason: null,
            revenueDelayImpact: null,
          };
          const { next: timed, needsDelayReason } = applyTargetChange(base, { startDate: start, status });
          const delayReason = needsDelayReason && next() < 0.7 ? DELAY_REASONS[Math.floor(next() * DELAY_REASONS.length)].key : null;
          // The tool index of a 'mise en avant' or 'référencement' line; adverts are linked once they exist (linkDemoAdverts).
          const toolId = status === '1. offline - préparation' || typeLink(plan.type) !== 'tool' ? null : 1000 + projectIndex * 10 + line;
          await tx.execute(sql`INSERT INTO targets (project_id, position, action_code, status, status_rank, type, tool_id, population_category,
              population_sample, population_size, goal_views, goal_days, goal_shipments, start_date, end_date, check_date, quotation_signed_month,
              initial_quotation_date, revenue, release_date_diff, delay_reason, revenue_delay_impact, actor, key_account_id, is_new)
            VALUES (${id}, ${line}, ${`${stem}${line + 1}`}, ${status}, ${statusRank(status)}, ${plan.type},
              ${toolId},
              ${plan.category}, ${plan.sample}, ${plan.size}, ${plan.goal[0]}, ${plan.goal[1]}, ${plan.goal[2]}, ${timed.startDate}, ${timed.endDate},
              ${timed.endDate == null ? null : timed.endDate + 15 * SECONDS_PER_DAY}, ${quotation}, ${quotation}, ${plan.revenue}, ${timed.releaseDateDiff},
              ${delayReason}, ${timed.revenueDelayImpact}, ${actor}, ${keyAccount}, ${line === lineCount - 1})`);
        }
        if (authors.length && projectIndex % 3 === 1) {
          await tx.execute(sql`INSERT INTO project_comments (project_id, author_id, content)
            VALUES (${id}, ${authors[projectIndex % authors.length].id}, ${'Client très réactif, BAT validé en 48 h. Prévoir le bilan intermédiaire.'})`);
        }
      }
    }
  });
  // The demo adverts may be there already (they are seeded in the background): link them now, else once they are.
  await linkDemoAdverts(db);
  return true;
}

/**
 * Links the demo's unlinked adverts to the demo's actions past preparation that link to an advert and have none
 * (an action's type searches adverts of one type: advertSearchType), one advert per action, in id order. Called
 * by both demo seedings, whichever ends last; an advert that does not exist is never named.
 */
export async function linkDemoAdverts(db: Database): Promise<number> {
  const targets = await rows<{ id: number; type: string }>(
    db,
    sql`SELECT id, type FROM targets WHERE advert_id IS NULL AND type IS NOT NULL AND status NOT IN ('1. offline - préparation', '7. annulé') ORDER BY id`,
  );
  const adverts = await rows<{ id: number; type: string }>(
    db,
    sql`SELECT a.id, a.type FROM adverts a WHERE a.type IS NOT NULL AND NOT EXISTS (SELECT 1 FROM targets t WHERE t.advert_id = a.id) ORDER BY a.id`,
  );
  const pairs: [targetId: number, advertId: number][] = [];
  for (const target of targets) {
    if (typeLink(target.type) !== 'advert') continue;
    const wanted = advertSearchType(target.type);
    const index = adverts.findIndex((advert) => advert.type === wanted);
    if (index === -1) continue;
    pairs.push([target.id, adverts[index].id]);
    adverts.splice(index, 1);
  }
  if (!pairs.length) return 0;
  // Only where the advert still exists and still serves no action (a user may have linked it meanwhile).
  const linked = await rows<{ id: number }>(
    db,
    sql`UPDATE targets t SET advert_id = p.advert_id, updated_at = now()
        FROM jsonb_to_recordset(${JSON.stringify(pairs.map(([targetId, advertId]) => ({ target_id: targetId, advert_id: advertId })))}::jsonb) AS p(target_id int, advert_id int)
        WHERE t.id = p.target_id AND t.advert_id IS NULL AND EXISTS (SELECT 1 FROM adverts a WHERE a.id = p.advert_id)
          AND NOT EXISTS (SELECT 1 FROM targets o WHERE o.advert_id = p.advert_id)
        RETURNING t.id`,
  );
  return linked.length;
}

/**
 * Demo workspaces seeded by an earlier version named adverts that were never created (1000 + …): those actions
 * lose the id, so that the grid offers to attach or create one instead of opening 'Cette publicité n'existe pas.'
 */
export async function clearMissingDemoAdverts(db: Database): Promise<number> {
  const cleared = await rows<{ id: number }>(
    db,
    sql`UPDATE targets t SET advert_id = NULL, updated_at = now()
        WHERE t.advert_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM adverts a WHERE a.id = t.advert_id) RETURNING t.id`,
  );
  return cleared.length;
}
