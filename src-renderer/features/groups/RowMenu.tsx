import { useEffect, useRef, useState, type ReactNode } from 'react';

/** A row's menu (spec §2 "row menu"): a button that opens its actions below; a click outside closes it. */
export function RowMenu(props: { label: string; testId?: string; children: (close: () => void) => ReactNode }) {
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const onClick = (event: MouseEvent) => {
      if (box.current && !box.current.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onClick);
    return () => document.removeEventListener('mousedown', onClick);
  }, [open]);
  return (
    <div className="row-menu" ref={box}>
      <button
        type="button"
        className="link"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-label={props.label}
        onClick={() => setOpen(!open)}
        data-testid={props.testId}
      >
        ⋯
      </button>
      {open && (
        <div className="row-menu-items" role="menu">
          {props.children(() => setOpen(false))}
        </div>
      )}
    </div>
  );
}
