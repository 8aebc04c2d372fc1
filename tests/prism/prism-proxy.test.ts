import fc from 'fast-check';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { contract, operationIds, type Operation, type OperationId } from '@shared/contract';
import { ROLES, type Role } from '@shared/roles';
import { hashPassword } from '../../src-server/auth/passwords';
import { accounts } from '../../src-server/db/schema';
import { buildOpenApiDocument, type OpenApiDocument } from '../../src-server/openapi/document';
import { DEMO_ACCOUNTS } from '../../src-server/seed';
import { startServer, type RunningServer } from '../../src-server/server';
import { contractExamples, type ExampleInput } from '../fixtures/contract-examples';
import { startPrismProxy, type PrismProxy } from './prism';

/**
 * Stoplight Prism in proxy mode (`prism proxy --errors`) in front of the server started on the demo
 * workspace, validating every request and every answer against the OpenAPI document generated from the contract.
 * Through it go the calls of the server suite: the contract examples as every caller of the authorization matrix
 * (tests/server/authorization-matrix.test.ts), then the bad-input mutations of the fuzzing (bad-input.test.ts).
 *
 * A finding is any answer Prism made itself or flagged: an answer that does not match the document (status code,
 * body, the `{ errorMsg, field }` shape of an error: Prism's 500 "VIOLATIONS", or its `sl-violations` header), a
 * valid example the document refuses (Prism's 422), a path the document lacks; and a request the document refuses
 * although the server accepts it (the same request sent straight to the server answers 2xx). Run by `.ci/run` after
 * the PostgreSQL pass (`npm run test:prism`), not by `npm test`.
 */

const INGEST_TOKEN = 'ingest-token-for-the-prism-run-0123456789';
const CALLERS: (Role[] | null)[] = [null, ...ROLES.map((role) => [role]), ['CSM', 'CSM_LEAD'], ['SALES', 'CONTENT_CREATOR'], []];
const keyOf = (roles: Role[] | null) => (roles === null ? 'anonymous' : roles.join('+') || 'no role');

interface Call {
  id: OperationId;
  method: string;
  path: string;
  token?: string;
  body?: unknown;
  /** Sent as it is (broken JSON). */
  rawBody?: string;
}

interface Answer {
  status: number;
  contentType: string;
  body: string;
  violations: string | null;
}

let folder: string;
let documentFile: string;
let server: RunningServer;
let prism: PrismProxy;
const tokens = new Map<string, string>();
/** What Prism found, once per operation and kind (the same finding for ten callers is one line), with a count. */
const findings = new Map<string, number>();
const found = (finding: string) => findings.set(finding, (findings.get(finding) ?? 0) + 1);
let calls = 0;
const started = Date.now();

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'prism-run-'));
  documentFile = join(folder, 'openapi.json');
  writeFileSync(documentFile, JSON.stringify(await buildOpenApiDocument()));
  server = await startServer({
    port: 0,
    dataDir: join(folder, 'pglite'),
    templateDir: inject('pgliteTemplateDir'),
    demo: true,
    demoPopulation: { users: 200, events: 2_000 },
    logger: pino({ level: 'silent' }),
    config: {
      ingestToken: INGEST_TOKEN,
      maxFailuresPerAddress: 1e9,
      maxFailuresPerUsername: 1e9,
      maxFailuresPerUsernameAndAddress: 1e9,
      maxResetRequestsPerAddress: 1e9,
    },
  });
  prism = await startPrismProxy(documentFile, server.url);
  // The demo accounts sign in through Prism; the role combinations are added beside them.
  const passwordHash = await hashPassword('prism-run-password');
  for (const roles of CALLERS) {
    if (roles === null) continue;
    const demo = roles.length === 1 ? DEMO_ACCOUNTS.find((account) => account.role === roles[0]) : undefined;
    const email = demo?.email ?? `prism-${keyOf(roles).replace(/\W/g, '-')}@demo.backoffice.local`;
    if (!demo) await server.database.db.insert(accounts).values({ name: `Prism ${keyOf(roles)}`, nickname: 'prism', email, roles, passwordHash });
    const signIn = await send({
      id: 'auth.signIn',
      method: 'POST',
      path: '/authenticate',
      body: { username: email, password: demo?.password ?? 'prism-run-password' },
    });
    if (signIn.status !== 200) throw new Error(`sign-in of ${email}: ${signIn.status} ${signIn.body}`);
    tokens.set(keyOf(roles), (JSON.parse(signIn.body) as { accessToken: { value: string } }).accessToken.value);
  }
}, 300_000);

afterAll(async () => {
  await prism?.close();
  await server?.close();
  if (folder) rmSync(folder, { recursive: true, force: true });
  const upstream501 = [...new Set([...(prism?.log() ?? '').matchAll(/Upstream call to (\S+) has returned 501/g)].map((match) => match[1]))];
  console.log(
    `prism run: ${calls} calls through Prism in ${Math.round((Date.now() - started) / 1000)} s; ` +
      `answered 501 (not implemented, re-mocked by Prism): ${upstream501.join(', ') || 'none'}`,
  );
});

async function request(base: string, call: Call): Promise<Answer> {
  const response = await fetch(`${base}${call.path}`, {
    method: call.method,
    headers: {
      ...(call.body !== undefined || call.rawBody !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(call.token ? { authorization: `Bearer ${call.token}` } : {}),
    },
    body: call.rawBody ?? (call.body === undefined ? undefined : JSON.stringify(call.body)),
  });
  return {
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    body: await response.text(),
    violations: response.headers.get('sl-violations'),
  };
}

function send(call: Call): Promise<Answer> {
  calls += 1;
  return request(prism.url, call);
}

/** Prism's own answer (a problem+json of its errors): its type, e.g. UNPROCESSABLE_ENTITY, VIOLATIONS, UNAUTHORIZED. */
function prismError(answer: Answer): string | null {
  if (!answer.contentType.includes('application/problem+json')) return null;
  try {
    return String((JSON.parse(answer.body) as { type?: string }).type ?? '').replace(/^.*#/, '') || 'PROBLEM';
  } catch {
    return 'PROBLEM';
  }
}

/**
 * Checks one call sent through Prism. `valid`: the input is one the contract accepts (a contract example), so the
 * document must accept it too; otherwise a request Prism refuses must be refused by the server as well.
 */
async function check(call: Call, valid: boolean, anonymous = false): Promise<void> {
  const answer = await send(call);
  const what = `${call.id} ${call.method} ${(contract[call.id] as Operation).path}`;
  const problem = prismError(answer);
  if (problem === null) {
    if (answer.violations) found(`${what} → ${answer.status}: ${violationsOf(answer.violations)} (e.g. ${example(call)})`);
    return;
  }
  if (problem === 'UNAUTHORIZED' && anonymous) return;
  const multipart = Boolean((contract[call.id] as Operation).multipart);
  if (problem === 'UNPROCESSABLE_ENTITY' && (!valid || multipart)) {
    // The document refuses it: the server must refuse it too (a 4xx), else the document is stricter than the contract.
    const direct = await request(server.url, call);
    if (direct.status < 400 || direct.status >= 500) {
      found(`${what}: refused by the document (${violationsOf(answer.body)}), answered ${direct.status} by the server (e.g. ${example(call)})`);
    }
    return;
  }
  found(`${what} → Prism ${answer.status} ${problem}: ${violationsOf(answer.body)} (e.g. ${example(call)})`);
}

/** Prism's validation messages, from its sl-violations header or its problem+json `validation`. */
function violationsOf(text: string): string {
  try {
    const parsed = JSON.parse(text) as
      { location?: string[]; message: string }[] | { validation?: { location?: string[]; message: string }[]; detail?: string };
    const list = Array.isArray(parsed) ? parsed : (parsed.validation ?? [{ message: parsed.detail ?? text }]);
    return list.map((violation) => `${(violation.location ?? []).join('.')} ${violation.message}`.trim()).join('; ');
  } catch {
    return text.slice(0, 300);
  }
}

function example(call: Call): string {
  return `${call.path}${call.body !== undefined ? ` ${JSON.stringify(call.body).slice(0, 160)}` : ''}`;
}

function pathOf(operation: Operation, params: Record<string, unknown> | undefined): string {
  return operation.path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => encodeURIComponent(String(params?.[name] ?? 1)));
}

function queryOf(query: Record<string, unknown> | undefined): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) search.append(key, typeof value === 'string' ? value : JSON.stringify(value));
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** At most `width` operations at once: the run stays within its budget on two shared cores. */
async function eachOperation(work: (id: OperationId, operation: Operation, example: ExampleInput) => Promise<void>, width = 4) {
  const queue = [...operationIds];
  await Promise.all(
    Array.from({ length: width }, async () => {
      for (let id = queue.shift(); id !== undefined; id = queue.shift()) await work(id, contract[id] as Operation, contractExamples[id] ?? {});
    }),
  );
}

describe('Prism proxy in front of the demo server', () => {
  it('finds what does not match: a copy of the document whose error answer and sign-in answer ask one more field', async () => {
    const document = JSON.parse(readFileSync(documentFile, 'utf8')) as OpenApiDocument;
    const apiError = document.components!.schemas!.ApiError as { required: string[] };
    apiError.required.push('notSentByTheServer');
    const signIn = document.paths!['/authenticate'].post.responses!['200'].content!['application/json'] as { schema: { required: string[] } };
    signIn.schema.required.push('notSentByTheServer');
    const tamperedFile = join(folder, 'tampered.json');
    writeFileSync(tamperedFile, JSON.stringify(document));
    const tampered = await startPrismProxy(tamperedFile, server.url);
    try {
      const admin = DEMO_ACCOUNTS[0];
      for (const password of [admin.password, 'not-the-password']) {
        const answer = await request(tampered.url, {
          id: 'auth.signIn',
          method: 'POST',
          path: '/authenticate',
          body: { username: admin.email, password },
        });
        expect(answer.status).toBe(500);
        expect(prismError(answer)).toBe('VIOLATIONS');
        expect(answer.body).toContain("must have required property 'notSentByTheServer'");
      }
    } finally {
      await tampered.close();
    }
  }, 120_000);

  it('the contract examples as every caller of the authorization matrix match the document', async () => {
    await eachOperation(async (id, operation, example) => {
      // As the matrix does: path parameters point at a throw-away account, so that allowed calls reach the handler.
      const [target] = await server.database.db
        .insert(accounts)
        .values({
          name: `Prism target ${id}`,
          nickname: 'target',
          email: `prism-target-${id}@demo.backoffice.local`,
          roles: ['CSM'],
          passwordHash: 'x',
        })
        .returning({ id: accounts.id });
      const numeric = Object.fromEntries(
        Object.entries(example.params ?? {}).map(([name, value]) => [name, typeof value === 'number' ? target.id : value]),
      );
      const path = pathOf(operation, numeric) + queryOf(example.query);
      const body = operation.body ? (example.body ?? {}) : undefined;
      for (const roles of CALLERS) {
        const token = roles === null ? undefined : tokens.get(keyOf(roles));
        await check({ id, method: operation.method, path, token, body }, true, roles === null);
      }
      if (operation.access.kind !== 'public') await check({ id, method: operation.method, path, token: INGEST_TOKEN, body }, true);
      // And the example itself, path parameters included, as ADMIN.
      await check(
        { id, method: operation.method, path: pathOf(operation, example.params) + queryOf(example.query), token: tokens.get('ADMIN'), body },
        true,
      );
    });
    expect([...findings].map(([finding, count]) => `${count} × ${finding}`)).toEqual([]);
  }, 300_000);

  it('the bad-input mutations of the fuzzing match the document, and what it refuses the server refuses', async () => {
    findings.clear();
    const wrongValue = fc.oneof(fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.array(fc.string(), { maxLength: 3 }));
    await eachOperation(async (id, operation, example) => {
      const token = operation.access.kind === 'public' ? undefined : tokens.get('ADMIN');
      const rows = Array.isArray(example.body);
      const sample = (rows ? (example.body as Record<string, unknown>[])[0] : example.body) as Record<string, unknown> | undefined;
      const wrap = (body: unknown) => (rows && typeof body === 'object' && body !== null && !Array.isArray(body) ? [body] : body);
      const path = pathOf(operation, example.params) + queryOf(example.query);
      const go = (call: Omit<Call, 'id' | 'method' | 'token'>) => check({ id, method: operation.method, token, ...call }, false);
      if (operation.body && sample && Object.keys(sample).length) {
        const seed = id.length * 7919;
        for (const key of Object.keys(sample).slice(0, 4)) {
          const missing = { ...sample };
          delete missing[key];
          await go({ path, body: wrap(missing) });
          await go({ path, body: wrap({ ...sample, [key]: fc.sample(wrongValue, { seed, numRuns: 1 })[0] }) });
          if (typeof sample[key] === 'string') await go({ path, body: wrap({ ...sample, [key]: 'é'.repeat(5_000) }) });
        }
        await go({ path, body: wrap({ ...sample, unknownField: 'x' }) });
      }
      if (operation.body) {
        for (const body of fc.sample(fc.jsonValue({ maxDepth: 2 }), { seed: id.length, numRuns: 3 })) await go({ path, body: body ?? {} });
        await go({ path, rawBody: '{"unterminated": ' });
      }
      if (operation.params) {
        for (const bad of ['abc', '-1', '1.5']) {
          const params = Object.fromEntries(Object.keys(example.params ?? {}).map((name) => [name, bad]));
          await go({ path: pathOf(operation, params) + queryOf(example.query), body: operation.body ? (example.body ?? {}) : undefined });
        }
      }
      if (operation.query) {
        for (const key of Object.keys(example.query ?? {}).slice(0, 3)) {
          await go({ path: pathOf(operation, example.params) + queryOf({ ...example.query, [key]: 'abc' }) });
        }
        await go({ path: pathOf(operation, example.params) + queryOf({ ...example.query, unknownKey: '1' }) });
      }
    });
    expect([...findings].map(([finding, count]) => `${count} × ${finding}`)).toEqual([]);
  }, 300_000);
});
