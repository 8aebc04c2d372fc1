import { useAtom } from 'jotai';
import { projectsOrderAtom, type ProjectSortField } from '../list-atoms';

/** The sortable header: Projet, Client, Id; a second click turns the order round. */
export function SortHeader() {
  const [order, setOrder] = useAtom(projectsOrderAtom);
  const button = (field: ProjectSortField, label: string) => {
    const active = order.orderBy === field;
    return (
      <button
        type="button"
        className={`link sort${active ? ' active' : ''}`}
        // Buttons of a toolbar, not header cells: aria-sort is not theirs (WAI-ARIA 1.2); pressed says which one sorts.
        aria-pressed={active}
        onClick={() => setOrder({ orderBy: field, order: active && order.order === 'DESC' ? 'ASC' : active ? 'DESC' : 'ASC' })}
        data-testid={`projects-sort-${field}`}
      >
        {label}
        {active ? (order.order === 'ASC' ? ' ▲' : ' ▼') : ''}
      </button>
    );
  };
  return (
    <div className="projects-sort" role="toolbar" aria-label="Trier">
      {button('name', 'Projet')}
      {button('clientName', 'Client')}
      {button('id', 'Id')}
    </div>
  );
}
