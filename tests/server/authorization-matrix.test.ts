import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contract, type Operation, type OperationId } from '@shared/contract';
import { MESSAGES } from '@shared/messages';
import { ROLES, isAllowed, type Role } from '@shared/roles';
import { contractExamples } from '../fixtures/contract-examples';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Calls every contract operation anonymously, as each of the six roles and as a few role combinations, and
 * checks that the server enforces exactly the operation's declared rule. New contract entries are covered
 * without touching this file.
 */
const CALLERS: (Role[] | null)[] = [null, ...ROLES.map((role) => [role]), ['CSM', 'CSM_LEAD'], ['SALES', 'CONTENT_CREATOR'], []];

let server: TestServer;
const tokens = new Map<string, string>();
const keyOf = (roles: Role[] | null) => (roles === null ? 'anonymous' : roles.join('+') || 'no role');

beforeAll(async () => {
  server = await startTestServer();
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
    });
  }
});
