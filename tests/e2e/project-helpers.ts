import type { Role } from '@shared/roles';
import { demoAccount, type WebApp } from './fixtures';

/** POST `body` to the app's API as JSON, with `token` as bearer when given; answers the JSON body. */
async function postJson(app: WebApp, path: string, body: unknown, token?: string): Promise<{ [key: string]: unknown }> {
  const response = await fetch(`${app.apiUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return (await response.json()) as { [key: string]: unknown };
}

/**
 * A project of the file's own, made through the API by a demo project writer (CSM by default) before the test
 * signs in: `lines` target rows for its grid. Answers its id.
 */
export async function createGridProject(app: WebApp, name: string, lines: number, role: Role = 'CSM'): Promise<number> {
  const { email, password } = demoAccount(role);
  const session = (await postJson(app, '/authenticate', { username: email, password })) as { userId: number; accessToken: { value: string } };
  const project = await postJson(
    app,
    '/project',
    { name, clientName: 'Sanofa', keyAccount: session.userId, actor: 'Laboratoire', lines },
    session.accessToken.value,
  );
  return project.id as number;
}
