import { useAtomValue, useSetAtom } from 'jotai';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { INVENTORY_MESSAGES as M, INVENTORY_NOTICES } from '@shared/messages/inventory';
import { withText } from '@shared/messages/notice';
import { consumptionPercent, formatViews, monthName, parseMonthKey, quarterLabel, remainingViews } from '@shared/rules/inventory';
import type { ApiOutput } from '../../bridge/api';
import { apiAtom } from '../../lib/bridge';
import { raiseNoticeAtom } from '../../lib/notices';
import { dataOf } from '../../lib/query';
import { useQuery } from '../../lib/use-query';
import { Dialog } from '../../ui/Dialog';
import type { InventoryRow } from './atoms';

type Consumers = ApiOutput<'inventory.consumers'>;

/**
 * A row's modal (§2): the annual quarter view of one category, year by year, each quarter's remaining views with
 * its progress, a footer with the year's remaining views and consumption; beyond the spec, the targets that consume
 * each month, linked to their project.
 */
export function InventoryRowDialog({ row, year: firstYear, onClose }: { row: InventoryRow; year: number; onClose: () => void }) {
  const api = useAtomValue(apiAtom);
  const raise = useSetAtom(raiseNoticeAtom);
  const [year, setYear] = useState(firstYear);
  const { data } = useQuery(
    [row.id, row.label, year],
    async (): Promise<{ quarters: InventoryRow['inventory']; consumers: Consumers }> => {
      const yy = String(year % 100).padStart(2, '0');
      const range = { from: `${yy}/01`, to: `${yy}/12` };
      const ids = row.label === 'Specialty' ? { specialty: [row.id], profession: [] } : { specialty: [], profession: [row.id] };
      const [figures, targets] = await Promise.all([
        dataOf(api('inventory.list', { body: { ...range, ...ids, viewType: 'quarter' } })),
        api('inventory.consumers', { body: { ...range, label: row.label, id: row.id } }),
      ]);
      return { quarters: figures.items[0]?.inventory ?? [], consumers: targets.ok ? targets.data : [] };
    },
    // §8 'Quarter modal fetch failed': the response, 3 s.
    { onError: (error) => raise(withText(INVENTORY_NOTICES.fetchFailed, (error as Error).message)) },
  );
  const quarters = data?.quarters ?? null;
  const consumers = data?.consumers ?? [];

  const total = (quarters ?? []).reduce((sum, entry) => sum + entry.totalViews, 0);
  const consumed = (quarters ?? []).reduce((sum, entry) => sum + entry.consumedViews, 0);

  return (
    <Dialog
      title={row.populationCategory}
      onCancel={onClose}
      testId="inventory-row-dialog"
      actions={
        <button type="button" className="secondary" onClick={onClose}>
          {M.close}
        </button>
      }
    >
      <div className="inventory-year">
        <button type="button" className="icon" aria-label={M.previousYear} onClick={() => setYear(year - 1)} data-testid="inventory-year-previous">
          <ChevronLeft size={18} aria-hidden />
        </button>
        <strong data-testid="inventory-year">{year}</strong>
        <button type="button" className="icon" aria-label={M.nextYear} onClick={() => setYear(year + 1)} data-testid="inventory-year-next">
          <ChevronRight size={18} aria-hidden />
        </button>
      </div>
      <ul className="inventory-quarters" data-testid="inventory-quarters">
        {(quarters ?? []).map((entry) => (
          <li key={entry.date} className="inventory-quarter">
            <span>{quarterLabel(parseMonthKey(entry.date)!)}</span>
            <progress
              max={Math.max(entry.totalViews, 1)}
              value={Math.min(entry.consumedViews, Math.max(entry.totalViews, 1))}
              aria-label={quarterLabel(parseMonthKey(entry.date)!)}
            />
            <span className="inventory-number" data-testid="inventory-quarter-remaining">
              {formatViews(remainingViews(entry))}
            </span>
          </li>
        ))}
      </ul>
      <p className="inventory-footer" data-testid="inventory-footer">
        {M.remaining} : {formatViews(total - consumed)} · {M.consumption} : {consumptionPercent(total, consumed).toLocaleString('fr-FR')} %
      </p>
      <ConsumerList consumers={consumers} onNavigate={onClose} />
    </Dialog>
  );
}

function ConsumerList({ consumers, onNavigate }: { consumers: Consumers; onNavigate: () => void }) {
  const months = consumers.filter((month) => month.targets.length > 0);
  return (
    <details className="inventory-consumers" data-testid="inventory-consumers">
      <summary>{M.consumers}</summary>
      {months.length === 0 ? (
        <p className="muted">{M.noConsumer}</p>
      ) : (
        months.map((month) => (
          <div key={month.date}>
            <h3>
              {monthName(parseMonthKey(month.date)!)} {2000 + Number(month.date.slice(0, 2))}
            </h3>
            <ul>
              {month.targets.map((target) => (
                <li key={target.targetId}>
                  <Link to={`/project/edit/${target.projectId}`} onClick={onNavigate}>
                    {target.projectName}
                  </Link>{' '}
                  {target.actionCode ?? ''} — {formatViews(target.views)}
                </li>
              ))}
            </ul>
          </div>
        ))
      )}
    </details>
  );
}
