import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Address fields of adverts and articles: http(s) only, root-relative `/cdn/...` media paths of
 * the product's storage, deeplinks where a link is meant; a refusal names the field by its editor label, in French.
 */

let server: TestServer;
let csm: string;

beforeAll(async () => {
  server = await startTestServer();
  csm = (await server.signIn(['CSM'])).accessToken.value;
});
afterAll(() => server?.close());

const call = (method: string, path: string, body?: unknown) => server.request(method, path, { token: csm, body });

async function createAdvert(advert: Record<string, unknown> = {}) {
  const response = await call('POST', '/advert/create', { advert: { name: 'Campagne', type: 'post', ...advert } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

describe('address fields', () => {
  it.each([
    [{ source: 'pas une url' }, 'Source : adresse http ou https ou deeplink attendue', 'advert.source'],
    [{ image: 'javascript:alert(1)' }, 'Image : adresse http ou https attendue', 'advert.image'],
    [{ logo: 'data:text/html,<script>alert(1)</script>' }, 'Logo : adresse http ou https attendue', 'advert.logo'],
    [{ images: ['https://cdn.test/a.png', 'javascript:alert(1)'] }, 'Images : adresse http ou https attendue', 'advert.images.1'],
    [{ logo: '//evil.test/logo.png' }, 'Logo : adresse http ou https attendue', 'advert.logo'],
    [{ pixelTrackingUrl: 'app://content/12' }, 'URL du pixel de tracking : adresse http ou https attendue', 'advert.pixelTrackingUrl'],
    [{ bannerLink: 'javascript://content/1' }, 'Lien de la bannière : adresse http ou https ou deeplink attendue', 'advert.bannerLink'],
    [
      { sharing: { sharingLink: 'ftp://files.test/x' } },
      'Lien de partage : adresse http ou https ou deeplink attendue',
      'advert.sharing.sharingLink',
    ],
    [{ type: 'story', story: { logo: 'file:///etc/passwd' } }, 'Logo : adresse http ou https attendue', 'advert.story.logo'],
  ])('a new advert with %j is refused', async (advert, errorMsg, field) => {
    const refused = await call('POST', '/advert/create', { advert: { name: 'Campagne', type: 'post', ...advert } });
    expect(refused).toMatchObject({ status: 400, body: { errorMsg, field } });
  });

  it('an update, a property write, an article and a story screen are checked too', async () => {
    const advert = await createAdvert();
    expect(await call('PUT', `/v2/advert/${advert.id}`, { advert: { source: 'pas une url' } })).toMatchObject({
      status: 400,
      body: { errorMsg: 'Source : adresse http ou https ou deeplink attendue' },
    });
    expect(await call('PUT', `/v2/advert/${advert.id}/image`, { value: 'javascript:alert(1)' })).toMatchObject({
      status: 400,
      body: { errorMsg: 'Image : adresse http ou https attendue', field: 'value' },
    });
    expect(await call('POST', '/article/create', { article: { name: 'Article', source: 'pas une url' } })).toMatchObject({
      status: 400,
      body: { errorMsg: 'Source : adresse http ou https ou deeplink attendue' },
    });
    const story = await createAdvert({ type: 'story' });
    expect(await call('POST', `/stories/${story.id}/screen`, { screen: { link: 'javascript:alert(1)' } })).toMatchObject({
      status: 400,
      body: { errorMsg: "Lien de l'écran : adresse http ou https ou deeplink attendue" },
    });
    // Nothing refused was stored.
    expect((await call('GET', `/v2/advert/${advert.id}`)).body).toMatchObject({ source: '', image: null });
  });

  it('accepts web addresses, storage paths for media and deeplinks for links', async () => {
    const advert = await createAdvert({
      source: 'https://www.labo.example/hta?x=1',
      logo: '/cdn/adverts/1/logo.png?d=1700000000',
      image: 'http://localhost:4000/cdn/adverts/1/cover.png',
      images: ['/cdn/adverts/1/cover.png', 'https://cdn.test/b.png'],
      bannerLink: 'app://content/12',
      sharing: { sharingLink: 'app://application?url=https%3A%2F%2Fwww.labo.example&openMode=INTERNAL_WEBVIEW' },
    });
    expect(advert).toMatchObject({
      source: 'https://www.labo.example/hta?x=1',
      logo: '/cdn/adverts/1/logo.png?d=1700000000',
      bannerLink: 'app://content/12',
    });
    // The tracking pixel is ADMIN's to write (spec §6, tests/server/authorization-matrix.test.ts).
    const admin = (await server.signIn(['ADMIN'])).accessToken.value;
    const pixel = await server.request('PUT', `/v2/advert/${advert.id}/pixelTrackingUrl`, {
      token: admin,
      body: { value: 'https://pixel.test/p.gif' },
    });
    expect(pixel).toMatchObject({ status: 200, body: { pixelTrackingUrl: 'https://pixel.test/p.gif' } });
    const cleared = await call('PUT', `/v2/advert/${advert.id}`, { advert: { source: '', logo: null } });
    expect(cleared).toMatchObject({ status: 200, body: { source: '', logo: null } });
  });

  it('names a content field by its editor label in every validation answer', async () => {
    const advert = await createAdvert();
    expect(await call('PUT', `/v2/advert/${advert.id}`, { advert: { tagline: 'x'.repeat(5001) } })).toMatchObject({
      status: 400,
      body: { errorMsg: 'Texte principal : 5000 caractères au plus', field: 'advert.tagline' },
    });
    expect(await call('PUT', `/v2/advert/${advert.id}`, { advert: { maxViews: -1 } })).toMatchObject({
      status: 400,
      body: { errorMsg: 'Vues max par utilisateur : 0 au moins', field: 'advert.maxViews' },
    });
    expect(await call('PUT', `/v2/advert/${advert.id}/maxViews`, { value: -1 })).toMatchObject({
      status: 400,
      body: { errorMsg: 'Vues max par utilisateur : 0 au moins' },
    });
  });
});
