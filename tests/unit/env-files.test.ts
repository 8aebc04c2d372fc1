import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readSecretFiles } from '../../src-server/env-files';

/** Secrets from files (issue 52, item 6): compose.yaml hands the API its secrets as Docker secrets, never as values. */
const work = mkdtempSync(join(tmpdir(), 'bo-env-files-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const secret = (name: string, content: string) => {
  const file = join(work, name);
  writeFileSync(file, content);
  return file;
};

describe('X_FILE variables', () => {
  it("set each secret from its file, without the file's final line break, and leave the others alone", () => {
    const env: NodeJS.ProcessEnv = {
      DATABASE_URL_FILE: secret('database_url', 'postgres://backoffice_api@postgres:5432/backoffice\n'),
      PGPASSWORD_FILE: secret('api_db_password', 's3cr3t with spaces \r\n'),
      METRICS_TOKEN_FILE: secret('metrics_token', 'a'.repeat(64)),
      BACKOFFICE_ADMIN_PASSWORD_FILE: secret('admin_password', 'Mot de passe 1!\n'),
      LOG_LEVEL: 'info',
      HOST_FILE: '/not/a/secret/variable',
    };
    expect(readSecretFiles(env)).toEqual(['DATABASE_URL', 'PGPASSWORD', 'METRICS_TOKEN', 'BACKOFFICE_ADMIN_PASSWORD']);
    expect(env).toMatchObject({
      DATABASE_URL: 'postgres://backoffice_api@postgres:5432/backoffice',
      PGPASSWORD: 's3cr3t with spaces ',
      METRICS_TOKEN: 'a'.repeat(64),
      BACKOFFICE_ADMIN_PASSWORD: 'Mot de passe 1!',
      LOG_LEVEL: 'info',
    });
    expect(env.HOST).toBeUndefined();
  });

  it('stop the start on a value given twice, an unreadable file or an empty one, naming the variable only', () => {
    expect(() => readSecretFiles({ JWT_SECRET: 'x', JWT_SECRET_FILE: secret('jwt', 'y') })).toThrow(
      'JWT_SECRET and JWT_SECRET_FILE are both set: keep one',
    );
    expect(() => readSecretFiles({ SMTP_URL_FILE: join(work, 'absent') })).toThrow(`SMTP_URL_FILE=${join(work, 'absent')} cannot be read (ENOENT)`);
    expect(() => readSecretFiles({ AWS_SECRET_ACCESS_KEY_FILE: secret('empty', '\n') })).toThrow('AWS_SECRET_ACCESS_KEY_FILE');
    try {
      readSecretFiles({ METRICS_TOKEN: 'visible', METRICS_TOKEN_FILE: secret('m', 'hidden-content') });
    } catch (error) {
      expect(String(error)).not.toContain('hidden-content');
    }
  });
});
