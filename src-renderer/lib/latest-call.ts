import { atom, type Getter } from 'jotai';

/**
 * A call of which only the latest answer counts (a search typed fast, a list reloaded while a page loads).
 *
 * `set(call.runAtom, request)` puts the request in an atom and reads an async atom derived from it. Jotai gives
 * that read an AbortSignal and aborts it as soon as the atom is computed again for a newer request, so an older
 * call learns it was overtaken from its signal (no request counter to keep in step) and resolves to null: its
 * answer is dropped. The bridge cannot cancel what main already sent, so the answer still arrives, unused.
 */
export function createLatestCall<Request, Answer>(debugLabel: string, call: (get: Getter, request: Request, signal: AbortSignal) => Promise<Answer>) {
  const requestAtom = atom<{ request: Request } | null>(null);
  requestAtom.debugLabel = `${debugLabel}.request`;

  const answerAtom = atom(async (get, { signal }): Promise<{ answer: Answer } | null> => {
    const current = get(requestAtom);
    if (!current) return null;
    const answer = await call(get, current.request, signal);
    return signal.aborted ? null : { answer };
  });
  answerAtom.debugLabel = `${debugLabel}.answer`;

  /** Runs the call; resolves to its answer, or to null when a newer call overtook it. */
  const runAtom = atom(null, async (get, set, request: Request): Promise<Answer | null> => {
    set(requestAtom, { request });
    return (await get(answerAtom))?.answer ?? null;
  });
  runAtom.debugLabel = debugLabel;

  /** Drops the answer of the call under way, if any (a search cleared before it answered). */
  const cancelAtom = atom(null, (get, set) => {
    set(requestAtom, null);
    void get(answerAtom);
  });
  cancelAtom.debugLabel = `${debugLabel}.cancel`;

  return { runAtom, cancelAtom };
}
