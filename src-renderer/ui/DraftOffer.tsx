import { CONFLICT_MESSAGES as M } from '@shared/messages/conflicts';
import { draftDate, type LocalDraftState } from '../lib/local-drafts';

/**
 * The offer of a local draft found when a record is reopened (lib/local-drafts.ts): resume it into the form, or
 * discard it. A draft based on an older version says so: resumed, its save meets the usual conflict answer.
 */
export function DraftOffer<T>(props: { local: LocalDraftState<T>; onResume: (values: T) => void }) {
  const { local } = props;
  if (!local.offer) return null;
  return (
    <div className={`draft-offer alert ${local.stale ? 'warning' : 'info'}`} role="status" data-testid="draft-offer">
      {local.stale && <p data-testid="draft-offer-stale">{M.staleDraft}</p>}
      <button
        type="button"
        className="primary"
        onClick={() => {
          const values = local.resume();
          if (values) props.onResume(values);
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
