import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_FIELD_MESSAGES } from '@shared/messages/content-fields';
import { ManualClock } from '../helpers/clock';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * The scheduling dates as the server keeps them (docs/content.md, scheduling): a date set or changed in the past and
 * an auto-stop not after the auto-start are refused at their field, whatever the editor did; dates left as they
 * were saved are not checked again. PGlite, or PostgreSQL with TEST_DATABASE_URL.
 */
const clock = new ManualClock(Date.UTC(2026, 4, 4, 8, 0, 0));
const seconds = () => Math.floor(clock.now().getTime() / 1000);
const HOUR = 3600;
const PAST = CONTENT_FIELD_MESSAGES.dateInPast('Publication automatique le');
const STOP_PAST = CONTENT_FIELD_MESSAGES.dateInPast('Dé-publication automatique le');
const STOP_FIRST = CONTENT_FIELD_MESSAGES.stopBeforeStart('Dé-publication automatique le', 'Publication automatique le');

let server: TestServer;
let csm: string;

beforeAll(async () => {
  server = await startTestServer({ clock, config: { autopublishIntervalMs: 0 } });
  csm = (await server.signIn(['CSM'])).accessToken.value;
});
afterAll(() => server?.close());

const emails = { autoPublishOptions: { activated: true, emails: ['csm@x.test'] } };

describe('advert and article scheduling dates', () => {
  it('refuses a create with a past date or a stop before the start, at the field', async () => {
    const past = await server.request('POST', '/advert/create', {
      token: csm,
      body: { advert: { name: 'Passé', type: 'post', autoStartAt: seconds() - HOUR, autoStopAt: seconds() + HOUR, ...emails } },
    });
    expect([past.status, past.body]).toEqual([400, { errorMsg: PAST, field: 'autoStartAt' }]);
    const reversed = await server.request('POST', '/article/create', {
      token: csm,
      body: { article: { name: 'À l’envers', autoStartAt: seconds() + 2 * HOUR, autoStopAt: seconds() + HOUR, ...emails } },
    });
    expect([reversed.status, reversed.body]).toEqual([400, { errorMsg: STOP_FIRST, field: 'autoStopAt' }]);
    const same = await server.request('POST', '/advert/create', {
      token: csm,
      body: { advert: { name: 'Même heure', type: 'post', autoStartAt: seconds() + HOUR, autoStopAt: seconds() + HOUR, ...emails } },
    });
    expect([same.status, same.body.field]).toEqual([400, 'autoStopAt']);
  });

  it('refuses an update or a property moving a date into the past; dates kept as saved pass once past', async () => {
    const created = await server.request('POST', '/advert/create', {
      token: csm,
      body: { advert: { name: 'Programmé', type: 'post', autoStartAt: seconds() + HOUR, autoStopAt: seconds() + 2 * HOUR, ...emails } },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as number;
    const moved = await server.request('PUT', `/v2/advert/${id}`, {
      token: csm,
      body: { advert: { autoStopAt: seconds() - 60 } },
    });
    expect([moved.status, moved.body]).toEqual([400, { errorMsg: STOP_PAST, field: 'autoStopAt' }]);
    const property = await server.request('PUT', `/v2/advert/${id}/autoStopAt`, { token: csm, body: { value: seconds() + 30 * 60 } });
    expect([property.status, property.body]).toEqual([400, { errorMsg: STOP_FIRST, field: 'autoStopAt' }]);

    // Three hours on, both dates are past: the item is still edited as long as they stay as saved.
    clock.advance(3 * HOUR * 1000);
    csm = (await server.signIn(['CSM'])).accessToken.value;
    const renamed = await server.request('PUT', `/v2/advert/${id}`, { token: csm, body: { advert: { name: 'Programmé (fini)' } } });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Programmé (fini)', autoStartAt: created.body.autoStartAt });
  });
});
