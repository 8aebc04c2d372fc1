import type { ServerContext } from '../../context';
import type { Database } from '../../db/client';
import type { Handlers } from '../../operations';
import { audienceHistoryHandlers, type AudienceHistoryHandlers } from './handlers/history';
import { HistoryRecorder, withOrigin, type ChangedDefinitions, type DefinitionsWriterLike } from './recorder';

type Executor = Pick<Database, 'execute'>;

/**
 * History of audiences and groups (docs/audience-history.md). The registry gives `hooks` to the audiences feature, which
 * calls them inside each write's transaction and hands over its writer (restoring goes through it, so the engine
 * follows); `wrap` tells the recorder who made each request and through which operation.
 */
export function audienceHistoryFeature(context: ServerContext) {
  const recorder = new HistoryRecorder();
  let writer: DefinitionsWriterLike | undefined;
  const hooks = {
    before: (tx: Executor) => recorder.before(tx),
    after: (tx: Executor, changed: ChangedDefinitions, before: unknown) => recorder.after(tx, changed, before),
    connect(write: DefinitionsWriterLike) {
      writer = write;
    },
  };
  const wrap = <H extends Partial<Handlers>>(handlers: H): H =>
    Object.fromEntries(
      Object.entries(handlers).map(([operation, handler]) => [
        operation,
        (input: { account: { id: number } | null; params?: unknown; body?: unknown }) =>
          withOrigin({ operation, account: input.account, params: input.params, body: input.body }, () =>
            (handler as (i: typeof input) => Promise<unknown>)(input),
          ),
      ]),
    ) as unknown as H;
  const handlers: AudienceHistoryHandlers = wrap(
    audienceHistoryHandlers(context, () => {
      if (!writer) throw new Error('the audiences feature is not connected to its history');
      return writer;
    }),
  );
  return { hooks, wrap, handlers };
}
