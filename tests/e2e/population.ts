import { demoAccount, type WebApp } from './fixtures';
import { api, signInToApi } from '../helpers/api';

/** Calls the embedded API over HTTP as the demo ADMIN (what the app platform's feed or another screen would do). */
export async function adminApi(app: WebApp) {
  const { email, password } = demoAccount('ADMIN');
  const { token } = await signInToApi(app.apiUrl, email, password);
  return (method: string, path: string, body?: unknown): Promise<any> => api({ apiUrl: app.apiUrl, token }, method, path, body);
}

/** App users, and document views on named documents, through the ingestion API. */
export async function ingest(
  app: WebApp,
  users: { externalId: string; email: string; feeds?: string[]; apps?: string[] }[],
  views: { user: string; document: string; count?: number }[] = [],
): Promise<void> {
  const call = await adminApi(app);
  await call(
    'POST',
    '/population/users',
    users.map((user) => ({ area: 'french', professionId: 2, ...user })),
  );
  const events = views.flatMap((view, index) =>
    Array.from({ length: view.count ?? 1 }, (_, n) => ({
      eventId: `e2e-${index}-${n}-${view.user}`,
      userExternalId: view.user,
      event: 'document.view',
      node: { label: 'Document', name: view.document },
      at: '2026-03-01T10:00:00Z',
    })),
  );
  if (events.length) await call('POST', '/population/events', events);
}
