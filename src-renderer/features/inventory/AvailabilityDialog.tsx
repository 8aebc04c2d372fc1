import { useAtomValue, useSetAtom } from 'jotai';
import { useState, type FormEvent } from 'react';
import { INVENTORY_MESSAGES as M, INVENTORY_NOTICES, surplusMessage } from '@shared/messages/inventory';
import { withText } from '@shared/messages/notice';
import { digitsOnly, formatViews, monthName, parseMonthKey, type AvailabilityMonth } from '@shared/rules/inventory';
import { apiAtom } from '../../lib/bridge';
import { raiseNoticeAtom } from '../../lib/notices';
import { Dialog, DialogActions } from '../../ui/Dialog';
import { categoryKey, filterBody } from './atoms';
import type { CategoryOption } from './categories';

/** An <input type="month"> value (yyyy-MM) as YY/MM. */
const toMonthKey = (value: string) => `${value.slice(2, 4)}/${value.slice(5, 7)}`;

/** §8: the unavailable months listed, or the surplus over the period. */
export function availabilityText(months: readonly AvailabilityMonth[]): string {
  const missing = months.filter((month) => !month.isAvailable);
  if (missing.length) {
    const names = missing.map((month) => {
      const parsed = parseMonthKey(month.date)!;
      return `${monthName(parsed)} ${parsed.year}`;
    });
    return M.noMoreInventory + names.join(', ');
  }
  return surplusMessage(formatViews(months.reduce((sum, month) => sum + month.viewDifference, 0)));
}

/** 'Recherche de disponibilité' (§2, §5): specialty, start month, end month and sold views (digits only). */
export function AvailabilityDialog({ options, onClose }: { options: readonly CategoryOption[]; onClose: () => void }) {
  const api = useAtomValue(apiAtom);
  const raise = useSetAtom(raiseNoticeAtom);
  const [category, setCategory] = useState('');
  const [start, setStart] = useState('');
  const [end, setEnd] = useState('');
  const [sold, setSold] = useState('');
  const [result, setResult] = useState<AvailabilityMonth[] | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!category || !start || !end || !sold) return raise(INVENTORY_NOTICES.fillAllFields);
    if (start > end) return raise(INVENTORY_NOTICES.startAfterEnd);
    const answer = await api('inventory.availability', {
      body: { from: toMonthKey(start), to: toMonthKey(end), soldViews: Number(sold), ...filterBody(category) },
    });
    if (!answer.ok) return raise(withText(INVENTORY_NOTICES.fetchFailed, answer.errorMsg));
    setResult(answer.data);
  };

  return (
    <Dialog
      title={M.availabilityTitle}
      onCancel={onClose}
      testId="inventory-availability-dialog"
      actions={<DialogActions onCancel={onClose} confirm={{ label: M.search, form: 'inventory-availability-form', testId: 'availability-submit' }} />}
    >
      <form id="inventory-availability-form" className="form" onSubmit={(event) => void submit(event)} noValidate>
        <label className="field">
          <span className="field-label">{M.specialty}</span>
          <select value={category} onChange={(event) => setCategory(event.target.value)} data-testid="availability-specialty">
            <option value="" />
            {options.map((option) => (
              <option key={categoryKey(option.label, option.id)} value={categoryKey(option.label, option.id)}>
                {option.name}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span className="field-label">{M.startMonth}</span>
          <input type="month" value={start} onChange={(event) => setStart(event.target.value)} data-testid="availability-start" />
        </label>
        <label className="field">
          <span className="field-label">{M.endMonth}</span>
          <input type="month" value={end} onChange={(event) => setEnd(event.target.value)} data-testid="availability-end" />
        </label>
        <label className="field">
          <span className="field-label">{M.soldViews}</span>
          <input inputMode="numeric" value={sold} onChange={(event) => setSold(digitsOnly(event.target.value))} data-testid="availability-sold" />
        </label>
      </form>
      {result && (
        <p
          className={`inventory-result${result.some((month) => !month.isAvailable) ? ' sold-out' : ''}`}
          role="status"
          data-testid="availability-result"
        >
          {availabilityText(result)}
        </p>
      )}
    </Dialog>
  );
}
