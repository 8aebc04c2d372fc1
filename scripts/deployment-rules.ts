/**
 * What a team's compose.yaml must hold before anyone runs it (issue 52, item 6; docs/operations.md), checked on the
 * parsed file without a Docker engine: scripts/check-deployment.mjs runs it in CI, tests/unit/deployment.test.ts
 * runs it on the file and on the set-up it replaced. Each problem is one line; none: the file passes.
 */
interface Service {
  image?: string;
  build?: unknown;
  environment?: Record<string, unknown> | string[];
  ports?: unknown[];
  secrets?: unknown[];
}
interface Compose {
  services?: Record<string, Service>;
  secrets?: Record<string, { file?: string; environment?: string }>;
}

/** An exact version: at least major.minor (postgres 17.6, caddy 2.10.2), or a digest. Never latest, never `17` alone. */
const PINNED_TAG = /^v?\d+\.\d+(\.\d+)?([-.+_][A-Za-z0-9.-]+)?$/;
const DIGEST = /@sha256:[0-9a-f]{64}$/;
/** Variables that hold a secret: their value belongs in a file (`X_FILE`), never in compose.yaml or its environment. */
const SECRET_NAME = /(PASSWORD|SECRET|TOKEN|ACCESS_KEY|ACCESS_KEY_ID|PRIVATE_KEY)$/;
/** `${NAME:-default}` / `${NAME:?message}` / `${NAME}`: the default, '' when the variable must be given. */
const INTERPOLATION = /^\$\{([A-Z0-9_]+)(?::?([-?])([^}]*))?\}$/;

function environment(service: Service): Record<string, string> {
  const env = service.environment ?? {};
  if (Array.isArray(env)) return Object.fromEntries(env.map((line) => [line.split('=')[0], line.split('=').slice(1).join('=')]));
  return Object.fromEntries(Object.entries(env).map(([key, value]) => [key, value == null ? '' : String(value)]));
}

export function imageProblem(name: string, service: Service): string | null {
  if (!service.image) return service.build ? `${name}: built here but not named with a version (image: name:x.y.z)` : `${name}: no image`;
  const image = service.image;
  if (DIGEST.test(image)) return null;
  const tag = /:([^/:@]+)$/.exec(image)?.[1];
  if (!tag) return `${name}: image ${image} has no tag (that is :latest)`;
  if (tag.startsWith('$')) return `${name}: image ${image} takes its version from a variable`;
  if (!PINNED_TAG.test(tag)) return `${name}: image ${image} is not pinned to an exact version (latest or a major alone float)`;
  return null;
}

export function deploymentProblems(compose: Compose): string[] {
  const problems: string[] = [];
  const services = compose.services ?? {};
  // Every image pinned.
  for (const [name, service] of Object.entries(services)) {
    const problem = imageProblem(name, service);
    if (problem) problems.push(problem);
  }
  // No MinIO: its community edition is withdrawn (no images, no security fixes).
  for (const [name, service] of Object.entries(services)) {
    if (/minio/i.test(service.image ?? '') || Object.keys(environment(service)).some((key) => key.startsWith('MINIO_')))
      problems.push(`${name}: MinIO is withdrawn; uploads go to the local volume or to S3`);
  }
  // Least privilege: the API's database role is not the superuser.
  const superusers = new Set(['postgres']);
  for (const service of Object.values(services)) {
    const user = environment(service).POSTGRES_USER;
    if (user) superusers.add(user);
  }
  const apis = Object.entries(services).filter(
    ([, service]) => 'DATABASE_URL' in environment(service) || 'DATABASE_URL_FILE' in environment(service),
  );
  if (apis.length === 0) problems.push('no service has DATABASE_URL: the API must run on PostgreSQL');
  for (const [name, service] of apis) {
    const url = environment(service).DATABASE_URL;
    if (url === undefined) continue;
    const parsed = URL.parse(url.replace(/\$\{[^}]*\}/g, 'x'));
    if (!parsed) problems.push(`${name}: DATABASE_URL is not a URL`);
    else if (superusers.has(decodeURIComponent(parsed.username)))
      problems.push(`${name}: the API connects as ${parsed.username}, the database superuser; give it its own role`);
    if (parsed?.password) problems.push(`${name}: DATABASE_URL holds a password; give it in a file (PGPASSWORD_FILE or DATABASE_URL_FILE)`);
  }
  // Secrets from files: no secret value in the file nor taken from the environment.
  for (const [name, service] of Object.entries(services)) {
    for (const [key, value] of Object.entries(environment(service))) {
      if (key.endsWith('_FILE') || !SECRET_NAME.test(key)) continue;
      problems.push(
        `${name}: ${key} is given as a value${value.startsWith('$') ? ' from the environment' : ''}; use ${key}_FILE and a Docker secret`,
      );
    }
  }
  for (const [name, secret] of Object.entries(compose.secrets ?? {})) {
    if (!secret.file) problems.push(`secret ${name}: not read from a file`);
  }
  // HTTPS by default on the public name: Caddy's automatic certificates, never plain HTTP unless asked for.
  const proxy = Object.entries(services).find(([, service]) => /^caddy:/.test(service.image ?? ''));
  if (!proxy) problems.push('no Caddy proxy: nothing serves HTTPS');
  else {
    const [name, service] = proxy;
    const site = environment(service).SITE_ADDRESS ?? '';
    const interpolated = INTERPOLATION.exec(site);
    const fallback = interpolated ? (interpolated[2] === '-' ? (interpolated[3] ?? '') : '') : site;
    if (!site) problems.push(`${name}: no SITE_ADDRESS, the public name Caddy serves over HTTPS`);
    else if (/^(:\d+|http:\/\/)/.test(fallback) || (interpolated && interpolated[2] === undefined))
      problems.push(`${name}: SITE_ADDRESS defaults to plain HTTP (${fallback || 'empty'}); require the public name, HTTP only when set so`);
    const ports = (service.ports ?? []).map(String);
    if (!ports.some((port) => /(^|:)443(\/tcp)?$/.test(port))) problems.push(`${name}: port 443 is not published`);
  }
  return problems;
}
