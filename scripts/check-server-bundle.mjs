// The team server as an operator installs it (docs/operations.md): `npm ci --omit=dev --omit=optional` in a scratch folder holding
// only package.json and package-lock.json, the bundle of `npm run build:server` copied beside them, then
// `node out/server/cli.js --demo` on a throw-away PostgreSQL database. It must become ready (/ready), sign in, serve
// /metrics and the API reference, and stop cleanly on SIGTERM. The same commands as the Dockerfile's, outside a
// container. Prints the production install's time and size and the time to ready.
//
// node scripts/check-server-bundle.mjs [--no-build]   (TEST_DATABASE_URL: the PostgreSQL server, default 127.0.0.1:5432)
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const root = fileURLToPath(new URL('..', import.meta.url));
const serverUrl = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const seconds = (since) => ((performance.now() - since) / 1000).toFixed(1);
const log = (line) => console.log(`server bundle: ${line}`);

if (!process.argv.includes('--no-build')) execFileSync('npm', ['run', '--silent', 'build:server'], { cwd: root, stdio: 'inherit' });

// Every package the bundle imports is a production dependency: `npm ci --omit=dev` installs nothing else.
const { dependencies, optionalDependencies } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const bundleDir = join(root, 'out/server');
const imported = new Set();
for (const file of readdirSync(bundleDir).filter((name) => name.endsWith('.js'))) {
  const code = readFileSync(join(bundleDir, file), 'utf8');
  for (const [, name] of code.matchAll(/(?:^import\s[^'"]*?from\s*|\bimport\(\s*|\brequire\(\s*|\.resolve\(\s*)["']([^"'./][^"']*)["']/gm)) {
    const base = name.startsWith('@') ? name.split('/').slice(0, 2).join('/') : name.split('/')[0];
    if (!name.startsWith('node:') && !builtinModules.includes(base)) imported.add(base);
  }
}
const missing = [...imported].filter((name) => !dependencies[name]);
if (missing.length) throw new Error(`the server bundle imports packages that are not production dependencies: ${missing.join(', ')}`);
log(`${imported.size} packages imported, all production dependencies`);

const scratch = mkdtempSync(join(tmpdir(), 'bo-server-bundle-'));
const admin = new pg.Client({ connectionString: serverUrl });
const database = `bo_bundle_${process.pid}`;
let child;
let connected = false;
try {
  for (const file of ['package.json', 'package-lock.json']) cpSync(join(root, file), join(scratch, file));
  // The server's install: no devDependencies and none of the desktop app's own packages (optionalDependencies:
  // keytar, electron-store, electron-updater…), with libsecret hidden from pkg-config, so that a desktop package that
  // came back, or one needing libsecret, fails here. Packages come from npm's cache, which the first install filled.
  // Install scripts (native builds) are not run a second time: a package with one is copied, built, from the
  // checkout's own install of the same lockfile, after checking it is the same version.
  const installStarted = performance.now();
  execFileSync('npm', ['ci', '--omit=dev', '--omit=optional', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund'], {
    cwd: scratch,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1', PKG_CONFIG_PATH: '', PKG_CONFIG_LIBDIR: join(scratch, 'no-pkg-config') },
  });
  const lock = JSON.parse(readFileSync(join(scratch, 'package-lock.json'), 'utf8'));
  const installed = Object.entries(lock.packages).filter(([path, entry]) => path && !entry.dev && !entry.optional && existsSync(join(scratch, path)));
  // The desktop app's packages: those only its optional dependencies bring (semver, say, other packages need too).
  const desktopOnly = Object.keys(optionalDependencies ?? {}).filter((name) => lock.packages[`node_modules/${name}`]?.optional);
  const desktop = [...new Set([...desktopOnly, 'keytar', 'electron-store', 'electron-updater', 'electron'])].filter((name) =>
    existsSync(join(scratch, 'node_modules', name)),
  );
  if (desktop.length) throw new Error(`the server's production install holds desktop packages: ${desktop.join(', ')}`);
  const built = installed.filter(([, entry]) => entry.hasInstallScript).map(([path]) => path);
  for (const path of built) {
    const version = (folder) => JSON.parse(readFileSync(join(folder, path, 'package.json'), 'utf8')).version;
    if (version(scratch) !== version(root)) throw new Error(`${path}: ${version(scratch)} installed, ${version(root)} built in the checkout`);
    cpSync(join(root, path), join(scratch, path), { recursive: true });
  }
  const size = execFileSync('du', ['-sm', join(scratch, 'node_modules')], { encoding: 'utf8' }).split('\t')[0];
  log(
    `npm ci --omit=dev --omit=optional: ${seconds(installStarted)} s, ${installed.length} packages, node_modules ${size} MB, no desktop package; built once: ${built.join(', ') || 'none'}`,
  );
  cpSync(bundleDir, join(scratch, 'out/server'), { recursive: true });

  await admin.connect();
  connected = true;
  await admin.query(`CREATE DATABASE ${database}`);
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  const metricsToken = 'bundle-check-metrics-token-of-32-chars';
  const started = performance.now();
  child = spawn(process.execPath, ['out/server/cli.js', '--demo'], {
    cwd: scratch,
    env: {
      PATH: process.env.PATH,
      HOST: '127.0.0.1',
      PORT: '0',
      DATABASE_URL: url.toString(),
      BACKOFFICE_INGEST_TOKEN: 'bundle-check-ingest-token',
      TRUST_PROXY: '127.0.0.1',
      BACKOFFICE_STORAGE_DIR: join(scratch, 'storage'),
      METRICS_TOKEN: metricsToken,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const until = async (what, test, timeoutMs = 120_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await test().catch(() => undefined);
      if (value) return value;
      if (child.exitCode !== null) throw new Error(`the server stopped before ${what}:\n${output}`);
      if (Date.now() > deadline) throw new Error(`no ${what} after ${timeoutMs / 1000} s:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const api = await until('listening line', async () => /API listening on (http:\/\/\S+)/.exec(output)?.[1]);
  await until('ready answer', async () => (await fetch(`${api}/ready`)).status === 200);
  log(`ready ${seconds(started)} s after its start (${api})`);

  const signIn = async (username, password) => {
    const response = await fetch(`${api}/authenticate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password }),
    });
    if (response.status !== 200) throw new Error(`sign-in of ${username}: ${response.status} ${await response.text()}`);
  };
  await signIn('admin@demo.backoffice.local', 'demo-admin-2026');
  const ingest = await fetch(`${api}/population/users`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer bundle-check-ingest-token' },
    body: JSON.stringify([{ externalId: 'bundle-1', email: 'bundle-1@example.org', area: 'french', roles: ['ROLE_EXPERT'] }]),
  });
  if (ingest.status !== 200) throw new Error(`population feed: ${ingest.status} ${await ingest.text()}`);
  const metrics = await fetch(`${api}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
  if (metrics.status !== 200 || !(await metrics.text()).includes('backoffice_http_requests_total')) throw new Error(`/metrics: ${metrics.status}`);
  const docs = await fetch(`${api}/openapi.json`);
  if (docs.status !== 200) throw new Error(`/openapi.json: ${docs.status}`);
  log('signed in (demo administrator), population fed, /metrics and /openapi.json served');

  const stopping = performance.now();
  child.kill('SIGTERM');
  const { code, signal } = await exited;
  if (code !== 0) throw new Error(`stopped with ${signal ?? `code ${code}`}:\n${output}`);
  log(`stopped cleanly on SIGTERM in ${seconds(stopping)} s`);
} finally {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  if (connected) {
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`).catch(() => undefined);
    await admin.end().catch(() => undefined);
  }
  rmSync(scratch, { recursive: true, force: true });
}
