import type { AudienceHistoryHooks } from '../../feature-services';
import { defineFeature } from '../../feature-wiring';
import { audienceHistoryHandlers, type AudienceHistoryHandlers } from './handlers/history';
import { HistoryRecorder, withOrigin, type DefinitionsWriterLike } from './recorder';

/**
 * History of audiences and groups (docs/audience-history.md). It provides the audiences feature its `audienceHistory`:
 * hooks called inside each write's transaction, which receive its writer (restoring goes through it, so the engine
 * follows), and `wrap`, which tells the recorder who made each request and through which operation.
 */
export const audienceHistoryFeature = defineFeature({
  name: 'audience-history',
  needs: [],
  provides: ['audienceHistory'],
  build: (context) => {
    let writer: DefinitionsWriterLike | undefined;
    const recorder = new HistoryRecorder();
    const audienceHistory: AudienceHistoryHooks = {
      before: (tx) => recorder.before(tx),
      after: (tx, changed, before) => recorder.after(tx, changed, before),
      connect(write) {
        writer = write;
      },
      wrap,
    };
    const handlers: AudienceHistoryHandlers = wrap(
      audienceHistoryHandlers(context, () => {
        if (!writer) throw new Error('the audiences feature is not connected to its history');
        return writer;
      }),
    );
    return { handlers, provides: { audienceHistory } };
  },
});

function wrap<H extends object>(handlers: H): H {
  return Object.fromEntries(
    Object.entries(handlers).map(([operation, handler]) => [
      operation,
      (input: { account: { id: number } | null; params?: unknown; body?: unknown }) =>
        withOrigin({ operation, account: input.account, params: input.params, body: input.body }, () =>
          (handler as (i: typeof input) => Promise<unknown>)(input),
        ),
    ]),
  ) as unknown as H;
}
