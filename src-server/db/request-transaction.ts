import { AsyncLocalStorage } from 'node:async_hooks';
import type { Database } from './client';

/** The transaction a keyed create runs in (idempotency.ts), while its handler runs. */
interface Scope {
  tx: Database;
  open: boolean;
}

const current = new AsyncLocalStorage<Scope>();

/**
 * The database the features are given: itself, but for the code a keyed create's handler runs (and what it starts
 * while it runs), which goes to that create's transaction (`inRequestTransaction`), so that the create and its stored
 * answer commit together. Work that outlives the handler (a job woken, a timer) gets the database itself again
 * once the handler has returned.
 */
export function withRequestTransactions(db: Database): Database {
  const bound = new WeakMap<object, Map<PropertyKey, unknown>>();
  return new Proxy(db, {
    get(target, property) {
      const scope = current.getStore();
      const source = scope?.open ? scope.tx : target;
      const value = Reflect.get(source, property, source) as unknown;
      if (typeof value !== 'function') return value;
      let methods = bound.get(source);
      if (!methods) bound.set(source, (methods = new Map()));
      let method = methods.get(property);
      if (!method) methods.set(property, (method = (value as (...args: unknown[]) => unknown).bind(source)));
      return method;
    },
  });
}

/**
 * Runs `work` with every call through a withRequestTransactions database going to `tx`; once it settles, they go
 * to the database itself again.
 */
export async function inRequestTransaction<T>(tx: Database, work: () => Promise<T>): Promise<T> {
  const scope: Scope = { tx, open: true };
  try {
    return await current.run(scope, work);
  } finally {
    scope.open = false;
  }
}
