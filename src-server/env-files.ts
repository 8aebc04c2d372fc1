import { readFileSync } from 'node:fs';

/**
 * Secrets from files (Docker and Kubernetes secrets, systemd credentials): `X_FILE=/run/secrets/x` sets `X` to the
 * file's content, its final line break dropped, so that no secret sits in the environment of a compose file or in
 * `docker inspect`. Only the variables below, each a secret the server reads. `PGPASSWORD` is node-postgres' own:
 * the password of a `DATABASE_URL` written without one (compose.yaml's API role).
 */
export const FILE_SECRETS = [
  'DATABASE_URL',
  'PGPASSWORD',
  'JWT_SECRET',
  'METRICS_TOKEN',
  'SMTP_URL',
  'BACKOFFICE_ADMIN_PASSWORD',
  'BACKOFFICE_INGEST_TOKEN',
  'ESTIMATES_API_TOKEN',
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
] as const;

/**
 * Fills `env` from the `_FILE` variables, in place (the S3 client and the others read process.env). Both `X` and
 * `X_FILE`, an unreadable or empty file: an Error naming the variable (never the content), which stops the start.
 */
export function readSecretFiles(env: NodeJS.ProcessEnv, read: (file: string) => string = (file) => readFileSync(file, 'utf8')): string[] {
  const found: string[] = [];
  for (const name of FILE_SECRETS) {
    const file = env[`${name}_FILE`];
    if (file === undefined || file === '') continue;
    if (env[name] !== undefined && env[name] !== '') throw new Error(`${name} and ${name}_FILE are both set: keep one`);
    let content: string;
    try {
      content = read(file);
    } catch (error) {
      throw new Error(`${name}_FILE=${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`, {
        cause: error,
      });
    }
    const value = content.replace(/\r?\n$/, '');
    if (value === '') throw new Error(`${name}_FILE=${file} is empty`);
    env[name] = value;
    found.push(name);
  }
  return found;
}
