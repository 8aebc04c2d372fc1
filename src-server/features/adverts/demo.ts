import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { epochSeconds, DEFAULT_FOOTNOTES } from '@shared/rules/advert-model';
import { ADVERTS_ROOT } from '@shared/rules/storage';
import type { Clock } from '../../clock';
import type { Database } from '../../db/client';
import type { StorageAdapter } from '../../storage/adapter';
import { mediaUrl } from '../../storage/media';
import { demoCover, demoIllustration, demoLogo, type Palette, type Theme } from './demo-media';
import { defaultsOf, insertItem, rows, setAudiences, type AnyModel, type Kind } from './store';
import { foldForSearch } from '@shared/rules/fold';

/**
 * The demo workspace's adverts and articles (`--demo`): sponsored campaigns of fictional laboratories of every
 * type, attached to the demo audiences, some published, some scheduled, some ended or archived, a funnel, and
 * editorial articles. Written once the demo audiences exist (they are seeded in the background), never twice.
 */

const DAY = 86_400;
/** The fictional laboratories: the brand colours and initial of their logo, and of their adverts' covers. */
const LABS: { name: string; prefix: string; letter: string; palette: Palette }[] = [
  { name: 'Laboratoires Aurélia', prefix: 'Aurélia', letter: 'A', palette: { from: '#FBBF24', to: '#EA580C', accent: '#9A3412' } },
  { name: 'Pharmavia', prefix: 'Pharmavia', letter: 'P', palette: { from: '#2DD4BF', to: '#0F766E', accent: '#115E59' } },
  { name: 'Medilys', prefix: 'Medilys', letter: 'M', palette: { from: '#A5B4FC', to: '#4338CA', accent: '#3730A3' } },
  { name: 'Cardionov', prefix: 'Cardionov', letter: 'C', palette: { from: '#FB7185', to: '#BE123C', accent: '#9F1239' } },
  { name: 'Dermalia', prefix: 'Dermalia', letter: 'D', palette: { from: '#F9A8D4', to: '#DB2777', accent: '#9D174D' } },
  { name: 'Neurogen Santé', prefix: 'Neurogen', letter: 'N', palette: { from: '#7DD3FC', to: '#1D4ED8', accent: '#1E3A8A' } },
];
const NEWSROOM = { name: 'Rédaction', letter: 'R', palette: { from: '#F87171', to: '#B91C1C', accent: '#7F1D1D' } };
/** Covers of the editorial articles, one colour each. */
const ARTICLE_PALETTES: Palette[] = [
  { from: '#6EE7B7', to: '#047857', accent: '#065F46' },
  { from: '#93C5FD', to: '#1D4ED8', accent: '#1E3A8A' },
  { from: '#C4B5FD', to: '#6D28D9', accent: '#4C1D95' },
  { from: '#FCD34D', to: '#D97706', accent: '#92400E' },
  { from: '#5EEAD4', to: '#0E7490', accent: '#164E63' },
  { from: '#FDA4AF', to: '#E11D48', accent: '#881337' },
];
/** Videos cannot be drawn: their address stays outside (the preview shows the cover in their place). */
const VIDEO_CDN = 'https://cdn.demo.backoffice.local';
/** Where the demo's pictures are stored: with the adverts' uploads, so that they are served, kept and deleted alike. */
const DEMO_MEDIA_ROOT = `${ADVERTS_ROOT}/demo`;

interface DemoAdvert {
  name: string;
  type: 'post' | 'video' | 'quiz' | 'story' | 'search' | 'notification' | 'tool' | 'banner';
  title: string;
  tagline: string;
  audience: string;
  state: 'published' | 'draft' | 'scheduled' | 'ended' | 'archived';
  weight?: number;
  /** The picture of its cover (and of its story's screens). */
  theme: Theme;
  screens?: Theme[];
}

const ADVERTS: DemoAdvert[] = [
  {
    name: 'Cardionov — Insuffisance cardiaque',
    type: 'post',
    title: 'Insuffisance cardiaque : les nouvelles recommandations ESC',
    tagline: 'Ce qui change pour vos patients en 2026, en cinq points clés.',
    audience: 'Cardiologues France',
    state: 'published',
    weight: 8,
    theme: 'heart',
  },
  {
    name: 'Cardionov — Webinar HTA',
    type: 'video',
    title: 'Webinar : HTA résistante, quelle stratégie ?',
    tagline: '45 minutes avec le Pr Lemoine, replay disponible.',
    audience: 'Lecteurs du guide HTA',
    state: 'published',
    weight: 6,
    theme: 'play',
  },
  {
    name: 'Pharmavia — Vaccination grippe',
    type: 'notification',
    title: 'Campagne de vaccination antigrippale',
    tagline: 'Les doses sont disponibles : pensez à vos patients à risque.',
    audience: 'Pharmaciens d’officine',
    state: 'published',
    theme: 'vaccine',
  },
  {
    name: 'Medilys — Quiz diabète',
    type: 'quiz',
    title: 'Diabète de type 2 : testez vos connaissances',
    tagline: 'Trois questions sur les iSGLT2.',
    audience: 'Documents cardio-diabète',
    state: 'published',
    weight: 7,
    theme: 'drop',
  },
  {
    name: 'Dermalia — Story acné',
    type: 'story',
    title: "L'acné de l'adulte",
    tagline: 'Cinq écrans pour tout revoir.',
    audience: 'Pharmaciens d’officine',
    state: 'published',
    theme: 'leaf',
    screens: ['leaf', 'drop', 'document'],
  },
  {
    name: 'Neurogen — Migraine',
    type: 'post',
    title: 'Migraine chronique : place des anti-CGRP',
    tagline: 'Synthèse des données de vie réelle.',
    audience: 'Médecins généralistes experts',
    state: 'scheduled',
    theme: 'bolt',
  },
  {
    name: 'Aurélia — Calculateur DFG',
    type: 'tool',
    title: 'Calculateur DFG CKD-EPI',
    tagline: 'Sponsorisé par les Laboratoires Aurélia.',
    audience: 'Utilisateurs d’outils',
    state: 'published',
    theme: 'calculator',
  },
  {
    name: 'Pharmavia — Recherche diabetes',
    type: 'search',
    title: 'Diabetes: nuevas guías 2026',
    tagline: 'Todo sobre la nueva guía.',
    audience: 'Búsqueda diabetes',
    state: 'published',
    theme: 'search',
  },
  {
    name: 'Medilys — Bannière IDF',
    type: 'banner',
    title: 'Journées Medilys Île-de-France',
    tagline: 'Inscriptions ouvertes.',
    audience: 'Île-de-France experts',
    state: 'draft',
    theme: 'calendar',
  },
  {
    name: 'Cardionov — Prescripteurs AVK',
    type: 'post',
    title: 'AVK ou AOD : le point',
    tagline: 'Comparatif des recommandations HAS.',
    audience: 'Prescripteurs de ville',
    state: 'ended',
    theme: 'pills',
  },
  {
    name: 'Aurélia — Heart failure UK',
    type: 'video',
    title: 'Heart failure: what is new',
    tagline: 'A 10-minute update.',
    audience: 'Doctors UK',
    state: 'published',
    theme: 'heart',
  },
  {
    name: 'Dermalia — Soins infirmiers plaies',
    type: 'notification',
    title: 'Plaies chroniques : nouveau protocole',
    tagline: 'Fiche pratique téléchargeable.',
    audience: 'Infirmiers libéraux',
    state: 'archived',
    theme: 'bandage',
  },
];

const ARTICLES = [
  { name: 'Calendrier vaccinal 2026', type: 'post', title: 'Calendrier vaccinal 2026 : ce qui change', isPinned: true, theme: 'calendar' as Theme },
  {
    name: 'Tension artérielle : bien mesurer',
    type: 'video',
    title: 'Mesure de la pression artérielle en consultation',
    isPinned: false,
    theme: 'gauge' as Theme,
  },
  { name: 'Quiz antibiothérapie', type: 'quiz', title: 'Antibiothérapie : les bons réflexes', isPinned: false, theme: 'pills' as Theme },
  { name: 'Story canicule', type: 'story', title: 'Canicule : protéger les patients fragiles', isPinned: false, theme: 'sun' as Theme },
  { name: 'Nouveautés HAS', type: 'post', title: 'Les recommandations HAS du mois', isPinned: true, theme: 'document' as Theme },
  { name: 'Outil score de Wells', type: 'tool', title: 'Score de Wells (embolie pulmonaire)', isPinned: false, theme: 'lungs' as Theme },
] as const;

/** A name as a path segment: lower case, no accents, dashes. */
const slugOf = (name: string) =>
  foldForSearch(name)
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** The laboratory of an advert, from the start of its name ('Cardionov — …'). */
const labOf = (item: DemoAdvert) => LABS.find((lab) => item.name.startsWith(lab.prefix)) ?? LABS[0];

/** The stored URL of each demo picture, by its place under DEMO_MEDIA_ROOT; empty when storage is not at hand. */
type DemoMedia = Map<string, string>;

/** Every picture of the demo: its place (kind/slug/file) and how to draw it; each item has its own files, as uploads do. */
function demoPictures(): [place: string, draw: () => Buffer][] {
  const logos = new Map<string, Buffer>();
  const logoOf = (brand: { name: string; letter: string; palette: Palette }) => () => {
    if (!logos.has(brand.name)) logos.set(brand.name, demoLogo(brand.letter, brand.palette));
    return logos.get(brand.name)!;
  };
  const pictures: [string, () => Buffer][] = [];
  ADVERTS.forEach((item, index) => {
    const lab = labOf(item);
    const slug = slugOf(item.name);
    pictures.push([`adverts/${slug}/logo.png`, logoOf(lab)], [`adverts/${slug}/cover.png`, () => demoCover(item.theme, lab.palette, index)]);
    (item.screens ?? []).forEach((theme, screen) =>
      pictures.push([`adverts/${slug}/screen-${screen + 1}.png`, () => demoIllustration(theme, lab.palette.accent)]),
    );
  });
  ARTICLES.forEach((item, index) => {
    const slug = slugOf(item.name);
    pictures.push(
      [`articles/${slug}/logo.png`, logoOf(NEWSROOM)],
      [`articles/${slug}/cover.png`, () => demoCover(item.theme, ARTICLE_PALETTES[index % ARTICLE_PALETTES.length], index + 1)],
    );
  });
  return pictures;
}

/**
 * Draws the demo's pictures and stores them where uploads go: the same keys and bytes at every seeding, so a
 * seeding interrupted and run again only writes them over. Answers their media URLs by place.
 */
async function storeDemoMedia(storage: StorageAdapter, publicUrl: string | undefined, signal?: AbortSignal): Promise<DemoMedia> {
  const urls: DemoMedia = new Map();
  for (const [place, draw] of demoPictures()) {
    signal?.throwIfAborted();
    const stored = await storage.put(`${DEMO_MEDIA_ROOT}/${place}`, Readable.from([draw()]), 'image/png');
    urls.set(place, mediaUrl(publicUrl, stored));
  }
  return urls;
}

function advertModel(item: DemoAdvert, index: number, now: number, media: DemoMedia): AnyModel {
  const lab = labOf(item);
  const slug = slugOf(item.name);
  const picture = (file: string) => media.get(`adverts/${slug}/${file}`) ?? null;
  const cover = picture('cover.png');
  const model = { ...defaultsOf('advert'), id: 0 } as Record<string, unknown>;
  Object.assign(model, {
    name: item.name,
    type: item.type,
    title: item.title,
    tagline: item.tagline,
    author: lab.name,
    source: `https://www.${slug.split('-')[0]}.example/${slug}`,
    logo: picture('logo.png'),
    images: cover ? [cover] : [],
    image: cover,
    weight: item.weight ?? 5,
    archived: item.state === 'archived',
    published: item.state === 'published',
    footNote:
      item.audience === 'Doctors UK' ? DEFAULT_FOOTNOTES.en : item.audience.startsWith('Búsqueda') ? DEFAULT_FOOTNOTES.es : DEFAULT_FOOTNOTES.fr,
  });
  if (item.type === 'video') model.video = `${VIDEO_CDN}/videos/${slug}.mp4`;
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
      subtitle: lab.name,
      position: 1,
      forward: false,
      isSeen: false,
      resetAt: null,
      screens: (item.screens ?? [])
        .map((_, position, all) => ({ n: position + 1, count: all.length }))
        .map(({ n, count }) => ({
          id: n,
          uuid: `00000000-0000-4000-8000-00000000000${n}`,
          logo: null,
          title: `${item.title} — ${n}/${count}`,
          subtitle: '',
          titleColor: '#FFFFFF',
          subtitleColor: '#FFFFFF',
          backgroundColor: lab.palette.to,
          illustration: picture(`screen-${n}.png`),
          link: '',
          position: n - 1,
          footerButtonText: 'VALIDER',
          footerButtonTextColor: '#FFFFFF',
          footerChevronColor: '#FFFFFF',
          footerBgColor: lab.palette.accent,
        })),
    };
  }
  if (item.state === 'scheduled') {
    Object.assign(model, {
      autoStartAt: now + 3 * DAY,
      autoStopAt: now + 33 * DAY,
      autoPublishOptions: { activated: true, emails: ['csm@demo.backoffice.local'] },
    });
  }
  // Its automatic publication had its e-mail, as a save requires (§5).
  if (item.state === 'ended')
    Object.assign(model, {
      autoStartAt: now - 40 * DAY,
      autoStopAt: now - 10 * DAY,
      autoPublishOptions: { activated: true, emails: ['csm@demo.backoffice.local'] },
    });
  return model as unknown as AnyModel;
}

/** Where the demo's pictures go (the server's storage and its public media address) and who hears of a failure. */
export interface DemoMediaTarget {
  storage: StorageAdapter;
  publicUrl?: string;
  warn?: (error: unknown) => void;
}

/**
 * Without `media`, the items have no pictures (the previews show their placeholders). Called once the demo audiences
 * exist (src-server/demo/ seeds the population first): the items name them.
 */
export async function seedAdvertDemo(db: Database, clock: Clock, signal?: AbortSignal, media?: DemoMediaTarget): Promise<boolean> {
  const [{ existing }] = await rows<{ existing: number }>(
    db,
    sql`SELECT (SELECT count(*) FROM adverts) + (SELECT count(*) FROM articles) AS existing`,
  );
  if (Number(existing) > 0) return false;
  // Pictures first: a storage that fails leaves the items without them, never without the items.
  let pictures: DemoMedia = new Map();
  if (media) {
    try {
      pictures = await storeDemoMedia(media.storage, media.publicUrl, signal);
    } catch (error) {
      signal?.throwIfAborted();
      media.warn?.(error);
    }
  }
  const now = epochSeconds(clock.now());
  const audiences = new Map((await rows<{ id: number; name: string }>(db, sql`SELECT id, name FROM audiences`)).map((row) => [row.name, row.id]));
  await db.transaction(async (tx) => {
    const ids: number[] = [];
    for (const [index, item] of ADVERTS.entries()) {
      const model = advertModel(item, index, now, pictures);
      const id = await insertItem(tx, 'advert', model, now - (ADVERTS.length - index) * 3600);
      const audienceId = audiences.get(item.audience);
      if (audienceId) await setAudiences(tx, 'advert', id, [audienceId]);
      if (item.state === 'published') await tx.execute(sql`UPDATE adverts SET published_at = ${now - 5 * DAY} WHERE id = ${id}`);
      if (item.state === 'ended')
        await tx.execute(sql`UPDATE adverts SET published_at = ${now - 40 * DAY}, unpublished_at = ${now - 10 * DAY} WHERE id = ${id}`);
      ids.push(id);
    }
    // A funnel: the HTA webinar after two views of the heart-failure post, a day later.
    const [{ uuid }] = await rows<{ uuid: string }>(tx, sql`INSERT INTO funnels DEFAULT VALUES RETURNING uuid`);
    await tx.execute(
      sql`INSERT INTO funnel_steps (funnel_uuid, position, advert_id, min_views, grace_period_ms) VALUES (${uuid}, 0, ${ids[0]}, 0, 0), (${uuid}, 1, ${ids[1]}, 2, ${DAY * 1000})`,
    );
    for (const [index, item] of ARTICLES.entries()) {
      const model = {
        ...defaultsOf('article'),
        id: 0,
        name: item.name,
        type: item.type,
        title: item.title,
        isPinned: item.isPinned,
        author: 'Rédaction',
        published: index % 3 !== 2,
      } as Record<string, unknown>;
      model.tagline = `${item.title}, par la rédaction médicale.`;
      const slug = slugOf(item.name);
      const cover = pictures.get(`articles/${slug}/cover.png`);
      model.logo = pictures.get(`articles/${slug}/logo.png`) ?? null;
      model.images = cover ? [cover] : [];
      model.image = cover ?? null;
      if (item.type === 'video') model.video = `${VIDEO_CDN}/articles/${index + 1}.mp4`;
      const id = await insertItem(tx, 'article' as Kind, model as unknown as AnyModel, now - index * 7200);
      const audienceId = audiences.get('Médecins généralistes experts');
      if (audienceId) await setAudiences(tx, 'article', id, [audienceId]);
    }
  });
  return true;
}
