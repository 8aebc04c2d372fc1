import { useAtomValue, useSetAtom } from 'jotai';
import type { PushCampaign } from '@shared/contract/push';
import { PUSH_MESSAGES as M } from '@shared/messages/push';
import { formatDateTime } from '@shared/rules/dates';
import { campaignDuration, type PushCampaignState } from '@shared/rules/push';
import { apiAtom } from '../../lib/bridge';
import { modalAtom } from '../../lib/modal';
import { dataOf } from '../../lib/query';
import { useQuery } from '../../lib/use-query';
import { DataTable, type Column } from '../../ui/DataTable';
import { Dialog } from '../../ui/Dialog';
import { formatCount } from './form';

const STATE_LABELS: Record<PushCampaignState, string> = {
  queued: M.stateQueued,
  running: M.stateRunning,
  done: M.stateDone,
  failed: M.stateFailed,
  cancelled: M.stateCancelled,
};

const when = (at: number) => formatDateTime(Math.floor(at / 1000));

function CampaignDetailDialog(props: { id: number; onClose: () => void }) {
  const call = useAtomValue(apiAtom);
  const { data: detail } = useQuery(['push.get', props.id], () => dataOf(call('push.get', { params: { id: props.id } })));
  return (
    <Dialog
      title={detail ? detail.title : M.detail}
      testId="push-campaign-detail"
      onCancel={props.onClose}
      actions={
        <button type="button" className="secondary" onClick={props.onClose}>
          {M.close}
        </button>
      }
    >
      {detail && (
        <div className="push-detail">
          <p>{detail.body}</p>
          <dl>
            <dt>{M.navigation}</dt>
            <dd>{detail.navigation || '—'}</dd>
            <dt>{M.customId}</dt>
            <dd>{detail.customId}</dd>
            <dt>{M.columnTargeting}</dt>
            <dd>{detail.summary}</dd>
            <dt>{M.columnState}</dt>
            <dd data-testid="push-detail-state">{STATE_LABELS[detail.state]}</dd>
            {detail.error && (
              <>
                <dt>{M.columnError}</dt>
                <dd data-testid="push-detail-error">{detail.error}</dd>
              </>
            )}
          </dl>
          <table className="table push-batches">
            <thead>
              <tr>
                <th>{M.columnBatch}</th>
                <th>{M.columnWhen}</th>
                <th>{M.columnSent}</th>
                <th>{M.columnFailed}</th>
              </tr>
            </thead>
            <tbody>
              {detail.batches.map((batch) => (
                <tr key={batch.batch}>
                  <td>{batch.batch + 1}</td>
                  <td>{when(batch.sentAt)}</td>
                  <td>{formatCount(batch.sent)}</td>
                  <td>{formatCount(batch.failed)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Dialog>
  );
}

/** The campaign history (docs/push.md, beyond the spec): who, when, targeting, count, sent, failed, state, duration. */
export function CampaignHistory(props: { campaigns: PushCampaign[] }) {
  const setModal = useSetAtom(modalAtom);
  const open = (id: number) => setModal(<CampaignDetailDialog id={id} onClose={() => setModal(null)} />);
  const columns: Column<PushCampaign>[] = [
    {
      id: 'title',
      header: M.notificationTitle,
      cell: (campaign) => (
        <button type="button" className="link" onClick={() => open(campaign.id)} data-testid={`push-history-open-${campaign.id}`}>
          {campaign.title}
        </button>
      ),
    },
    { id: 'who', header: M.columnWho, cell: (campaign) => campaign.createdBy },
    { id: 'when', header: M.columnWhen, cell: (campaign) => when(campaign.createdAt), className: 'push-nowrap' },
    { id: 'targeting', header: M.columnTargeting, cell: (campaign) => campaign.summary, className: 'push-summary' },
    { id: 'count', header: M.columnCount, cell: (campaign) => formatCount(campaign.total) },
    { id: 'sent', header: M.columnSent, cell: (campaign) => formatCount(campaign.sent) },
    { id: 'failed', header: M.columnFailed, cell: (campaign) => formatCount(campaign.failed) },
    {
      id: 'state',
      header: M.columnState,
      className: 'push-nowrap',
      cell: (campaign) => (
        <span data-testid={`push-history-state-${campaign.id}`} title={campaign.error ?? undefined}>
          {STATE_LABELS[campaign.state]}
        </span>
      ),
    },
    {
      id: 'duration',
      header: M.columnDuration,
      cell: (campaign) => campaignDuration(campaign.startedAt, campaign.finishedAt),
      className: 'push-nowrap',
    },
  ];
  return (
    <section className="push-history" aria-label={M.history}>
      <h2>{M.history}</h2>
      <DataTable
        testId="push-history"
        columns={columns}
        rows={props.campaigns}
        rowKey={(campaign) => campaign.id}
        rowAttributes={(campaign) => ({ 'data-testid': `push-history-row-${campaign.id}` })}
        emptyText={M.noCampaign}
      />
    </section>
  );
}
