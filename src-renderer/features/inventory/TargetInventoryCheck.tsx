import { useAtomValue, useSetAtom } from 'jotai';
import type { ReactNode } from 'react';
import { INVENTORY_MESSAGES as M, INVENTORY_NOTICES } from '@shared/messages/inventory';
import { withText } from '@shared/messages/notice';
import { formatViews, monthName, parseMonthKey, type AvailabilityMonth } from '@shared/rules/inventory';
import { apiAtom } from '../../lib/bridge';
import { modalAtom } from '../../lib/modal';
import { raiseNoticeAtom } from '../../lib/notices';
import { Dialog } from '../../ui/Dialog';
import { availabilityText } from './AvailabilityDialog';
import './inventory.css';

function CheckDialog({ state, months, onClose }: { state: 'checked' | 'none' | 'unknown'; months: AvailabilityMonth[]; onClose: () => void }) {
  const summary =
    state === 'none'
      ? M.checkNoCategory
      : state === 'unknown'
        ? M.checkUnknownCategory
        : months.every((month) => month.isAvailable)
          ? M.checkOk
          : availabilityText(months);
  return (
    <Dialog
      title={M.checkTitle}
      onCancel={onClose}
      testId="target-inventory-dialog"
      actions={
        <button type="button" className="secondary" onClick={onClose}>
          {M.close}
        </button>
      }
    >
      <p
        className={`inventory-result${months.some((month) => !month.isAvailable) || state !== 'checked' ? ' sold-out' : ''}`}
        data-testid="target-inventory-result"
      >
        {summary}
      </p>
      {months.length > 0 && (
        <ul className="inventory-check-months">
          {months.map((month) => {
            const parsed = parseMonthKey(month.date)!;
            return (
              <li key={month.date} className={month.isAvailable ? undefined : 'sold-out'}>
                {monthName(parsed)} {parsed.year} : {month.viewDifference > 0 ? '+' : ''}
                {formatViews(month.viewDifference)}
              </li>
            );
          })}
        </ul>
      )}
    </Dialog>
  );
}

/**
 * The availability check of one target from the project editor (audiences-projects-tools.md §3 "Inventory-related
 * check result"): its category, dates and goal in views against the inventory, its own booking left out.
 */
export function TargetInventoryCheck({ targetId, testId, icon }: { targetId: number; testId?: string; icon?: ReactNode }) {
  const api = useAtomValue(apiAtom);
  const setModal = useSetAtom(modalAtom);
  const raise = useSetAtom(raiseNoticeAtom);
  const check = async () => {
    const result = await api('inventory.targetCheck', { params: { id: targetId } });
    if (!result.ok) return raise(withText(INVENTORY_NOTICES.fetchFailed, result.errorMsg));
    setModal(<CheckDialog state={result.data.state} months={result.data.months} onClose={() => setModal(null)} />);
  };
  return (
    <button
      type="button"
      className={icon ? 'icon' : 'link'}
      aria-label={icon ? M.checkTitle : undefined}
      title={icon ? M.checkTitle : undefined}
      onClick={() => void check()}
      data-testid={testId}
    >
      {icon ?? M.checkTitle}
    </button>
  );
}
