import { useState } from 'react';
import { checkDateRange, epochSecondsToDay } from '@shared/rules/project-list';
import { useAdjustOnChange } from '../../../lib/render-state';
import type { DateRange } from '../list-atoms';

/** The key of a closed menu for useAdjustOnChange: unlike any value. */
const CLOSED = Symbol('closed');

/** A date-range filter: "from" cannot exceed "to", and Valider needs both (spec §5). */
export function DateFilter(props: { label: string; testId: string; value: DateRange | undefined; onApply: (range: DateRange) => void }) {
  const [open, setOpen] = useState(false);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  // Opening shows the range applied (and so does a new one while open).
  useAdjustOnChange(open ? props.value : CLOSED, () => {
    if (!open) return;
    setFrom(props.value ? epochSecondsToDay(props.value.from) : '');
    setTo(props.value ? epochSecondsToDay(props.value.to) : '');
  });
  const check = checkDateRange(from, to);
  return (
    <div className="filter date-filter">
      <button
        type="button"
        className={`link${props.value ? ' active' : ''}`}
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        data-testid={props.testId}
      >
        {props.label} ▾
      </button>
      {open && (
        <div className="date-filter-menu" role="dialog" aria-label={props.label} data-testid={`${props.testId}-menu`}>
          <label>
            Du{' '}
            <input
              type="date"
              value={from}
              max={to || undefined}
              onChange={(event) => setFrom(event.target.value)}
              data-testid={`${props.testId}-from`}
            />
          </label>
          <label>
            au{' '}
            <input
              type="date"
              value={to}
              min={from || undefined}
              onChange={(event) => setTo(event.target.value)}
              data-testid={`${props.testId}-to`}
            />
          </label>
          {!check.ok && (from || to) && <span className="field-error">{check.error}</span>}
          <button
            type="button"
            className="primary"
            disabled={!check.ok}
            onClick={() => {
              if (!check.ok) return;
              props.onApply(check.range);
              setOpen(false);
            }}
            data-testid={`${props.testId}-apply`}
          >
            Valider
          </button>
        </div>
      )}
    </div>
  );
}
