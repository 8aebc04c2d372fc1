import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { contract, type Operation, type OperationId } from '@shared/contract';
import { MESSAGES } from '@shared/messages';
import { contentFieldLabel } from '@shared/messages/content-fields';
import { ROLES, isAllowed, type Role } from '@shared/roles';
import { contractExamples } from '../fixtures/contract-examples';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Calls every contract operation anonymously, as each of the six roles and as a few role combinations, and
 * checks that the server enforces exactly the operation's declared rule. New contract entries are covered
 * without touching this file.
 */
const CALLERS: (Role[] | null)[] = [null, ...ROLES.map((role) => [role]), ['CSM', 'CSM_LEAD'], ['SALES', 'CONTENT_CREATOR'], []];

/** The app platform's service token (BACKOFFICE_INGEST_TOKEN): accepted by the operations declaring it, by no other. */
const INGEST_TOKEN = 'ingest-token-for-the-authorization-matrix-0123';

let server: TestServer;
const tokens = new Map<string, string>();
const keyOf = (roles: Role[] | null) => (roles === null ? 'anonymous' : roles.join('+') || 'no role');

beforeAll(async () => {
  server = await startTestServer({ config: { ingestToken: INGEST_TOKEN } });
  for (const roles of CALLERS) {
    if (roles !== null) tokens.set(keyOf(roles), (await server.signIn(roles)).accessToken.value);
  }
});
afterAll(() => server?.close());

/**
 * The operation's example input (tests/fixtures/contract-examples), its path params pointing at a throw-away
 * account so that allowed calls reach the handler.
 */
async function exampleRequest(id: OperationId, operation: Operation): Promise<{ path: string; body: unknown }> {
  const example = contractExamples[id]!;
  const { id: accountId } = await server.createAccount(['CSM']);
  const path = operation.path.replace(/:([A-Za-z0-9_]+)/g, () => String(accountId));
  const query = new URLSearchParams(Object.entries(example.query ?? {}).map(([key, value]) => [key, String(value)])).toString();
  return { path: query ? `${path}?${query}` : path, body: operation.method === 'GET' ? undefined : (example.body ?? {}) };
}

/** Refused by the guard (as opposed to a handler's own 401, e.g. wrong credentials on a public operation). */
const guardRefusals: string[] = [MESSAGES.authenticationRequired, MESSAGES.invalidToken, MESSAGES.userNotAllowed];

describe('authorization matrix: every operation × every caller', () => {
  const entries = Object.entries(contract) as [OperationId, Operation][];

  it('covers every operation of the contract', () => {
    expect(entries.length).toBeGreaterThanOrEqual(12);
  });

  for (const [id, operation] of entries) {
    it(`${id} (${operation.method} ${operation.path}) follows its rule ${JSON.stringify(operation.access)}`, async () => {
      for (const roles of CALLERS) {
        const { path, body } = await exampleRequest(id, operation);
        const token = roles === null ? undefined : tokens.get(keyOf(roles));
        const response = await server.request(operation.method, path, { token, body });
        const who = `${keyOf(roles)} → ${response.status} ${JSON.stringify(response.body)}`;
        if (isAllowed(operation.access, roles)) {
          expect(response.status, who).not.toBe(403);
          expect(guardRefusals, who).not.toContain(response.body?.errorMsg);
        } else if (roles === null) {
          expect(response.status, who).toBe(401);
          expect(response.body.errorMsg, who).toBe(MESSAGES.authenticationRequired);
        } else {
          expect(response.status, who).toBe(403);
          expect(response.body, who).toEqual({ errorMsg: MESSAGES.userNotAllowed });
        }
      }
      if (operation.access.kind === 'public') return;
      // The service token: let through where declared, an invalid bearer everywhere else.
      const { path, body } = await exampleRequest(id, operation);
      const response = await server.request(operation.method, path, { token: INGEST_TOKEN, body });
      const who = `service token → ${response.status} ${JSON.stringify(response.body)}`;
      if (operation.serviceToken === 'ingest') {
        expect(response.status, who).not.toBe(403);
        expect(guardRefusals, who).not.toContain(response.body?.errorMsg);
      } else {
        expect(response.status, who).toBe(401);
        expect(response.body.errorMsg, who).toBe(MESSAGES.invalidToken);
      }
    });
  }
});

/** Whether an input schema has a field of that name at any depth (objects, arrays, unions). */
function namesField(schema: unknown, name: string): boolean {
  const walk = (node: unknown): boolean => {
    if (Array.isArray(node)) return node.some(walk);
    if (typeof node !== 'object' || node === null) return false;
    const { properties } = node as { properties?: Record<string, unknown> };
    if (properties && Object.hasOwn(properties, name)) return true;
    return Object.values(node).some(walk);
  };
  return walk(z.toJSONSchema(schema as z.ZodType, { io: 'input', unrepresentable: 'any' }));
}

/**
 * What one app user is, does or is served (their audiences, their searches, their adverts) is read
 * by CSM_LEAD and ADMIN only, as the debug page /debug/audience is, and by the app platform's service token. Any
 * operation taking an app user's id follows that rule, so a new one cannot open it to every role unnoticed.
 */
describe("an app user's data: CSM_LEAD, ADMIN and the service token only", () => {
  const readers: Role[] = ['CSM_LEAD', 'ADMIN'];
  const others = ROLES.filter((role) => !readers.includes(role));
  const userOperations = (Object.entries(contract) as [OperationId, Operation][]).filter(
    ([, operation]) => (operation.params && namesField(operation.params, 'userId')) || (operation.body && namesField(operation.body, 'userId')),
  );

  it('the operations taking an app user id are the debug page, the tester, the reset and decisioning', () => {
    expect(userOperations.map(([id]) => id).sort()).toEqual(
      ['appUsers.reset', 'audiences.debug', 'audiences.membership', 'decisioning.adverts', 'decisioning.search'].sort(),
    );
  });

  for (const [id, operation] of userOperations) {
    it(`${id}: refused to ${others.join(', ')}`, () => {
      for (const role of others) expect(isAllowed(operation.access, [role]), `${id} as ${role}`).toBe(false);
      for (const role of readers) if (id !== 'appUsers.reset') expect(isAllowed(operation.access, [role]), `${id} as ${role}`).toBe(true);
    });
  }

  it("POST /v2/advert and POST /advert name a real user's audiences to CSM_LEAD, ADMIN and the service token, to no other role", async () => {
    const ingest = (path: string, body: unknown) => server.request('POST', path, { token: INGEST_TOKEN, body });
    expect(
      (await ingest('/population/users', [{ externalId: 'matrix-user', email: 'matrix-user@example.org', area: 'french', roles: ['ROLE_EXPERT'] }]))
        .status,
    ).toBe(200);
    const lead = tokens.get('CSM_LEAD')!;
    const [appUser] = (await server.request('POST', '/search/users', { token: lead, body: { term: 'matrix-user@' } })).body as { id: number }[];
    const calls = [
      { path: '/v2/advert', body: { userId: appUser.id, types: ['post'] } },
      { path: '/advert', body: { userId: appUser.id, type: 'search', keywords: ['hypertension'] } },
    ];
    for (const { path, body } of calls) {
      for (const token of [INGEST_TOKEN, lead, tokens.get('ADMIN')!]) {
        const response = await server.request('POST', path, { token, body });
        expect(response.status, `${path} ${JSON.stringify(response.body)}`).toBe(200);
        expect(Array.isArray(response.body.audiences), path).toBe(true);
      }
      for (const role of others) {
        const response = await server.request('POST', path, { token: tokens.get(role), body });
        expect(response.status, `${path} as ${role}`).toBe(403);
        expect(response.body, `${path} as ${role}`).toEqual({ errorMsg: MESSAGES.userNotAllowed });
      }
      for (const roles of [['SALES', 'CONTENT_CREATOR'], ['CSM']] as Role[][]) {
        const token = tokens.get(keyOf(roles)) ?? (await server.signIn(roles)).accessToken.value;
        expect((await server.request('POST', path, { token, body })).status, `${path} as ${keyOf(roles)}`).toBe(403);
      }
    }
  });
});

/**
 * Fields only some roles write (Operation.fieldAccess, spec §6: the Tracking URL and the quiz's starting voters count
 * are ADMIN's): every operation declaring them refuses a change of each to every other caller, 403 with the field's
 * label, and takes the field sent back unchanged. One way to write the field per operation; a new operation
 * declaring field rules fails here until it has one.
 */
describe('fields only some roles write: every write path × every caller', () => {
  const values: Record<string, [unknown, unknown]> = {
    pixelTrackingUrl: ['https://pixel.example.org/a.gif', 'https://pixel.example.org/b.gif'],
    'quiz.votersCountDefault': [120, 450],
  };
  const quiz = (votersCountDefault: unknown) => ({ questions: [{ id: 1, answer: 'Oui' }], votersCountDefault });
  /** The item fields setting `field` to `value` (the quiz whole, as the editor sends it). */
  const fieldsWith = (field: string, value: unknown) =>
    field === 'pixelTrackingUrl' ? { pixelTrackingUrl: value } : { type: 'quiz', quiz: quiz(value) };
  type Kind = 'advert' | 'article';
  const admin = () => tokens.get('ADMIN')!;

  /** An item written by ADMIN with the field's first value; its id. */
  async function itemWith(kind: Kind, field: string): Promise<number> {
    const base = { name: `Champ réservé ${field}`, type: 'quiz', quiz: quiz(0) };
    const path = kind === 'advert' ? '/advert/create' : '/article/create';
    const created = await server.request('POST', path, { token: admin(), body: { [kind]: { ...base, ...fieldsWith(field, values[field][0]) } } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body.id;
  }

  /** A request writing the field of an ADMIN-made item (`change`: to its second value, else sent back unchanged). */
  type Write = { method: string; path: string; body?: unknown };
  const update = (kind: Kind) => async (field: string, change: boolean) => {
    const id = await itemWith(kind, field);
    const path = kind === 'advert' ? `/v2/advert/${id}` : `/article/${id}`;
    const current = (await server.request('GET', kind === 'advert' ? path : `/article/${id}`, { token: admin() })).body;
    const body = { [kind]: { ...current, name: 'Renommé', ...(change ? fieldsWith(field, values[field][1]) : {}) } };
    return { method: 'PUT', path, body };
  };
  const property = (kind: Kind) => async (field: string, change: boolean) => {
    const id = await itemWith(kind, field);
    const prop = field.split('.')[0];
    const value = field === 'pixelTrackingUrl' ? values[field][change ? 1 : 0] : quiz(values[field][change ? 1 : 0]);
    return { method: 'PUT', path: kind === 'advert' ? `/v2/advert/${id}/${prop}` : `/article/${id}/${prop}`, body: { value } };
  };
  const create = (kind: Kind) => async (field: string, change: boolean) => ({
    method: 'POST',
    path: kind === 'advert' ? '/advert/create' : '/article/create',
    body: { [kind]: { name: 'Nouveau', type: 'quiz', quiz: quiz(0), ...(change ? fieldsWith(field, values[field][1]) : {}) } },
  });
  const duplicate = (kind: Kind) => async (field: string, change: boolean) => {
    const id = await itemWith(kind, field);
    const path = kind === 'advert' ? `/advert/${id}/duplicate` : `/article/${id}/duplicate`;
    // An article's copy takes no changes: copying the item as it is, field included, is what it may do.
    if (kind === 'article') return change ? null : { method: 'POST', path };
    return { method: 'POST', path, body: { advert: change ? fieldsWith(field, values[field][1]) : { name: 'Copie' } } };
  };
  /** Restores the version before ADMIN moved the field to its second value: a change of it. */
  const restore = (kind: Kind) => async (field: string, change: boolean) => {
    const id = await itemWith(kind, field);
    const path = kind === 'advert' ? `/v2/advert/${id}` : `/article/${id}`;
    const edit = change ? fieldsWith(field, values[field][1]) : { name: 'Renommé par ADMIN' };
    expect((await server.request('PUT', path, { token: admin(), body: { [kind]: edit } })).status).toBe(200);
    const history = (await server.request('GET', `/${kind}/${id}/history`, { token: admin() })).body as { id: number }[];
    return { method: 'POST', path: `/${kind}/${id}/history/${history[0].id}/restore` };
  };
  /** A conversion carries the field over as it is: nothing to refuse, whoever converts. */
  const migrate = (kind: Kind) => async (field: string, change: boolean) =>
    change ? null : { method: 'PUT', path: `/${kind}/${(await itemWith(kind, field)).toString()}/migrate` };

  const writes: Partial<Record<OperationId, (field: string, change: boolean) => Promise<Write | null>>> = {
    'adverts.create': create('advert'),
    'adverts.duplicate': duplicate('advert'),
    'adverts.update': update('advert'),
    'adverts.updateProperty': property('advert'),
    'adverts.restore': restore('advert'),
    'adverts.migrate': migrate('advert'),
    'adverts.importMany': async (field, change) =>
      field === 'pixelTrackingUrl'
        ? {
            method: 'POST',
            path: '/advert/import',
            body: { rows: [{ name: 'Import', type: 'post', ...(change ? { pixelTrackingUrl: values[field][1] } : {}) }] },
          }
        : null,
    'articles.create': create('article'),
    'articles.duplicate': duplicate('article'),
    'articles.update': update('article'),
    'articles.updateProperty': property('article'),
    'articles.restore': restore('article'),
    'articles.migrate': migrate('article'),
  };
  const declaring = (Object.entries(contract) as [OperationId, Operation][]).filter(([, operation]) => operation.fieldAccess?.length);

  it('declares the rules on every write of adverts and articles, and has a way to write through each', () => {
    expect(declaring.map(([id]) => id).sort()).toEqual(Object.keys(writes).sort());
  });

  for (const [id, operation] of declaring) {
    for (const rule of operation.fieldAccess!) {
      it(`${id}: ${rule.field} changes only for ${JSON.stringify(rule.access)}; sent unchanged it passes`, async () => {
        for (const roles of CALLERS.filter((caller): caller is Role[] => caller !== null && isAllowed(operation.access, caller))) {
          const token = tokens.get(keyOf(roles));
          for (const change of [false, true]) {
            const write = await writes[id]!(rule.field, change);
            if (!write) continue;
            const response = await server.request(write.method, write.path, { token, body: write.body });
            const who = `${keyOf(roles)} ${change ? 'changing' : 'keeping'} → ${response.status} ${JSON.stringify(response.body)}`;
            const refusal = MESSAGES.fieldNotAllowed.replace('{field}', contentFieldLabel(rule.field));
            if (change && !isAllowed(rule.access, roles)) {
              if (id === 'adverts.importMany') expect(response.body, who).toMatchObject({ imported: 0, errors: [{ line: 2, message: refusal }] });
              else
                expect({ status: response.status, body: response.body }, who).toEqual({
                  status: 403,
                  body: { errorMsg: refusal, field: rule.field },
                });
            } else {
              expect(response.status, who).toBeLessThan(300);
              if (id === 'adverts.importMany') expect(response.body.imported, who).toBe(1);
            }
          }
        }
      });
    }
  }
});
