import { sql } from 'drizzle-orm';
import { PROFESSIONS, SPECIALTIES } from '@shared/reference';
import type { Database } from '../../db/client';
import { upsertAttributeNodes } from './population';
import { param, rows } from '../../db/rows';
import { upsertNodes } from './queries/nodes';
import { userAttributeColumns, type UserAttributeRow } from './queries/population';
import { foldForSearch } from '@shared/rules/fold';

/**
 * A deterministic, plausible app-user population written straight into the database in bulk (the demo seed, the
 * benchmarks, `npm run population`). Same seed, same population.
 */

/** mulberry32: small, fast and good enough for test data. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function weighted<T>(next: () => number, choices: readonly (readonly [T, number])[]): T {
  const total = choices.reduce((sum, [, weight]) => sum + weight, 0);
  let pick = next() * total;
  for (const [value, weight] of choices) if ((pick -= weight) < 0) return value;
  return choices[choices.length - 1][0];
}

const PROFESSION_WEIGHTS = PROFESSIONS.map((p) => [p.id, p.id === 2 ? 40 : p.id === 3 ? 14 : p.id === 4 ? 12 : p.id === 7 ? 2 : 4] as const);
/** General medicine first: about 45 % of doctors. */
const SPECIALTY_WEIGHTS = SPECIALTIES.map((s) => [s.id, s.id === 1 ? 45 : 55 / (SPECIALTIES.length - 1)] as const);
const AREA_WEIGHTS = [
  ['french', 70],
  ['english', 12],
  ['spanish', 10],
  ['italian', 6],
  ['german', 2],
] as const;
const COUNTRY_OF_AREA: Record<string, number> = { french: 72, english: 826, spanish: 722, italian: 380, german: 276 };
export const DEMO_FEEDS = [
  'Cardiologie',
  'Diabétologie',
  'Oncologie',
  'Pédiatrie',
  'Dermatologie',
  'Infectiologie',
  'Neurologie',
  'Gériatrie',
  'Urgences',
  'Santé publique',
];
export const DEMO_APPS = ['Vidal', 'Doctolib Pro', 'MesCalculs', 'Antibioclic', 'Pédiadoc'];
const WORKPLACES = ['Cabinet libéral', 'CHU', 'Clinique', 'Centre de santé', 'EHPAD', 'Officine'];
const FIRST = ['Camille', 'Léa', 'Hugo', 'Louis', 'Chloé', 'Jules', 'Inès', 'Lucas', 'Manon', 'Nathan', 'Emma', 'Paul', 'Sarah', 'Tom', 'Julie'];
const LAST = [
  'Martin',
  'Bernard',
  'Dubois',
  'Thomas',
  'Robert',
  'Richard',
  'Petit',
  'Durand',
  'Leroy',
  'Moreau',
  'Simon',
  'Laurent',
  'Michel',
  'Garcia',
];

export interface GeneratedPopulation {
  users: number;
  events: number;
  documents: string[];
  adverts: string[];
  keywords: string[];
}

export interface GenerateOptions {
  users: number;
  events: number;
  seed: number;
  documents?: number;
  adverts?: number;
  keywords?: number;
  /** Told after each batch, for progress lines. */
  progress?: (what: string, done: number, total: number) => void;
  /** Rows per statement; smaller batches let other queries in between (the demo seeds while the server answers). */
  userBatch?: number;
  eventBatch?: number;
  /** Stops between two batches (the server closing). Batches are idempotent: a later run completes the work. */
  signal?: AbortSignal;
}

/**
 * Writes users, their attribute nodes, items and events. Deterministic and idempotent (same seed, same external
 * and event ids, conflicts skipped), so an interrupted run is completed by running it again.
 */
/**
 * Back to the event loop between two batches. PGlite answers through promises only (its WebAssembly runs
 * synchronously), so a loop of awaited statements would never let the server accept a connection or answer a
 * request until the whole demo is written.
 */
const letOthersRun = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Most users (85 %) have one push token (docs/push.md), of their OS's platform: decided from a hash of the seed and the
 * external id, so the other draws of the population stay what they were before tokens existed.
 */
function hasPushToken(seed: number, externalId: string): boolean {
  let hash = seed ^ 0x811c9dc5;
  for (let index = 0; index < externalId.length; index += 1) hash = Math.imul(hash ^ externalId.charCodeAt(index), 0x01000193);
  return (hash >>> 0) % 100 < 85;
}

export async function generatePopulation(db: Database, options: GenerateOptions): Promise<GeneratedPopulation> {
  const USER_BATCH = options.userBatch ?? 10_000;
  const EVENT_BATCH = options.eventBatch ?? 50_000;
  const next = random(options.seed);
  const documents = Array.from(
    { length: options.documents ?? 2000 },
    (_, i) => `Document ${String(i + 1).padStart(4, '0')} — ${DEMO_FEEDS[i % DEMO_FEEDS.length]}`,
  );
  const adverts = Array.from({ length: options.adverts ?? 200 }, (_, i) => `Campagne ${i + 1}`);
  const keywords = Array.from({ length: options.keywords ?? 300 }, (_, i) => `mot-clé ${i + 1}`);

  for (let start = 0; start < options.users; start += USER_BATCH) {
    await letOthersRun();
    options.signal?.throwIfAborted();
    const batch = [];
    for (let i = start; i < Math.min(start + USER_BATCH, options.users); i += 1) {
      const professionId = weighted(next, PROFESSION_WEIGHTS);
      const area = weighted(next, AREA_WEIGHTS);
      const first = FIRST[Math.floor(next() * FIRST.length)];
      const last = LAST[Math.floor(next() * LAST.length)];
      const department = String(1 + Math.floor(next() * 95)).padStart(2, '0');
      batch.push({
        external_id: `gen-${options.seed}-${i + 1}`,
        email: foldForSearch(`${first}.${last}.${i + 1}@example.org`),
        name: `${first} ${last}`,
        profession_id: professionId,
        specialty_id: professionId === 2 ? weighted(next, SPECIALTY_WEIGHTS) : null,
        title: professionId === 2 ? (next() < 0.12 ? 'STUDENT' : 'DOCTOR') : next() < 0.1 ? 'STUDENT' : 'PROFESSIONAL',
        area,
        country_id: COUNTRY_OF_AREA[area],
        zipcode: area === 'french' ? `${department}${String(Math.floor(next() * 1000)).padStart(3, '0')}` : null,
        uga: area === 'french' ? `UGA-${department}` : null,
        workplace: WORKPLACES[Math.floor(next() * WORKPLACES.length)],
        roles: [...(next() < 0.3 ? ['ROLE_EXPERT'] : []), ...(next() < 0.08 ? ['ROLE_PROSPECT'] : []), 'ROLE_USER'],
        feeds: DEMO_FEEDS.filter(() => next() < 0.2),
        apps: DEMO_APPS.filter(() => next() < 0.25),
        os: next() < 0.55 ? 'iOS' : 'Android',
      });
    }
    const inserted = await rows<UserAttributeRow>(
      db,
      sql`INSERT INTO app_users (external_id, email, name, profession_id, specialty_id, title, area, country_id, zipcode, uga, workplace, roles, feeds, apps, os)
          SELECT * FROM jsonb_to_recordset(${param(JSON.stringify(batch))}::jsonb) AS r(external_id text, email text, name text, profession_id int, specialty_id int,
            title text, area text, country_id int, zipcode text, uga text, workplace text, roles text[], feeds text[], apps text[], os text)
          ON CONFLICT (external_id) DO NOTHING
          RETURNING ${userAttributeColumns}`,
    );
    await upsertAttributeNodes(db, inserted);
    const withToken = batch.filter((user) => hasPushToken(options.seed, user.external_id)).map((user) => user.external_id);
    if (withToken.length) {
      await db.execute(
        sql`INSERT INTO app_user_push_tokens (user_id, platform, token)
            SELECT id, os, 'gen-push-' || external_id FROM app_users WHERE external_id = ANY(${param(withToken)}::text[]) AND os IS NOT NULL
            ON CONFLICT (token) DO NOTHING`,
      );
    }
    options.progress?.('users', Math.min(start + USER_BATCH, options.users), options.users);
  }

  const items = await upsertNodes(db, [
    ...documents.map((name) => ({ label: 'Document', value: name, name })),
    ...adverts.map((name) => ({ label: 'Advert', value: name, name })),
    ...keywords.map((name) => ({ label: 'Keyword', value: name, name })),
  ]);
  const byLabel = (label: string) => items.filter((item) => item.label === label).map((item) => item.id);
  const [documentIds, advertIds, keywordIds] = [byLabel('Document'), byLabel('Advert'), byLabel('Keyword')];
  const [{ first: firstUser, last: lastUser }] = await rows<{ first: number; last: number }>(
    db,
    sql`SELECT min(id) AS first, max(id) AS last FROM app_users`,
  );
  const userSpan = lastUser - firstUser + 1;
  const from = Date.UTC(2025, 0, 1);
  const span = Date.UTC(2026, 0, 1) - from;
  // Skewed popularity: item k is picked about as often as 1/(k+1).
  const skewed = (ids: number[]) => ids[Math.floor(ids.length * next() ** 2.5)];
  for (let start = 0; start < options.events; start += EVENT_BATCH) {
    await letOthersRun();
    options.signal?.throwIfAborted();
    const size = Math.min(EVENT_BATCH, options.events - start);
    const eventIds: string[] = [];
    const userIds: number[] = [];
    const nodeIds: number[] = [];
    const names: string[] = [];
    const at: string[] = [];
    for (let i = 0; i < size; i += 1) {
      const kind = next();
      eventIds.push(`gen-${options.seed}-e${start + i + 1}`);
      userIds.push(firstUser + Math.floor(userSpan * next() ** 1.3));
      if (kind < 0.6) {
        nodeIds.push(skewed(documentIds));
        names.push('document.view');
      } else if (kind < 0.9) {
        nodeIds.push(skewed(advertIds));
        names.push(
          weighted(next, [
            ['advert.view', 70],
            ['advert.click', 15],
            ['quiz.view', 10],
            ['quiz.answered', 5],
          ] as const),
        );
      } else {
        nodeIds.push(skewed(keywordIds));
        names.push('search');
      }
      at.push(new Date(from + Math.floor(next() * span)).toISOString());
    }
    await db.execute(
      sql`INSERT INTO interaction_events (event_id, user_id, node_id, event, at)
          SELECT * FROM unnest(${param(eventIds)}::text[], ${param(userIds)}::int[], ${param(nodeIds)}::int[], ${param(names)}::text[], ${param(at)}::timestamptz[])
          ON CONFLICT (event_id) DO NOTHING`,
    );
    options.progress?.('events', start + size, options.events);
  }
  return { users: options.users, events: options.events, documents, adverts, keywords };
}
