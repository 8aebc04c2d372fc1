import { CONFLICT_MESSAGES as M } from '@shared/messages/conflicts';
import { draftDate, useLocalDraft, type LocalDraftState } from '../lib/local-drafts';

/**
 * The offer of a local draft found when a record is reopened (lib/local-drafts.ts): resume it into the form, or
 * discard it. A draft based on an older version says so: resumed, its save meets the usual conflict answer.
 */
export function DraftOffer<T>(props: { local: LocalDraftState<T>; onResume: (values: T, base: T | null) => void }) {
  const { local } = props;
  if (!local.offer) return null;
  return (
    <div className={`draft-offer alert ${local.stale ? 'warning' : 'info'}`} role="status" data-testid="draft-offer">
      {local.stale && <p data-testid="draft-offer-stale">{M.staleDraft}</p>}
      <button
        type="button"
        className="primary"
        onClick={() => {
          const base = local.offer?.base ?? null;
          const values = local.resume();
          if (values) props.onResume(values, base);
        }}
        data-testid="draft-resume"
      >
        {M.resumeDraft(draftDate(local.offer.savedAt))}
      </button>
      <button type="button" className="secondary" onClick={local.discard} data-testid="draft-discard">
        {M.discardDraft}
      </button>
    </div>
  );
}

/**
 * An editor's local draft and its offer in one: `recordKey` names the record (`audience:12`, null while it is not
 * open), `values` are the form's, `pristine` the same fields as the server holds them, `version` the record's
 * current version. `values` and `pristine` are compared by content, so an editor may build them on each render.
 */
export function LocalDraftOffer<T>(props: {
  recordKey: string | null;
  values: T | null;
  pristine: T | null;
  version: number | null;
  /** The draft's values, and (for a stale draft) the server's fields it was typed on, to merge against. */
  onResume: (values: T, base: T | null) => void;
}) {
  const local = useLocalDraft<T>(props.recordKey, props.values, props.pristine, props.version);
  return <DraftOffer local={local} onResume={props.onResume} />;
}
