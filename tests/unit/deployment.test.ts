import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { deploymentProblems, imageProblem } from '../../scripts/deployment-rules';

/**
 * The container files of docs/operations.md, as far as they can be read without a Docker engine (the engine-free
 * checks are scripts/check-deployment.mjs; scripts/check-server-bundle.mjs runs the image's commands for real).
 */
const root = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));
const dockerfile = readFileSync(root('Dockerfile'), 'utf8').replace(/\\\n\s*/g, ' ');
const instructions = dockerfile
  .split('\n')
  .filter((line) => line.trim() && !line.trim().startsWith('#'))
  .map((line) => line.trim());
const stages = instructions.reduce<string[][]>((all, line) => (line.startsWith('FROM ') ? [...all, [line]] : (all.at(-1)!.push(line), all)), []);
const finalStage = stages.at(-1)!;

interface ComposeService {
  image?: string;
  environment?: Record<string, string>;
  networks?: string[] | Record<string, { ipv4_address?: string }>;
  depends_on?: Record<string, { condition: string }> | string[];
  volumes?: string[];
}
const compose = parse(readFileSync(root('compose.yaml'), 'utf8'), { merge: true }) as {
  services: Record<string, ComposeService>;
  configs: Record<string, { content: string }>;
  secrets: Record<string, { file?: string }>;
};

describe('Dockerfile', () => {
  it('builds in stages from Node 24 slim and runs the bundle as a non-root user, with a health check', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    for (const [from] of stages) expect(from).toMatch(/^FROM (node:24\.\d+\.\d+-[a-z]+-slim|toolchain)( AS [a-z-]+)?$/);
    expect(finalStage[0]).toMatch(/^FROM node:24\.\d+\.\d+-[a-z]+-slim$/);
    // Pinned as compose.yaml's images are, to the Node.js version CI builds with.
    for (const [from] of stages.filter(([line]) => line.startsWith('FROM node:'))) {
      expect(imageProblem('Dockerfile', { image: from.split(' ')[1] })).toBeNull();
      expect(from).toContain(`node:${readFileSync(root('.ci/run'), 'utf8').match(/NODE_VERSION=([\d.]+)/)![1]}-`);
    }
    expect(finalStage).toContain('USER node');
    expect(finalStage.findIndex((line) => line === 'USER node')).toBeLessThan(finalStage.findIndex((line) => line.startsWith('CMD')));
    expect(finalStage.find((line) => line.startsWith('HEALTHCHECK'))).toContain('/health');
    expect(finalStage.find((line) => line.startsWith('CMD'))).toBe('CMD ["node", "--enable-source-maps", "out/server/cli.js"]');
  });

  it('ships the bundle and the production node_modules only, made by the commands CI runs outside a container', () => {
    const copies = finalStage.filter((line) => line.startsWith('COPY'));
    expect(copies).toEqual([
      'COPY package.json package-lock.json ./',
      'COPY --from=production-dependencies /app/node_modules ./node_modules',
      'COPY --from=build /app/out/server ./out/server',
    ]);
    expect(instructions).toContain('RUN npm ci --omit=dev --omit=optional && npm cache clean --force');
    // No desktop package, hence no libsecret, in any stage.
    expect(instructions.join('\n')).not.toMatch(/libsecret|RUN npm ci$/m);
    expect(instructions).toContain('RUN npm run build:server');
    const check = readFileSync(root('scripts/check-server-bundle.mjs'), 'utf8');
    expect(check).toContain("['ci', '--omit=dev', '--omit=optional'");
    expect(check).toContain("'build:server'");
    expect(check).toContain("'out/server/cli.js'");
  });
});

describe('compose.yaml', () => {
  const { services } = compose;

  it('runs PostgreSQL, two API instances on it sharing one uploads volume, and a proxy that sends traffic to ready instances only', () => {
    expect(Object.keys(services).sort()).toEqual(['api-1', 'api-2', 'postgres', 'proxy']);
    const caddyfile = compose.configs.caddyfile.content;
    expect(caddyfile).toMatch(/reverse_proxy api-1:4000 api-2:4000/);
    expect(caddyfile).toMatch(/health_uri \/ready/);
    for (const name of ['api-1', 'api-2']) {
      const env = services[name].environment!;
      expect(env.DATABASE_URL).toBe('postgres://backoffice_api@postgres:5432/backoffice');
      expect(env).toMatchObject({
        PGPASSWORD_FILE: '/run/secrets/api_db_password',
        BACKOFFICE_STORAGE_DIR: '/data/storage',
        BACKOFFICE_STORAGE_SHARED: 'true',
      });
      expect(env.STORAGE_S3_BUCKET).toBeUndefined();
      expect(services[name].volumes).toEqual(['data:/data']);
      expect(services[name].depends_on).toMatchObject({ postgres: { condition: 'service_healthy' } });
    }
  });

  it('passes the deployment rules, which the set-up it replaced fails on each count', () => {
    expect(deploymentProblems(compose)).toEqual([]);
    const replaced = parse(readFileSync(root('tests/fixtures/compose-before-issue-52.yaml'), 'utf8'), { merge: true });
    const problems = deploymentProblems(replaced).join('\n');
    expect(problems).toContain('postgres: image postgres:17 is not pinned to an exact version');
    expect(problems).toContain('proxy: image caddy:2 is not pinned');
    expect(problems).toContain('minio: MinIO is withdrawn');
    expect(problems).toContain('api-1: the API connects as backoffice, the database superuser');
    expect(problems).toContain('api-1: METRICS_TOKEN is given as a value from the environment; use METRICS_TOKEN_FILE');
    expect(problems).toContain('proxy: SITE_ADDRESS defaults to plain HTTP (:80)');
    expect(imageProblem('x', { image: 'postgres:latest' })).toContain('not pinned');
    expect(imageProblem('x', { image: 'postgres:17-alpine' })).toContain('not pinned');
    expect(imageProblem('x', { image: 'postgres:17.6-alpine' })).toBeNull();
    expect(imageProblem('x', { image: `caddy@sha256:${'a'.repeat(64)}` })).toBeNull();
  });

  it('gives the API its own role from an init script run by the superuser, and secrets as files', () => {
    const init = readFileSync(root('deploy/postgres-init/10-backoffice-api.sh'), 'utf8');
    expect(init).toMatch(/CREATE ROLE backoffice_api LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE/);
    expect(init).toMatch(/CREATE DATABASE backoffice OWNER backoffice_api/);
    expect((services.postgres as { volumes: string[] }).volumes).toContain('./deploy/postgres-init:/docker-entrypoint-initdb.d:ro');
    expect(services.postgres.environment).toEqual({ POSTGRES_PASSWORD_FILE: '/run/secrets/postgres_password' });
    expect(Object.values(compose.secrets).every((secret) => secret.file?.startsWith('./secrets/'))).toBe(true);
  });

  it('has the proxy time out slow clients: headers, whole bodies and idle connections, never the event stream', () => {
    const caddyfile = compose.configs.caddyfile.content;
    // The global options block comes first, as Caddy requires.
    expect(caddyfile.trimStart()).toMatch(/^\{\s*servers \{\s*timeouts \{/);
    expect(caddyfile).toMatch(/^\s*read_header 10s$/m);
    expect(caddyfile).toMatch(/^\s*read_body 5m$/m);
    expect(caddyfile).toMatch(/^\s*idle 2m$/m);
    expect(caddyfile).not.toMatch(/^\s*write /m);
  });

  it('trusts the proxy, and only the proxy, for the client address', () => {
    const proxyAddress = (services.proxy.networks as Record<string, { ipv4_address: string }>).backoffice.ipv4_address;
    expect(proxyAddress).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    for (const name of ['api-1', 'api-2']) expect(services[name].environment!.TRUST_PROXY).toBe(proxyAddress);
  });
});
