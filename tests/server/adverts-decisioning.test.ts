import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../helpers/clock';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Decisioning against fixtures: audiences from the audience engine, schedule, types, expert
 * audiences, maxViews and funnel grace periods counted from advert.view events recorded through ingestion.
 */

const INGEST = 'ingest-token-for-decisioning-tests-0123';
const clock = new ManualClock(Date.UTC(2026, 4, 4, 8, 0, 0));
const seconds = () => Math.floor(clock.now().getTime() / 1000);
const HOUR = 3_600_000;

let server: TestServer;
let expertUser: number;
let plainUser: number;
let expertAudience: number;
let searchAudience: number;
let eventCounter = 0;

async function staff(roles: ('CSM' | 'CSM_LEAD' | 'ADMIN')[] = ['CSM']) {
  return (await server.signIn(roles)).accessToken.value;
}

async function call(method: string, path: string, token: string, body?: unknown) {
  const response = await server.request(method, path, { token, body });
  return response;
}

async function ok(method: string, path: string, token: string, body?: unknown) {
  const response = await call(method, path, token, body);
  expect(response.status, `${method} ${path} ${JSON.stringify(response.body)}`).toBeLessThan(300);
  return response.body;
}

const complete = {
  logo: 'https://cdn.test/l.png',
  images: ['https://cdn.test/i.png'],
  author: 'Labo',
  source: 'https://labo.test',
  title: 'Titre',
  video: 'https://cdn.test/v.mp4',
};

/** A published advert attached to the audience. */
async function servedAdvert(fields: Record<string, unknown>, audienceId = expertAudience) {
  const token = await staff();
  const advert = await ok('POST', '/advert/create', token, { advert: { name: 'Advert', type: 'post', ...complete, ...fields } });
  await ok('POST', '/advert/attach', token, { advert: { id: advert.id }, audienceIds: [audienceId] });
  await ok('PUT', `/v2/advert/${advert.id}/published`, token, { value: true });
  return advert.id as number;
}

async function view(userExternalId: string, advertId: number, event = 'advert.view') {
  eventCounter += 1;
  await ok('POST', '/population/events', INGEST, [
    { eventId: `dec-${eventCounter}`, userExternalId, event, node: { label: 'Advert', name: String(advertId) }, at: clock.now().toISOString() },
  ]);
}

async function served(userId: number, types: string[] = ['post']) {
  const body = await ok('POST', '/v2/advert', INGEST, { userId, types });
  return body.adverts.map((advert: { id: number }) => advert.id) as number[];
}

beforeAll(async () => {
  server = await startTestServer({ clock, config: { ingestToken: INGEST, autopublishIntervalMs: 0 } });
  await ok('POST', '/population/users', INGEST, [
    { externalId: 'dec-expert', email: 'expert@example.org', professionId: 2, specialtyId: 6, area: 'french', roles: ['ROLE_EXPERT'] },
    { externalId: 'dec-plain', email: 'plain@example.org', professionId: 2, specialtyId: 6, area: 'french', roles: ['ROLE_USER'] },
  ]);
  await ok('POST', '/population/events', INGEST, [
    {
      eventId: 'kw-1',
      userExternalId: 'dec-plain',
      event: 'search',
      node: { label: 'Keyword', name: 'hypertension' },
      at: clock.now().toISOString(),
    },
  ]);
  const lead = await staff(['CSM_LEAD']);
  const users = await ok('POST', '/search/users', lead, { term: 'expert@' });
  expertUser = users[0].id;
  plainUser = (await ok('POST', '/search/users', lead, { term: 'plain@' }))[0].id;
  const role = (await ok('GET', '/search?term=ROLE_EXPERT&label=Role&isGroup=true', lead))[0].id;
  const keyword = (await ok('GET', '/search?term=hypertension&label=Keyword&isGroup=true', lead))[0].id;
  expertAudience = (await ok('POST', '/audience', lead, { name: 'Experts', relationships: [{ node: { label: 'Role', id: role } }] })).id;
  searchAudience = (
    await ok('POST', '/audience', lead, {
      name: 'Recherche HTA',
      type: 'search',
      relationships: [{ node: { label: 'Role', id: role } }, { node: { label: 'Keyword', id: keyword } }],
    })
  ).id;
});
afterAll(() => server?.close());

describe('POST /v2/advert', () => {
  it('serves published adverts of the types asked, in the user audiences, by weight then id', async () => {
    const light = await servedAdvert({ name: 'Léger', weight: 2 });
    const heavy = await servedAdvert({ name: 'Lourd', weight: 9 });
    const same = await servedAdvert({ name: 'Même poids', weight: 2 });
    const video = await servedAdvert({ name: 'Vidéo', type: 'video', weight: 10 });
    const body = await ok('POST', '/v2/advert', INGEST, { userId: expertUser, types: ['post'] });
    expect(body.audiences.map((audience: { id: number }) => audience.id)).toContain(expertAudience);
    const ids = body.adverts.map((advert: { id: number }) => advert.id);
    expect(ids.filter((id: number) => [light, heavy, same, video].includes(id))).toEqual([heavy, light, same]);
    expect(body.adverts.find((advert: { id: number }) => advert.id === heavy)).toMatchObject({
      name: 'Lourd',
      title: 'Titre',
      audienceId: expertAudience,
      views: 0,
      maxViews: 5,
    });
    expect((await served(expertUser, ['post', 'video']))[0]).toBe(video);
    // Not in the expert audience: nothing.
    expect(await served(plainUser, ['post', 'video'])).toEqual([]);
  });

  it('leaves out unpublished, archived and out-of-schedule adverts', async () => {
    const token = await staff();
    const unpublished = await servedAdvert({ name: 'Dépublié', type: 'quiz', footNote: 'x' });
    await ok('PUT', `/v2/advert/${unpublished}/published`, token, { value: false });
    const archived = await servedAdvert({ name: 'Archivé', type: 'quiz', footNote: 'x' });
    await ok('PUT', `/v2/advert/${archived}/archived`, token, { value: true });
    const later = await servedAdvert({ name: 'Plus tard', type: 'quiz', footNote: 'x', autoStartAt: seconds() + 3600 });
    // Dates are scheduled ahead (a past one is refused), then the clock moves past the stop of one and the start of the other.
    const over = await servedAdvert({ name: 'Fini', type: 'quiz', footNote: 'x', autoStopAt: seconds() + 30 });
    const now = await servedAdvert({ name: 'En cours', type: 'quiz', footNote: 'x', autoStartAt: seconds() + 30, autoStopAt: seconds() + 3600 });
    clock.advance(60_000);
    expect(await served(expertUser, ['quiz'])).toEqual([now]);
    expect([unpublished, archived, later, over]).not.toContain(now);
  });

  it('stops serving an advert after maxViews views by that user (clicks do not count)', async () => {
    const capped = await servedAdvert({ name: 'Deux vues', type: 'notification', title: 't', source: 'https://labo.test', maxViews: 2 });
    await view('dec-expert', capped, 'advert.click');
    await view('dec-expert', capped);
    expect(await served(expertUser, ['notification'])).toEqual([capped]);
    await view('dec-expert', capped);
    expect(await served(expertUser, ['notification'])).toEqual([]);
  });

  it('story reset: views before the reset no longer count', async () => {
    const story = await servedAdvert({ name: 'Story', type: 'story', maxViews: 1 });
    await view('dec-expert', story);
    expect(await served(expertUser, ['story'])).toEqual([]);
    clock.advance(1000);
    await ok('PUT', `/stories/${story}/reset`, await staff());
    clock.advance(1000);
    expect(await served(expertUser, ['story'])).toEqual([story]);
  });

  it('funnel: the next advert only after minViews of the previous one and its grace period', async () => {
    const token = await staff();
    const first = await servedAdvert({ name: 'Étape 1', type: 'tool', sonataId: 'S1', weight: 1, maxViews: 10 });
    const second = await servedAdvert({ name: 'Étape 2', type: 'tool', sonataId: 'S2', weight: 10 });
    const { uuid } = await ok('POST', `/advert/${first}/funnel/create`, token);
    await ok('POST', `/advert/${first}/funnel/append`, token, { funnelUuid: uuid, newAdvertId: second });
    await ok('POST', `/advert/${first}/funnel/update/minviews`, token, {
      funnelUuid: uuid,
      nextAdvertId: second,
      minViews: 2,
      gracePeriodInMs: HOUR,
    });
    expect(await served(expertUser, ['tool'])).toEqual([first]);
    await view('dec-expert', first);
    expect(await served(expertUser, ['tool'])).toEqual([first]);
    await view('dec-expert', first);
    // Two views, but the grace period has not passed.
    expect(await served(expertUser, ['tool'])).toEqual([first]);
    clock.advance(HOUR - 1000);
    expect(await served(expertUser, ['tool'])).toEqual([first]);
    clock.advance(2000);
    expect(await served(expertUser, ['tool'])).toEqual([second, first]);
  });

  it('answers 404 for an unknown app user, and the debug page lists the adverts', async () => {
    expect((await call('POST', '/v2/advert', INGEST, { userId: 999_999, types: ['post'] })).status).toBe(404);
    const debug = await ok('GET', `/debug/audience/${expertUser}`, await staff(['CSM_LEAD']));
    expect(debug.audiences.map((audience: { name: string }) => audience.name)).toContain('Experts');
    expect(debug.adverts.map((advert: { name: string }) => advert.name)).toEqual(expect.arrayContaining(['Lourd', 'Léger']));
    const plain = await ok('GET', `/debug/audience/${plainUser}`, await staff(['CSM_LEAD']));
    expect(plain.adverts).toEqual([]);
  });
});

describe('POST /advert (search)', () => {
  it('serves search adverts whose audience keyword triggers match, in the user audiences', async () => {
    const search = await servedAdvert(
      { name: 'Promo HTA', type: 'search', search: { position: 1, tabs: ['rcps'], association: null } },
      searchAudience,
    );
    const body = await ok('POST', '/advert', INGEST, { userId: expertUser, type: 'search', keywords: ['Hypertension'] });
    expect(body.adverts.map((advert: { id: number }) => advert.id)).toEqual([search]);
    expect((await ok('POST', '/advert', INGEST, { userId: expertUser, type: 'search', keywords: ['diabète'] })).adverts).toEqual([]);
    expect(
      (await ok('POST', '/advert', INGEST, { userId: expertUser, type: 'search', keywords: ['hypertension'], tab: 'rcps' })).adverts,
    ).toHaveLength(1);
    expect((await ok('POST', '/advert', INGEST, { userId: expertUser, type: 'search', keywords: ['hypertension'], tab: 'news' })).adverts).toEqual(
      [],
    );
    // Not in the audience: only without the audience condition.
    expect((await ok('POST', '/advert', INGEST, { userId: plainUser, type: 'search', keywords: ['hypertension'] })).adverts).toEqual([]);
    const anyone = await ok('POST', '/advert', INGEST, { userId: plainUser, type: 'search', keywords: ['hypertension'], withAudience: false });
    expect(anyone.adverts.map((advert: { id: number }) => advert.id)).toEqual([search]);
  });
});
