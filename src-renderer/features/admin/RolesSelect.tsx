import { useEffect, useRef, useState } from 'react';
import type { Role } from '@shared/roles';
import { rolesLabel } from './roles-label';

/** A multi-select that shows the count of selected roles; ADMIN is disabled on one's own account (spec §6). */
export function RolesSelect(props: { value: Role[]; options: Role[]; isSelf: boolean; onChange: (roles: Role[]) => void; testId: string }) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const close = (event: MouseEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    document.addEventListener('mousedown', close);
    document.addEventListener('keydown', closeOnEscape);
    return () => {
      document.removeEventListener('mousedown', close);
      document.removeEventListener('keydown', closeOnEscape);
    };
  }, [open]);

  return (
    <div className="multi-select" ref={root}>
      <button
        type="button"
        className="multi-select-button"
        aria-haspopup="true"
        aria-expanded={open}
        aria-label={`Rôles : ${rolesLabel(props.value.length)}`}
        onClick={() => setOpen(!open)}
        data-testid={props.testId}
      >
        {rolesLabel(props.value.length)}
      </button>
      {open && (
        <ul className="multi-select-options" aria-label="Rôles">
          {props.options.map((role) => {
            const disabled = role === 'ADMIN' && props.isSelf;
            const checked = props.value.includes(role);
            return (
              <li key={role}>
                <label className={disabled ? 'disabled' : undefined}>
                  <input
                    type="checkbox"
                    checked={checked}
                    disabled={disabled}
                    data-testid={`${props.testId}-${role}`}
                    onChange={() => props.onChange(checked ? props.value.filter((r) => r !== role) : [...props.value, role])}
                  />
                  {role}
                </label>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
