import { sql } from 'drizzle-orm';
import { epochSeconds, DEFAULT_FOOTNOTES } from '@shared/rules/advert-model';
import type { Clock } from '../../clock';
import type { Database } from '../../db/client';
import { defaultsOf, insertItem, rows, setAudiences, type AnyModel, type Kind } from './store';

/**
 * The demo workspace's adverts and articles (`--demo`): sponsored campaigns of fictional laboratories of every
 * type, attached to the demo audiences, some published, some scheduled, some ended or archived, a funnel, and
 * editorial articles. Written once the demo audiences exist (they are seeded in the background), never twice.
 */

const DAY = 86_400;
const LABS = ['Laboratoires Aurélia', 'Pharmavia', 'Medilys', 'Cardionov', 'Dermalia', 'Neurogen Santé'];
const CDN = 'https://cdn.demo.backoffice.local';

interface DemoAdvert {
  name: string;
  type: 'post' | 'video' | 'quiz' | 'story' | 'search' | 'notification' | 'tool' | 'banner';
  title: string;
  tagline: string;
  audience: string;
  state: 'published' | 'draft' | 'scheduled' | 'ended' | 'archived';
  weight?: number;
}

const ADVERTS: DemoAdvert[] = [
  { name: 'Cardionov — Insuffisance cardiaque', type: 'post', title: 'Insuffisance cardiaque : les nouvelles recommandations ESC', tagline: 'Ce qui change pour vos patients en 2026, en cinq points clés.', audience: 'Cardiologues France', state: 'published', weight: 8 },
  { name: 'Cardionov — Webinar HTA', type: 'video', title: 'Webinar : HTA résistante, quelle stratégie ?', tagline: '45 minutes avec le Pr Lemoine, replay disponible.', audience: 'Lecteurs du guide HTA', state: 'published', weight: 6 },
  { name: 'Pharmavia — Vaccination grippe', type: 'notification', title: 'Campagne de vaccination antigrippale', tagline: "Les doses sont disponibles : pensez à vos patients à risque.", audience: 'Pharmaciens d’officine', state: 'published' },
  { name: 'Medilys — Quiz diabète', type: 'quiz', title: 'Diabète de type 2 : testez vos connaissances', tagline: 'Trois questions sur les iSGLT2.', audience: 'Documents cardio-diabète', state: 'published', weight: 7 },
  { name: 'Dermalia — Story acné', type: 'story', title: "L'acné de l'adulte", tagline: 'Cinq écrans pour tout revoir.', audience: 'Pharmaciens d’officine', state: 'published' },
  { name: 'Neurogen — Migraine', type: 'post', title: 'Migraine chronique : place des anti-CGRP', tagline: 'Synthèse des données de vie réelle.', audience: 'Médecins généralistes experts', state: 'scheduled' },
  { name: 'Aurélia — Calculateur DFG', type: 'tool', title: 'Calculateur DFG CKD-EPI', tagline: 'Sponsorisé par les Laboratoires Aurélia.', audience: 'Utilisateurs d’outils', state: 'published' },
  { name: 'Pharmavia — Recherche diabetes', type: 'search', title: 'Diabetes: nuevas guías 2026', tagline: 'Todo sobre la nueva guía.', audience: 'Búsqueda diabetes', state: 'published' },
  { name: 'Medilys — Bannière IDF', type: 'banner', title: 'Journées Medilys Île-de-France', tagline: 'Inscriptions ouvertes.', audience: 'Île-de-France experts', state: 'draft' },
  { name: 'Cardionov — Prescripteurs AVK', type: 'post', title: 'AVK ou AOD : le point', tagline: 'Comparatif des recommandations HAS.', audience: 'Prescripteurs de ville', state: 'ended' },
  { name: 'Aurélia — Heart failure UK', type: 'video', title: 'Heart failure: what is new', tagline: 'A 10-minute update.', audience: 'Doctors UK', state: 'published' },
  { name: 'Dermalia — Soins infirmiers plaies', type: 'notification', title: 'Plaies chroniques : nouveau protocole', tagline: 'Fiche pratique téléchargeable.', audience: 'Infirmiers libéraux', state: 'archived' },
];

const ARTICLES = [
  { name: 'Calendrier vaccinal 2026', type: 'post', title: 'Calendrier vaccinal 2026 : ce qui change', isPinned: true },
  { name: 'Tension artérielle : bien mesurer', type: 'video', title: 'Mesure de la pression artérielle en consultation', isPinned: false },
  { name: 'Quiz antibiothérapie', type: 'quiz', title: 'Antibiothérapie : les bons réflexes', isPinned: false },
  { name: 'Story canicule', type: 'story', title: 'Canicule : protéger les patients fragiles', isPinned: false },
  { name: 'Nouveautés HAS', type: 'post', title: 'Les recommandations HAS du mois', isPinned: true },
  { name: 'Outil score de Wells', type: 'tool', title: 'Score de Wells (embolie pulmonaire)', isPinned: false },
] as const;

function advertModel(item: DemoAdvert, index: number, now: number): AnyModel {
  const lab = LABS[index % LABS.length];
  const slug = item.name.toLowerCase().normalize('NFD').replace(/[^a-z0-9]+/g, '-');
  const model = { ...defaultsOf('advert'), id: 0 } as Record<string, unknown>;
  Object.assign(model, {
    name: item.name,
    type: item.type,
    title: item.title,
    tagline: item.tagline,
    author: lab,
    source: `https://www.${slug.split('-')[0]}.example/${slug}`,
    logo: `${CDN}/logos/${index % LABS.length}.png`,
    images: [`${CDN}/covers/${slug}.jpg`],
    image: `${CDN}/covers/${slug}.jpg`,
    weight: item.weight ?? 5,
    archived: item.state === 'archived',
    published: item.state === 'published',
    footNote: item.audience === 'Doctors UK' ? DEFAULT_FOOTNOTES.en : item.audience.startsWith('Búsqueda') ? DEFAULT_FOOTNOTES.es : DEFAULT_FOOTNOTES.fr,
  });
  if (item.type === 'video') model.video = `${CDN}/videos/${slug}.mp4`;
  if (item.type === 'tool') model.sonataId = `SONATA-${1000 + index}`;
  if (item.type === 'search') model.search = { position: 1, tabs: ['all', 'rcps'], association: null };
  if (item.type === 'quiz') {
    model.quiz = {
      questions: [
        { id: 1, answer: 'Metformine en première intention', correct: true, percentage: 62 },
        { id: 2, answer: 'Insuline en première intention', correct: false, percentage: 21 },
        { id: 3, answer: 'Sulfamides en première intention', correct: false, percentage: 17 },
      ],
      allowMultipleAnswers: false,
      link: model.source,
      isSurvey: false,
      votersCount: 128,
      votersCountDefault: 100,
      answerButtonLabel: 'En savoir plus',
      validateButtonLabel: 'Valider',
      hasAnswered: false,
      answeredIds: [],
    };
  }
  if (item.type === 'story') {
    model.story = {
      logo: model.logo,
      title: item.title,
      subtitle: lab,
      position: 1,
      forward: false,
      isSeen: false,
      resetAt: null,
      screens: [1, 2, 3].map((n) => ({
        id: n,
        uuid: `00000000-0000-4000-8000-00000000000${n}`,
        logo: null,
        title: `${item.title} — ${n}/3`,
        subtitle: '',
        titleColor: '#FFFFFF',
        subtitleColor: '#FFFFFF',
        backgroundColor: '#C41723',
        illustration: `${CDN}/stories/${slug}-${n}.jpg`,
        link: '',
        position: n - 1,
        footerButtonText: 'VALIDER',
        footerButtonTextColor: '#FFFFFF',
        footerChevronColor: '#FFFFFF',
        footerBgColor: '#C41723',
      })),
    };
  }
  if (item.state === 'scheduled') {
    Object.assign(model, { autoStartAt: now + 3 * DAY, autoStopAt: now + 33 * DAY, autoPublishOptions: { activated: true, emails: ['csm@demo.backoffice.local'] } });
  }
  if (item.state === 'ended') Object.assign(model, { autoStartAt: now - 40 * DAY, autoStopAt: now - 10 * DAY });
  return model as unknown as AnyModel;
}

export async function seedAdvertDemo(db: Database, clock: Clock, signal?: AbortSignal): Promise<boolean> {
  // The demo audiences come from the audiences feature's background seeding: wait for them (or give up on close).
  for (;;) {
    signal?.throwIfAborted();
    const [{ count }] = await rows<{ count: number }>(db, sql`SELECT count(*)::int AS count FROM audiences`);
    if (count > 0) break;
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
  const [{ existing }] = await rows<{ existing: number }>(db, sql`SELECT (SELECT count(*) FROM adverts) + (SELECT count(*) FROM articles) AS existing`);
  if (Number(existing) > 0) return false;
  const now = epochSeconds(clock.now());
  const audiences = new Map((await rows<{ id: number; name: string }>(db, sql`SELECT id, name FROM audiences`)).map((row) => [row.name, row.id]));
  await db.transaction(async (tx) => {
    const ids: number[] = [];
    for (const [index, item] of ADVERTS.entries()) {
      const model = advertModel(item, index, now);
      const id = await insertItem(tx, 'advert', model, now - (ADVERTS.length - index) * 3600);
      const audienceId = audiences.get(item.audience);
      if (audienceId) await setAudiences(tx, 'advert', id, [audienceId]);
      if (item.state === 'published') await tx.execute(sql`UPDATE adverts SET published_at = ${now - 5 * DAY} WHERE id = ${id}`);
      if (item.state === 'ended') await tx.execute(sql`UPDATE adverts SET published_at = ${now - 40 * DAY}, unpublished_at = ${now - 10 * DAY} WHERE id = ${id}`);
      ids.push(id);
    }
    // A funnel: the HTA webinar after two views of the heart-failure post, a day later.
    const [{ uuid }] = await rows<{ uuid: string }>(tx, sql`INSERT INTO funnels DEFAULT VALUES RETURNING uuid`);
    await tx.execute(sql`INSERT INTO funnel_steps (funnel_uuid, position, advert_id, min_views, grace_period_ms) VALUES (${uuid}, 0, ${ids[0]}, 0, 0), (${uuid}, 1, ${ids[1]}, 2, ${DAY * 1000})`);
    for (const [index, item] of ARTICLES.entries()) {
      const model = { ...defaultsOf('article'), id: 0, name: item.name, type: item.type, title: item.title, isPinned: item.isPinned, author: 'Rédaction', published: index % 3 !== 2 } as Record<string, unknown>;
      model.tagline = `${item.title}, par la rédaction médicale.`;
      model.logo = `${CDN}/logos/redaction.png`;
      model.images = [`${CDN}/articles/${index + 1}.jpg`];
      if (item.type === 'video') model.video = `${CDN}/articles/${index + 1}.mp4`;
      const id = await insertItem(tx, 'article' as Kind, model as unknown as AnyModel, now - index * 7200);
      const audienceId = audiences.get('Médecins généralistes experts');
      if (audienceId) await setAudiences(tx, 'article', id, [audienceId]);
    }
  });
  return true;
}
