import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { contract, type Operation } from '@shared/contract';
import { CONFLICT_MESSAGES } from '@shared/messages/conflicts';
import { versionPlace } from '../../src-server/version-place';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Issue 51 item 13: a `version` sent inside the record (`PUT /v2/advert/:id` with `{ advert: { …, version: 1 } }`)
 * was dropped and the save overwrote a colleague's work. Where the record's own schema shows it (an advert, an
 * article, as they are read), it is honoured; anywhere else in a versioned write it is refused with a 400 naming
 * where the write reads it. The contract walk covers every operation that reads a version.
 */

type Def = { type: string; shape?: Record<string, z.ZodType>; catchall?: z.ZodType; element?: z.ZodType; innerType?: z.ZodType; in?: z.ZodType };
const defOf = (schema: z.ZodType) => schema._zod.def as unknown as Def;

/** Every object of a body schema, by its path (`[]` for an array's rows), with whether it has `version` and is strict. */
function objectsOf(schema: z.ZodType, path: string[] = [], found: { path: string[]; version: boolean; strict: boolean }[] = []) {
  const def = defOf(schema);
  if (def.innerType) return objectsOf(def.innerType, path, found);
  if (def.type === 'pipe' && def.in) return objectsOf(def.in, path, found);
  if (def.type === 'array' && def.element) return objectsOf(def.element, [...path, '0'], found);
  if (def.type === 'object' && def.shape) {
    found.push({ path, version: 'version' in def.shape, strict: def.catchall ? defOf(def.catchall).type === 'never' : false });
    for (const [key, child] of Object.entries(def.shape)) objectsOf(child, [...path, key], found);
  }
  return found;
}

/** Where a versioned write takes a version inside a part of its body: the records that carry their own. */
const HONOURED: Record<string, string[]> = {
  'adverts.update': ['advert'],
  'articles.update': ['article'],
  'articles.addScreen': ['article'],
  'articles.removeScreen': ['article'],
  // Each row has its own version: a grid row, a laboratory tag.
  'targets.updateMany': ['items.0'],
  'laboratory.update': ['tags.0'],
};
/** Objects that drop unknown fields: not records, and no version is read there. */
const LOOSE = ['advert._$target', 'article._$target', 'pages.0.layers.0.content.0'];

describe('every versioned write reads its version in one place, and says where', () => {
  const versioned = Object.entries(contract as Record<string, Operation>).filter(
    // The body's own version, or a row's (a batch of grid rows); a create's record may carry one it read (a copy):
    // nothing is based on it.
    ([, operation]) =>
      operation.body && objectsOf(operation.body).some((object) => object.version && (!object.path.length || object.path.at(-1) === '0')),
  );

  it('finds the versioned writes of every record: adverts, articles, screens, projects, targets, audiences, groups, accounts, BAT, laboratory', () => {
    const ids = versioned.map(([id]) => id);
    for (const id of ['adverts.update', 'adverts.publish', 'stories.addScreen', 'articles.update', 'projects.update', 'targets.update'])
      expect(ids).toContain(id);
    for (const id of ['targets.updateMany', 'audiences.update', 'groups.update', 'admin.accounts.update', 'bat.save', 'laboratory.update'])
      expect(ids).toContain(id);
  });

  it.each(versioned.map(([id, operation]) => [id, operation] as const))(
    '%s: a version inside a part is honoured or refused, never dropped',
    (id, operation) => {
      for (const object of objectsOf(operation.body!)) {
        const at = object.path.join('.');
        if (object.path.length === 0) continue;
        if (object.version) {
          expect(HONOURED[id] ?? [], `${id}: ${at}.version`).toContain(at);
          continue;
        }
        if (!object.strict) {
          expect(LOOSE, `${id}: ${at} drops unknown fields`).toContain(at);
          continue;
        }
        // Refused by the strict schema, and the answer names where this write reads the version.
        expect(versionPlace(operation.body!, object.path), `${id}: ${at}`).toMatch(/(^|\.)version$/);
      }
    },
  );
});

let server: TestServer;
let token: string;
beforeAll(async () => {
  server = await startTestServer();
  token = (await server.signIn(['CSM'])).accessToken.value;
});
afterAll(() => server?.close());
const call = (method: string, path: string, body?: unknown) => server.request(method, path, { token, body });

describe.each([
  { kind: 'advert', create: '/advert/create', item: (id: number) => `/v2/advert/${id}`, key: 'advert' },
  { kind: 'article', create: '/article/create', item: (id: number) => `/article/${id}`, key: 'article' },
] as const)('$kind: the version inside the record', ({ create, item, key }) => {
  async function atVersion2(type = 'post') {
    const created = await call('POST', create, { [key]: { name: 'Campagne partagée', type } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const changed = await call('PUT', item(created.body.id), { [key]: { name: 'Nom du collègue' }, version: 1 });
    expect(changed.body.version).toBe(2);
    return created.body.id as number;
  }

  it('is honoured: stale inside the record answers 409 and saves nothing; current saves', async () => {
    const id = await atVersion2();
    const stale = await call('PUT', item(id), { [key]: { name: 'Écrase le collègue', version: 1 } });
    expect(stale.status, JSON.stringify(stale.body)).toBe(409);
    expect(stale.body.conflict).toMatchObject({ version: 2, current: { name: 'Nom du collègue' } });
    expect((await call('GET', item(id))).body.name).toBe('Nom du collègue');
    const current = await call('PUT', item(id), { [key]: { name: 'Basé sur la sienne', version: 2 } });
    expect(current.status).toBe(200);
    expect(current.body).toMatchObject({ name: 'Basé sur la sienne', version: 3 });
  });

  it('given beside and inside with two values, is refused with a 400 naming the right place', async () => {
    const id = await atVersion2();
    const twice = await call('PUT', item(id), { [key]: { name: 'Laquelle ?', version: 1 }, version: 2 });
    expect(twice).toMatchObject({
      status: 400,
      body: { errorMsg: CONFLICT_MESSAGES.versionGivenTwice(`${key}.version`), field: `${key}.version` },
    });
    // The same value in both places, as the editor sends the record it read: saved.
    expect((await call('PUT', item(id), { [key]: { name: 'Les deux', version: 2 }, version: 2 })).status).toBe(200);
  });
});

describe('story screens and grid rows', () => {
  it("honours an article's version inside the record when adding or removing a screen", async () => {
    const created = await call('POST', '/article/create', { article: { name: 'Story partagée', type: 'story' } });
    const id = created.body.id as number;
    expect((await call('POST', `/article/${id}/screen`, { version: 1 })).body.version).toBe(2);
    expect((await call('POST', `/article/${id}/screen`, { article: { version: 1 } })).status).toBe(409);
    const added = await call('POST', `/article/${id}/screen`, { article: { version: 2 } });
    expect(added.status).toBe(200);
    const screenId = added.body.story.screens[0].id as number;
    expect((await call('DELETE', `/article/${id}/screen`, { screenId, article: { version: 2 } })).status).toBe(409);
    expect((await call('DELETE', `/article/${id}/screen`, { screenId, article: { version: 3 } })).status).toBe(200);
  });

  it('refuses a version inside a story screen, naming the body field', async () => {
    const created = await call('POST', '/advert/create', { advert: { name: 'Story', type: 'story' } });
    const misplaced = await call('POST', `/stories/${created.body.id}/screen`, { screen: { title: 'Écran', version: 1 } });
    expect(misplaced).toMatchObject({ status: 400, body: { errorMsg: CONFLICT_MESSAGES.versionMisplaced('version'), field: 'screen.version' } });
  });

  it("refuses a version inside a grid row's changes, naming the row's own", async () => {
    const misplaced = await call('PUT', '/targets/properties', { items: [{ id: 1, changes: { revenue: 10, version: 1 } }] });
    expect(misplaced).toMatchObject({
      status: 400,
      body: { errorMsg: CONFLICT_MESSAGES.versionMisplaced('items.0.version'), field: 'items.0.changes.version' },
    });
  });
});
