// Checks the container files without a Docker engine (docs/operations.md): the Dockerfile with hadolint where it is
// installed, compose.yaml's deployment rules (scripts/deployment-rules.ts: images pinned, no MinIO, the API's own
// database role, HTTPS by default, secrets from files), and compose.yaml against the Compose Specification's JSON
// schema (`docker compose config` where the client has the compose plugin; else the schema from COMPOSE_SPEC_SCHEMA
// or downloaded, validated with ajv). What cannot run here is said in one line, never silently passed. The commands
// the image runs are run for real by scripts/check-server-bundle.mjs.
//   node scripts/check-deployment.mjs [other-compose.yaml]   (the rules only, on another file)
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv';
import { parse } from 'yaml';
import { deploymentProblems } from './deployment-rules.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const log = (line) => console.log(`deployment files: ${line}`);
const SCHEMA_URL = 'https://raw.githubusercontent.com/compose-spec/compose-spec/main/schema/compose-spec.json';
let failed = false;

const composeFile = process.argv[2] ?? `${root}compose.yaml`;
const problems = deploymentProblems(parse(readFileSync(composeFile, 'utf8'), { merge: true }));
for (const problem of problems) console.error(`deployment files: ${composeFile}: ${problem}`);
if (problems.length) failed = true;
else log(`${composeFile}: images pinned, no MinIO, the API's own database role, HTTPS by default, secrets from files`);
if (process.argv[2]) process.exit(failed ? 1 : 0);

const runs = (command, args) => spawnSync(command, args, { cwd: root, stdio: 'ignore' }).status === 0;

if (runs('hadolint', ['--version'])) {
  try {
    execFileSync('hadolint', ['Dockerfile'], { cwd: root, stdio: 'inherit' });
    log('hadolint: Dockerfile passes');
  } catch {
    failed = true;
  }
} else log('hadolint: not installed (no npm or Debian package), skipped');

async function composeSchema() {
  if (process.env.COMPOSE_SPEC_SCHEMA) return JSON.parse(readFileSync(process.env.COMPOSE_SPEC_SCHEMA, 'utf8'));
  const response = await fetch(SCHEMA_URL, { signal: AbortSignal.timeout(10_000) });
  if (!response.ok) throw new Error(`${SCHEMA_URL}: ${response.status}`);
  return response.json();
}

if (runs('docker', ['compose', 'version'])) {
  const env = { ...process.env, SITE_ADDRESS: 'backoffice-api.example.com', BACKOFFICE_ADMIN_EMAIL: 'x' };
  if (spawnSync('docker', ['compose', 'config', '--quiet'], { cwd: root, stdio: 'inherit', env }).status === 0)
    log('docker compose config: compose.yaml is valid');
  else failed = true;
} else {
  const schema = await composeSchema().catch((error) => {
    log(`compose.yaml: no docker compose plugin and no Compose schema (${error.message}), skipped`);
    return undefined;
  });
  if (schema) {
    delete schema.$schema;
    const validate = new Ajv({ strict: false, validateFormats: false, allErrors: true }).compile(schema);
    const compose = parse(readFileSync(`${root}/compose.yaml`, 'utf8'), { merge: true });
    if (validate(compose)) log('compose.yaml is valid against the Compose Specification schema');
    else {
      failed = true;
      console.error(validate.errors);
    }
  }
}
process.exit(failed ? 1 : 0);
