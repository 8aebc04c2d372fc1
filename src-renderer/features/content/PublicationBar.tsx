import { ADVERT_SCREEN_MESSAGES as M } from '@shared/messages/advert-screens';
import { campaignStatus, canEndCampaign, canStartCampaign, scheduleLabels } from '@shared/rules/advert-screens/status';
import type { ContentItem, PublishRequest } from './types';

/** The spinner shown while a save or publication is under way. */
function Spinner() {
  return <span className="spinner" role="status" aria-label="En cours" data-testid="pending-spinner" />;
}

/** Schedule labels, campaign status and the publication actions of a saved item (§2.2). */
export function PublicationBar(props: {
  kind: 'advert' | 'article';
  saved: ContentItem | null;
  pending: boolean;
  readOnly: boolean;
  publish: (request: PublishRequest) => Promise<boolean>;
  onStartCampaign: () => void;
}) {
  const { kind, saved, pending, readOnly, publish } = props;
  const published = Boolean(saved?.published);
  const campaign = { published, publishedAt: saved?.publishedAt ?? null, unpublishedAt: saved?.unpublishedAt ?? null };
  return (
    <div className="publication-bar" data-testid="publication-bar">
      <ul className="labels" data-testid="publication-labels">
        {scheduleLabels({ published, autoStartAt: saved?.autoStartAt, autoStopAt: saved?.autoStopAt }).map((label) => (
          <li key={label} className="label">
            {label}
          </li>
        ))}
      </ul>
      <span className={`campaign-status status-${campaignStatus(campaign).replace('é', 'e')}`} data-testid="campaign-status">
        {campaignStatus(campaign)}
      </span>
      {pending && <Spinner />}
      {!readOnly && (
        <span className="publication-actions">
          {kind === 'advert' && canStartCampaign(campaign) && (
            <button type="button" className="secondary" disabled={pending} onClick={props.onStartCampaign} data-testid="campaign-start">
              {M.startCampaign}
            </button>
          )}
          {kind === 'advert' && canEndCampaign(campaign) && (
            <button
              type="button"
              className="secondary"
              disabled={pending}
              onClick={() => void publish({ publish: false, updateDates: true })}
              data-testid="campaign-end"
            >
              {M.endCampaign}
            </button>
          )}
          <button
            type="button"
            className="primary"
            disabled={pending}
            onClick={() => void publish({ publish: !published, updateDates: false })}
            data-testid="publish-toggle"
          >
            {kind === 'advert' ? (published ? M.unpublish : M.publish) : published ? M.unpublishArticle : M.publishArticle}
          </button>
        </span>
      )}
    </div>
  );
}
