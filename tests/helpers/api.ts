/**
 * The API called over HTTP as a client would, for the tests that prepare data or check an answer around what they
 * test (e2e seeding, a second account): JSON in and out, a bearer token when given.
 */

/** Where the API listens, and the access token to send (none: anonymous). */
export interface ApiTarget {
  apiUrl: string;
  token?: string;
}

/** One call; a body is sent as JSON. An answer other than 2xx throws with the method, path, status and answer. */
export async function api<T = any>(target: ApiTarget, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${target.apiUrl}${path}`, {
    method,
    headers: {
      ...(target.token ? { authorization: `Bearer ${target.token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = await response.json();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(answer)}`);
  return answer as T;
}

/** Signs in with an e-mail and a password: the access token and the account's id. */
export async function signInToApi(apiUrl: string, email: string, password: string): Promise<{ token: string; userId: number }> {
  const answer = await api<{ accessToken: { value: string }; userId: number }>({ apiUrl }, 'POST', '/authenticate', { username: email, password });
  return { token: answer.accessToken.value, userId: answer.userId };
}
