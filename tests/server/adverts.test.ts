import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@shared/messages';
import { DEFAULT_FOOTNOTE, DEFAULT_FOOTNOTES } from '@shared/rules/advert-model';
import { DELAY_REASONS } from '@shared/rules/campaigns';
import { seedAdvertDemo } from '../../src-server/features/adverts/demo';
import type { StorageAdapter } from '../../src-server/storage/adapter';
import { ManualClock } from '../helpers/clock';
import { freshDatabase } from '../helpers/database';
import { startTestServer, type TestServer } from '../helpers/server';

/** Adverts and articles over real HTTP (docs/content.md): PGlite, or PostgreSQL with TEST_DATABASE_URL. */

const START = Date.UTC(2026, 2, 2, 9, 0, 0);
const DAY = 86_400;
const clock = new ManualClock(START);
const nowSeconds = () => Math.floor(clock.now().getTime() / 1000);

let server: TestServer;
let admin: string;
let csm: string;
let csmId: number;
let lead: string;
let sales: string;
let salesAdmin: string;
let content: string;
let expertAudience: number;
let openAudience: number;

beforeAll(async () => {
  server = await startTestServer({ clock });
  admin = (await server.signIn(['ADMIN'])).accessToken.value;
  const csmSession = await server.signIn(['CSM']);
  csm = csmSession.accessToken.value;
  csmId = csmSession.userId;
  lead = (await server.signIn(['CSM_LEAD'])).accessToken.value;
  sales = (await server.signIn(['SALES'])).accessToken.value;
  salesAdmin = (await server.signIn(['SALES', 'ADMIN'])).accessToken.value;
  content = (await server.signIn(['CONTENT_CREATOR'])).accessToken.value;
  expertAudience = await audience('Cardiologues experts', ['ROLE_EXPERT']);
  openAudience = await audience('Tous les pharmaciens', []);
});
afterAll(() => server?.close());

/** An audience requiring these app-user roles (made through the audiences API, as staff would). */
async function audience(name: string, roles: string[]): Promise<number> {
  await server.request('POST', '/population/users', {
    token: admin,
    body: roles.map((role, index) => ({ externalId: `seed-${name}-${index}`, roles: [role] })),
  });
  const relationships = [];
  for (const role of roles) {
    const found = await server.request('GET', `/search?term=${role}&label=Role&isGroup=true`, { token: lead });
    relationships.push({ node: { label: 'Role', id: found.body[0].id } });
  }
  const created = await server.request('POST', '/audience', { token: lead, body: { name, relationships } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.id;
}

async function call(method: string, path: string, token: string, body?: unknown) {
  return server.request(method, path, { token, body });
}

async function createAdvert(advert: Record<string, unknown> = {}, token = csm, targetId?: number) {
  const response = await call('POST', '/advert/create', token, {
    advert: { name: 'Campagne', type: 'post', ...advert },
    ...(targetId ? { targetId } : {}),
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

/** A project action with these figures (the advert's `_$target` is read from it: docs/content.md). */
async function projectTarget(fields: Record<string, unknown>): Promise<{ id: number; projectId: number }> {
  const project = await call('POST', '/project', csm, {
    name: 'Campagne cardio',
    clientName: 'Sanofa',
    keyAccount: csmId,
    actor: 'Laboratoire',
    lines: 1,
  });
  expect(project.status, JSON.stringify(project.body)).toBe(201);
  const target = await call('PUT', `/target/${project.body.targets[0].id}/properties`, csm, { type: 'post', ...fields });
  expect(target.status, JSON.stringify(target.body)).toBe(200);
  return { id: target.body.id, projectId: project.body.id };
}

const complete = {
  logo: 'https://cdn.test/logo.png',
  images: ['https://cdn.test/a.png'],
  author: 'Laboratoire Test',
  source: 'https://lab.test',
  title: 'Un titre',
};

describe('advert model and basic calls', () => {
  it('creates with the defaults of spec §3, unpublished even when asked otherwise', async () => {
    const advert = await createAdvert({ published: true });
    expect(advert).toMatchObject({
      name: 'Campagne',
      type: 'post',
      weight: 5,
      maxViews: 5,
      showReadMore: true,
      subtitle: 'Partenariat sponsorisé',
      buttonLabel: 'Découvrir',
      footNote: DEFAULT_FOOTNOTE,
      published: false,
      archived: false,
      model: 'latest',
      _$audiences: [],
      _$target: null,
      createdAt: nowSeconds(),
      updatedAt: nowSeconds(),
    });
    const loaded = await call('GET', `/v2/advert/${advert.id}`, sales);
    expect(loaded.status).toBe(200);
    expect(loaded.body).toEqual(advert);
  });

  it('answers 404 with the spec text for an unknown advert', async () => {
    const missing = await call('GET', '/v2/advert/999999', csm);
    expect(missing).toMatchObject({ status: 404, body: { errorMsg: "Cette publicité n'existe pas." } });
  });

  it('quiz: answer label default, validate label follows the footnote language, quiz link follows the source', async () => {
    const quiz = await createAdvert({
      type: 'quiz',
      quiz: { questions: [{ id: 1, answer: 'Oui' }] },
      footNote: DEFAULT_FOOTNOTES.es,
      source: 'https://a.test',
    });
    expect(quiz.quiz).toMatchObject({ answerButtonLabel: 'En savoir plus', validateButtonLabel: 'Validar' });
    const english = await call('PUT', `/v2/advert/${quiz.id}`, csm, { advert: { footNote: DEFAULT_FOOTNOTES.en, source: 'https://b.test' } });
    expect(english.body.quiz).toMatchObject({ validateButtonLabel: 'Validate', link: 'https://b.test' });
    const italian = await call('PUT', `/v2/advert/${quiz.id}/footNote`, csm, { value: DEFAULT_FOOTNOTES.it });
    expect(italian.body.quiz.validateButtonLabel).toBe('Validare');
  });

  it('updates the fields sent, and one property at a time (validated like the field)', async () => {
    const advert = await createAdvert();
    clock.advance(60_000);
    const updated = await call('PUT', `/v2/advert/${advert.id}`, csm, {
      advert: { ...advert, title: 'Nouveau', weight: 8, id: 12345, createdAt: 1 },
    });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body).toMatchObject({ id: advert.id, title: 'Nouveau', weight: 8, createdAt: advert.createdAt, updatedAt: nowSeconds() });
    const weight = await call('PUT', `/v2/advert/${advert.id}/weight`, csm, { value: 3 });
    expect(weight.body.weight).toBe(3);
    const tooHeavy = await call('PUT', `/v2/advert/${advert.id}/weight`, csm, { value: 11 });
    expect(tooHeavy.status).toBe(400);
    const unknown = await call('PUT', `/v2/advert/${advert.id}/nosuchfield`, csm, { value: 1 });
    expect(unknown.status).toBe(400);
  });

  it('refuses to publish a banner without its image, and publishes it with one', async () => {
    const banner = await createAdvert({ name: 'Bannière', type: 'banner', bannerLink: 'https://www.exemple.fr' });
    await call('POST', '/advert/attach', csm, { advert: { id: banner.id }, audienceIds: [expertAudience] });
    const refused = await call('PUT', `/v2/advert/${banner.id}/published`, csm, { value: true });
    expect(refused.status).toBe(400);
    expect(refused.body.errorMsg).toContain('Images');
    await call('PUT', `/v2/advert/${banner.id}/images`, csm, { value: ['https://www.exemple.fr/banniere.png'] });
    const published = await call('PUT', `/v2/advert/${banner.id}/published`, csm, { value: true });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
  });

  it('shows an audience as used, with the adverts that target it (id, name), in the list and the editor', async () => {
    const used = await audience('Audience utilisée', []);
    const before = await call('GET', `/audience/${used}`, lead);
    expect(before.body).toMatchObject({ isUsed: false, adverts: [] });
    const first = await createAdvert({ name: 'Pub A' });
    const second = await createAdvert({ name: 'Pub B' });
    for (const advert of [first, second]) await call('POST', '/advert/attach', csm, { advert: { id: advert.id }, audienceIds: [used] });
    const after = await call('GET', `/audience/${used}`, lead);
    expect(after.body).toMatchObject({
      isUsed: true,
      adverts: [
        { id: first.id, name: 'Pub A' },
        { id: second.id, name: 'Pub B' },
      ],
    });
    const listed = await call('GET', `/audiences?term=${encodeURIComponent('Audience utilisée')}`, lead);
    expect(listed.body.items).toMatchObject([{ id: used, isUsed: true, adverts: [{ id: first.id }, { id: second.id }] }]);
    // Detached from both, it is unused again.
    for (const advert of [first, second]) await call('POST', '/advert/attach', csm, { advert: { id: advert.id }, audienceIds: [] });
    expect((await call('GET', `/audience/${used}`, lead)).body).toMatchObject({ isUsed: false, adverts: [] });
  });

  it('duplicates unpublished with the audiences, and deletes', async () => {
    const advert = await createAdvert({ ...complete });
    await call('POST', '/advert/attach', csm, { advert: { id: advert.id }, audienceIds: [expertAudience] });
    const published = await call('PUT', `/v2/advert/${advert.id}/published`, csm, { value: true });
    expect(published.body.published).toBe(true);
    const copy = await call('POST', `/advert/${advert.id}/duplicate`, csm, {});
    expect(copy.status).toBe(201);
    expect(copy.body).toMatchObject({ name: 'Campagne (copie)', published: false, title: 'Un titre', _$audiences: [{ id: expertAudience }] });
    expect(copy.body.id).not.toBe(advert.id);
    const removed = await call('DELETE', `/advert/${copy.body.id}`, csm);
    expect(removed.body).toEqual({ ok: true });
    expect((await call('GET', `/v2/advert/${copy.body.id}`, csm)).status).toBe(404);
  });
});

describe('SALES block (spec §6)', () => {
  it("refuses every advert write to SALES without ADMIN with 403 'User not allowed', allows SALES with ADMIN", async () => {
    const advert = await createAdvert({ type: 'story' });
    const writes: [string, string, unknown][] = [
      ['POST', '/advert/create', { advert: { name: 'x' } }],
      ['POST', `/advert/${advert.id}/duplicate`, {}],
      ['PUT', `/v2/advert/${advert.id}`, { advert: { name: 'x' } }],
      ['PUT', `/v2/advert/${advert.id}/name`, { value: 'x' }],
      ['PUT', `/v2/advert/${advert.id}/publish`, { publish: false }],
      ['POST', '/advert/attach', { advert: { id: advert.id }, audienceIds: [] }],
      ['POST', `/stories/${advert.id}/screen`, {}],
      ['DELETE', `/stories/${advert.id}/screen/1`, undefined],
      ['PUT', `/stories/${advert.id}/reset`, undefined],
      ['PUT', `/advert/${advert.id}/migrate`, undefined],
      ['DELETE', `/advert/${advert.id}`, undefined],
    ];
    for (const [method, path, body] of writes) {
      const refused = await call(method, path, sales, body);
      expect(refused, `${method} ${path}`).toMatchObject({ status: 403, body: { errorMsg: 'User not allowed' } });
    }
    expect((await call('GET', `/v2/advert/${advert.id}`, sales)).status).toBe(200);
    expect((await call('POST', '/adverts', sales, {})).status).toBe(200);
    expect((await call('PUT', `/v2/advert/${advert.id}/name`, salesAdmin, { value: 'Par un admin' })).body.name).toBe('Par un admin');
  });
});

describe('publication checks (spec §5) enforced by the server', () => {
  it('lists the missing properties of the type, then the audience rules', async () => {
    const advert = await createAdvert();
    const refused = await call('PUT', `/v2/advert/${advert.id}/publish`, csm, { publish: true });
    expect(refused.status).toBe(400);
    expect(refused.body.errorMsg).toBe('Les propriétés Logo, Images, Auteur, Source, Titre sont requises / Aucune audience associée à la publicité');
    await call('PUT', `/v2/advert/${advert.id}`, csm, { advert: complete });
    await call('POST', '/advert/attach', csm, { advert: { id: advert.id }, audienceIds: [expertAudience, openAudience] });
    const nonExpert = await call('PUT', `/v2/advert/${advert.id}/published`, csm, { value: true });
    expect(nonExpert.body.errorMsg).toBe('Audience non expert associée à la publicité');
    await call('POST', '/advert/attach', csm, { advert: { id: advert.id }, audienceIds: [expertAudience] });
    const ok = await call('PUT', `/v2/advert/${advert.id}/publish`, csm, { publish: true });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toMatchObject({ published: true, publishedAt: null });
  });

  it("a story's logo is its story's own (the story logo upload), the top-level logo counting too", async () => {
    const story = await createAdvert({ type: 'story', name: 'Story' });
    await call('POST', '/advert/attach', csm, { advert: { id: story.id }, audienceIds: [expertAudience] });
    const refused = await call('PUT', `/v2/advert/${story.id}/publish`, csm, { publish: true });
    expect(refused).toMatchObject({ status: 400, body: { errorMsg: 'Les propriétés Logo sont requises' } });
    const withStoryLogo = await call('PUT', `/v2/advert/${story.id}`, csm, {
      advert: { story: { ...story.story, logo: 'https://cdn.test/story-logo.png' } },
    });
    expect(withStoryLogo.status, JSON.stringify(withStoryLogo.body)).toBe(200);
    const ok = await call('PUT', `/v2/advert/${story.id}/publish`, csm, { publish: true });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    // Published, it keeps its logo: a save without one is refused.
    const without = await call('PUT', `/v2/advert/${story.id}`, csm, { advert: { story: { ...ok.body.story, logo: null } } });
    expect(without).toMatchObject({ status: 400, body: { errorMsg: 'Les propriétés Logo sont requises' } });
    const legacy = await createAdvert({ type: 'story', name: 'Story converted', logo: 'https://cdn.test/logo.png' });
    await call('POST', '/advert/attach', csm, { advert: { id: legacy.id }, audienceIds: [expertAudience] });
    expect((await call('PUT', `/v2/advert/${legacy.id}/publish`, csm, { publish: true })).status).toBe(200);
  });

  it('a video advert needs its video', async () => {
    const advert = await createAdvert({ type: 'video', logo: 'https://cdn.test/l.png', author: 'a', source: 'https://labo.test', title: 't' });
    await call('POST', '/advert/attach', csm, { advert: { id: advert.id }, audienceIds: [expertAudience] });
    const refused = await call('PUT', `/v2/advert/${advert.id}/publish`, csm, { publish: true, updateDates: true });
    expect(refused.body.errorMsg).toBe('Vous devez ajouter une vidéo avant de publier la publicité');
  });
});

describe('campaigns (spec §4)', () => {
  it("'Démarrer la campagne' sets publishedAt; overdue needs a delay reason; revenue impact kept; 'Terminer' sets unpublishedAt", async () => {
    const quoted = nowSeconds() - 25 * DAY;
    const target = await projectTarget({ initialQuotationDate: quoted, endDate: nowSeconds() + 20 * DAY, revenue: 10_000 });
    const advert = await createAdvert({ ...complete }, csm, target.id);
    expect(advert._$target).toMatchObject({ id: target.id, projectId: target.projectId, initialQuotationDate: quoted, delayReason: null });
    await call('POST', '/advert/attach', csm, { advert: { id: advert.id }, audienceIds: [expertAudience] });
    const refused = await call('PUT', `/v2/advert/${advert.id}/publish`, csm, { publish: true, updateDates: true });
    expect(refused).toMatchObject({ status: 400, body: { errorMsg: MESSAGES.delayReasonRequired } });
    // The figures are the target's own: a quotation date sent with the call does not lift the check.
    const dodged = await call('PUT', `/v2/advert/${advert.id}/publish`, csm, {
      publish: true,
      updateDates: true,
      target: { initialQuotationDate: nowSeconds() },
    });
    expect(dodged).toMatchObject({ status: 400, body: { errorMsg: MESSAGES.delayReasonRequired } });
    const wrongReason = await call('PUT', `/v2/advert/${advert.id}/publish`, csm, {
      publish: true,
      updateDates: true,
      target: { delayReason: 'weather' },
    });
    expect(wrongReason.status).toBe(400);
    const started = await call('PUT', `/v2/advert/${advert.id}/publish`, csm, {
      publish: true,
      updateDates: true,
      target: { delayReason: DELAY_REASONS[3].key },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(started.body).toMatchObject({ published: true, publishedAt: nowSeconds(), unpublishedAt: null });
    // 25 days late: 10,000 × (25 − 15) / 20 days to the end; kept on the target, which the advert reads.
    expect(started.body._$target).toMatchObject({ id: target.id, delayReason: 'client_reactivity', releaseDateDiff: 25, revenueDelayImpact: 5000 });
    const onTarget = await call('GET', `/project/${target.projectId}`, csm);
    expect(onTarget.body.targets[0]).toMatchObject({
      advertId: advert.id,
      delayReason: 'client_reactivity',
      releaseDateDiff: 25,
      revenueDelayImpact: 5000,
    });
    clock.advance(5 * 60_000);
    const ended = await call('PUT', `/v2/advert/${advert.id}/publish`, csm, { publish: false, updateDates: true });
    expect(ended.body).toMatchObject({ published: false, publishedAt: started.body.publishedAt, unpublishedAt: nowSeconds() });
  });

  it('a start within 15 days of the quotation needs no reason and costs nothing', async () => {
    const target = await projectTarget({ initialQuotationDate: nowSeconds() - 15 * DAY, revenue: 10_000, endDate: nowSeconds() + DAY });
    const advert = await createAdvert({ ...complete }, csm, target.id);
    await call('POST', '/advert/attach', csm, { advert: { id: advert.id }, audienceIds: [expertAudience] });
    const started = await call('PUT', `/v2/advert/${advert.id}/publish`, csm, { publish: true, updateDates: true });
    expect(started.body._$target).toMatchObject({ id: target.id, releaseDateDiff: 15, revenueDelayImpact: 0, delayReason: null });
    // An advert without a target starts without a delay check.
    const alone = await createAdvert({ ...complete });
    await call('POST', '/advert/attach', csm, { advert: { id: alone.id }, audienceIds: [expertAudience] });
    const aloneStarted = await call('PUT', `/v2/advert/${alone.id}/publish`, csm, {
      publish: true,
      updateDates: true,
      target: { initialQuotationDate: nowSeconds() - 40 * DAY },
    });
    expect(aloneStarted.body).toMatchObject({ published: true, publishedAt: nowSeconds(), _$target: null });
  });
});

describe('advert list (spec §3 filters)', () => {
  it('filters, sorts, pages, and counts', async () => {
    const tag = `Liste${Date.now()}`;
    const a = await createAdvert({ name: `${tag} alpha`, type: 'video', isFree: true, weight: 9 });
    const b = await createAdvert({ name: `${tag} beta`, type: 'post', weight: 2 });
    const c = await createAdvert({ name: `${tag} gamma`, type: 'post', archived: true, weight: 5 });
    await call('POST', '/advert/attach', csm, { advert: { id: b.id }, audienceIds: [expertAudience] });
    const list = async (filters: Record<string, unknown>) => {
      const response = await call('POST', '/adverts', csm, { term: tag, ...filters });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      return response.body as { items: { id: number }[]; total: number };
    };
    expect((await list({})).items.map((row) => row.id)).toEqual([a.id, b.id, c.id]);
    expect((await list({ orderBy: 'weight', order: 'DESC' })).items.map((row) => row.id)).toEqual([a.id, c.id, b.id]);
    expect((await list({ archived: false })).total).toBe(2);
    expect((await list({ type: 'post' })).items.map((row) => row.id)).toEqual([b.id, c.id]);
    expect((await list({ isFree: true })).items.map((row) => row.id)).toEqual([a.id]);
    expect((await list({ audiences: [expertAudience] })).items.map((row) => row.id)).toEqual([b.id]);
    expect((await list({ isExpert: 'ROLE_EXPERT' })).items.map((row) => row.id)).toEqual([b.id]);
    expect((await list({ role: ['ROLE_EXPERT'] })).items.map((row) => row.id)).toEqual([b.id]);
    expect((await list({ area: ['french'] })).items.map((row) => row.id)).toEqual([b.id]);
    expect((await list({ area: ['spanish'] })).total).toBe(0);
    expect((await list({ isInCatalog: false })).items.map((row) => row.id)).toEqual([b.id]);
    const page = await list({ limit: 2, skip: 1 });
    expect(page).toMatchObject({ total: 3, items: [{ id: b.id }, { id: c.id }] });
    const first = await list({ limit: 1 });
    expect(first.total).toBe(3);
    const row = (await list({ audiences: [expertAudience] })).items[0];
    expect(row).toMatchObject({
      name: `${tag} beta`,
      _$audiences: [{ id: expertAudience, name: 'Cardiologues experts', roles: ['ROLE_EXPERT'] }],
      _$targets: [],
    });
    const byId = await call('POST', '/adverts', csm, { term: String(a.id) });
    expect(byId.body.items.map((item: { id: number }) => item.id)).toContain(a.id);
    const search = await call('GET', `/search/Advert?term=${encodeURIComponent(tag)}`, csm);
    expect(search.body.map((item: { id: number }) => item.id).sort()).toEqual([a.id, b.id, c.id].sort());
  });
});

describe('articles', () => {
  it('create, list with isPinned, update with audiences, property, duplicate, delete', async () => {
    const created = await call('POST', '/article/create', content, { article: { name: 'Vaccination', isPinned: true } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({
      type: 'post',
      published: false,
      isPinned: true,
      tag: { text: 'Tag', tagColor: '#66627E' },
      _$pinnedArticles: [],
    });
    const updated = await call('PUT', `/article/${created.body.id}`, content, {
      article: { title: 'Le calendrier 2026' },
      audienceIds: [openAudience],
    });
    expect(updated.body).toMatchObject({ title: 'Le calendrier 2026', _$audiences: [{ id: openAudience, label: 'french' }] });
    const listed = await call('POST', '/article/list', content, { term: 'Vaccination', isPinned: true });
    expect(listed.body.items.map((row: { id: number }) => row.id)).toEqual([created.body.id]);
    const published = await call('PUT', `/article/${created.body.id}/published`, content, { value: true });
    expect(published.body.published).toBe(true);
    const copy = await call('POST', `/article/${created.body.id}/duplicate`, content);
    expect(copy.body).toMatchObject({ name: 'Vaccination (copie)', published: false });
    expect((await call('DELETE', `/article/${copy.body.id}`, content)).body).toEqual({ ok: true });
    expect((await call('GET', `/article/${copy.body.id}`, content)).status).toBe(404);
  });
});

describe('conversion between adverts and articles (spec §4)', () => {
  it('carries the content, detaches the audience, returns the new id; and back', async () => {
    const advert = await createAdvert({ type: 'quiz', title: 'Quiz HTA', quiz: { questions: [{ id: 1, answer: 'A' }] } });
    await call('POST', '/advert/attach', csm, { advert: { id: advert.id }, audienceIds: [expertAudience] });
    const converted = await call('PUT', `/advert/${advert.id}/migrate`, csm);
    expect(converted.status, JSON.stringify(converted.body)).toBe(200);
    const article = await call('GET', `/article/${converted.body.id}`, content);
    expect(article.body).toMatchObject({ type: 'quiz', title: 'Quiz HTA', name: 'Campagne', _$audiences: [], published: false });
    expect((await call('GET', `/v2/advert/${advert.id}`, csm)).status).toBe(404);
    const back = await call('PUT', `/article/${converted.body.id}/migrate`, content);
    const again = await call('GET', `/v2/advert/${back.body.id}`, csm);
    expect(again.body).toMatchObject({ type: 'quiz', title: 'Quiz HTA', _$audiences: [] });
    const banner = await createAdvert({ type: 'banner' });
    expect((await call('PUT', `/advert/${banner.id}/migrate`, csm)).status).toBe(400);
  });
});

describe('funnels and stories', () => {
  it('create, append, update minViews, fetch, delete', async () => {
    const first = await createAdvert({ name: 'Funnel 1' });
    const second = await createAdvert({ name: 'Funnel 2' });
    expect((await call('GET', `/advert/${first.id}/funnel`, csm)).body).toBeNull();
    const created = await call('POST', `/advert/${first.id}/funnel/create`, csm);
    expect(created.status).toBe(201);
    const uuid = created.body.uuid;
    const appended = await call('POST', `/advert/${first.id}/funnel/append`, csm, { funnelUuid: uuid, newAdvertId: second.id });
    expect(appended.body.adverts.map((step: { id: number }) => step.id)).toEqual([first.id, second.id]);
    expect((await call('POST', `/advert/${first.id}/funnel/append`, csm, { funnelUuid: uuid, newAdvertId: second.id })).status).toBe(400);
    const updated = await call('POST', `/advert/${first.id}/funnel/update/minviews`, csm, {
      funnelUuid: uuid,
      nextAdvertId: second.id,
      minViews: 3,
      gracePeriodInMs: 60_000,
    });
    expect(updated.body.adverts[1]).toMatchObject({ id: second.id, name: 'Funnel 2', minViews: 3, gracePeriodInMs: 60_000 });
    expect((await call('GET', `/advert/${second.id}/funnel`, csm)).body.uuid).toBe(uuid);
    expect((await call('DELETE', `/advert/${first.id}/funnel`, csm, { funnelUuid: uuid })).body).toEqual({ ok: true });
    expect((await call('GET', `/advert/${second.id}/funnel`, csm)).body).toBeNull();
  });

  it('adds and removes story screens, resets the expiration', async () => {
    const story = await createAdvert({ type: 'story', name: 'Story' });
    const one = await call('POST', `/stories/${story.id}/screen`, csm, { screen: { title: 'Un' } });
    const two = await call('POST', `/stories/${story.id}/screen`, csm, {});
    expect(two.body.story.screens.map((screen: { id: number; position: number }) => [screen.id, screen.position])).toEqual([
      [1, 0],
      [2, 1],
    ]);
    expect(one.body.story.screens[0]).toMatchObject({ title: 'Un', footerButtonText: 'VALIDER', backgroundColor: '#C41723' });
    const removed = await call('DELETE', `/stories/${story.id}/screen/1`, csm);
    expect(removed.body.story.screens.map((screen: { id: number; position: number }) => [screen.id, screen.position])).toEqual([[2, 0]]);
    expect((await call('DELETE', `/stories/${story.id}/screen/9`, csm)).status).toBe(404);
    const reset = await call('PUT', `/stories/${story.id}/reset`, csm);
    expect(reset.body).toEqual({ message: MESSAGES.storyReset });
    expect((await call('GET', `/v2/advert/${story.id}`, csm)).body.story.resetAt).toBe(nowSeconds());
    const post = await createAdvert();
    expect((await call('PUT', `/stories/${post.id}/reset`, csm)).status).toBe(400);
  });
});

describe('history', () => {
  it('records who changed which fields, before and after, and restores a previous version', async () => {
    const advert = await createAdvert({ title: 'Premier titre' });
    await call('PUT', `/v2/advert/${advert.id}`, csm, { advert: { title: 'Second titre', weight: 7 } });
    await call('PUT', `/v2/advert/${advert.id}/name`, admin, { value: 'Renommée' });
    const history = await call('GET', `/advert/${advert.id}/history`, sales);
    expect(history.status).toBe(200);
    expect(history.body.map((entry: { action: string }) => entry.action)).toEqual(['update', 'update', 'create']);
    const [rename, edit] = history.body;
    expect(rename).toMatchObject({ fields: ['name'], before: { name: 'Campagne' }, after: { name: 'Renommée' } });
    expect(edit).toMatchObject({
      fields: ['title', 'weight'],
      before: { title: 'Premier titre', weight: 5 },
      after: { title: 'Second titre', weight: 7 },
    });
    expect(edit.accountName).toBeTruthy();
    const restored = await call('POST', `/advert/${advert.id}/history/${edit.id}/restore`, csm);
    expect(restored.body).toMatchObject({ title: 'Premier titre', weight: 5, name: 'Renommée' });
    expect((await call('GET', `/advert/${advert.id}/history`, csm)).body[0]).toMatchObject({ action: 'restore', fields: ['title', 'weight'] });
    expect((await call('POST', `/advert/${advert.id}/history/999999/restore`, csm)).status).toBe(404);
  });
});

describe('demo data (--demo)', () => {
  it('seeds adverts of every type and articles once the demo audiences exist, never twice', async () => {
    const database = await freshDatabase();
    try {
      await database.db.execute(sql`INSERT INTO audiences (name) VALUES ('Cardiologues France'), ('Pharmaciens d’officine')`);
      expect(await seedAdvertDemo(database.db, clock)).toBe(true);
      const counts = (await database.db.execute(
        sql`SELECT (SELECT count(DISTINCT type) FROM adverts)::int AS types, (SELECT count(*) FROM articles)::int AS articles,
                   (SELECT count(*) FROM adverts WHERE published)::int AS published, (SELECT count(*) FROM advert_audiences)::int AS attached,
                   (SELECT count(*) FROM funnel_steps)::int AS steps`,
      )) as unknown as { rows: { types: number; articles: number; published: number; attached: number; steps: number }[] };
      expect(counts.rows[0]).toMatchObject({ types: 8, articles: 6, attached: 3, steps: 2 });
      expect(counts.rows[0].published).toBeGreaterThan(3);
      expect(await seedAdvertDemo(database.db, clock)).toBe(false);
    } finally {
      await database.close();
    }
  });

  // Two seedings drawing about forty pictures each: long on a loaded machine.
  it(
    'stores real pictures for the demo items where uploads go, served by the running server; the same bytes at every seeding',
    { timeout: 180_000 },
    async () => {
      const demo = await startTestServer({ clock });
      const second = await freshDatabase();
      try {
        const token = (await demo.signIn(['CONTENT_CREATOR'])).accessToken.value;
        const media = {
          storage: demo.app.context.storage,
          publicUrl: undefined,
          warn: (error: unknown) => {
            throw error;
          },
        };
        await demo.database.db.execute(sql`INSERT INTO audiences (name) VALUES ('Cardiologues France')`);
        expect(await seedAdvertDemo(demo.database.db, clock, undefined, media)).toBe(true);

        const ids = async (table: 'adverts' | 'articles') =>
          ((await demo.database.db.execute(sql.raw(`SELECT id FROM ${table} ORDER BY id`))) as unknown as { rows: { id: number }[] }).rows.map(
            (row) => row.id,
          );
        type Item = {
          type: string;
          logo: string | null;
          image: string | null;
          images: string[];
          video: string | null;
          story: { logo: string | null; screens: { illustration: string | null }[] } | null;
        };
        const items: Item[] = [];
        for (const id of await ids('adverts')) items.push((await demo.request('GET', `/v2/advert/${id}`, { token })).body);
        for (const id of await ids('articles')) items.push((await demo.request('GET', `/article/${id}`, { token })).body);
        expect(items).toHaveLength(18);

        const urls = new Set<string>();
        for (const item of items) {
          // Every item has a logo and a cover of this server (root-relative /cdn/ URLs: the page's own origin).
          expect(item.logo).toMatch(/^\/cdn\/assets\/adverts\/demo\//);
          expect(item.images[0]).toMatch(/^\/cdn\/assets\/adverts\/demo\//);
          for (const url of [
            item.logo,
            item.image,
            ...item.images,
            item.story?.logo,
            ...(item.story?.screens ?? []).map((screen) => screen.illustration),
          ]) {
            if (url) urls.add(url);
          }
          // A video cannot be drawn: its address stays another site's, and the preview shows the cover instead.
          if (item.type === 'video') expect(item.video).toMatch(/^https:\/\//);
        }
        const story = items.find((item) => item.type === 'story' && item.story);
        expect(story?.story?.screens.map((screen) => screen.illustration)).toEqual([
          expect.stringMatching(/^\/cdn\//),
          expect.stringMatching(/^\/cdn\//),
          expect.stringMatching(/^\/cdn\//),
        ]);

        // Global fetch keeps its connections alive, and closing the server would wait for them (72 s).
        const NO_KEEP_ALIVE = { headers: { connection: 'close' } };
        const digests = new Map<string, string>();
        for (const url of urls) {
          const response = await fetch(`${demo.url}${url}`, NO_KEEP_ALIVE);
          expect(response.status, url).toBe(200);
          expect(response.headers.get('content-type'), url).toBe('image/png');
          const bytes = Buffer.from(await response.arrayBuffer());
          // A real picture: a PNG of at least 96 pixels a side, not an empty file.
          expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
          expect(bytes.readUInt32BE(16)).toBeGreaterThanOrEqual(96);
          digests.set(url.split('?')[0], createHash('sha256').update(bytes).digest('hex'));
        }
        // Covers differ from one item to the next (not one picture everywhere).
        const covers = items.map((item) => digests.get(item.images[0].split('?')[0]));
        expect(new Set(covers).size).toBe(items.length);

        // Seeding again (another database, the same storage) writes the same files with the same bytes.
        await second.db.execute(sql`INSERT INTO audiences (name) VALUES ('Cardiologues France')`);
        expect(await seedAdvertDemo(second.db, clock, undefined, media)).toBe(true);
        for (const [path, digest] of digests) {
          const bytes = Buffer.from(await (await fetch(`${demo.url}${path}`, NO_KEEP_ALIVE)).arrayBuffer());
          expect(createHash('sha256').update(bytes).digest('hex'), path).toBe(digest);
        }
      } finally {
        await second.close();
        await demo.close();
      }
    },
  );

  it('without storage at hand the items are seeded all the same, without pictures', async () => {
    const database = await freshDatabase();
    try {
      await database.db.execute(sql`INSERT INTO audiences (name) VALUES ('Cardiologues France')`);
      const warnings: unknown[] = [];
      const broken = {
        kind: 'local',
        put: async () => {
          throw new Error('disk full');
        },
      } as unknown as StorageAdapter;
      expect(await seedAdvertDemo(database.db, clock, undefined, { storage: broken, warn: (error) => warnings.push(error) })).toBe(true);
      expect(warnings).toHaveLength(1);
      const result = (await database.db.execute(sql`SELECT count(*)::int AS n FROM adverts`)) as unknown as { rows: { n: number }[] };
      expect(result.rows[0].n).toBe(12);
    } finally {
      await database.close();
    }
  });
});
