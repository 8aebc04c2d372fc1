/**
 * The page of the `table` bench section: the app's shared table (ui/DataTable) with the app's styles, showing
 * `?rows=N` loaded rows of list-like columns. `?plain=1` renders every row instead (the table before
 * virtualisation), as the baseline the section prints beside it.
 */
import { useLayoutEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { DataTable, type Column } from '../../src-renderer/ui/DataTable';
import '../../src-renderer/styles.css';

interface BenchRow {
  id: number;
  name: string;
  type: string;
  status: string;
  author: string;
  updatedAt: string;
}

const TYPES = ['post', 'video', 'quiz', 'survey', 'event'];
const STATUSES = ['Brouillon', 'Publiée', 'Archivée'];

const params = new URLSearchParams(window.location.search);
const count = Number(params.get('rows') ?? 10_000);
const rows: BenchRow[] = Array.from({ length: count }, (_, index) => ({
  id: index + 1,
  name: `Campagne ${index + 1} — Cardiologie et médecine générale`,
  type: TYPES[index % TYPES.length]!,
  status: STATUSES[index % STATUSES.length]!,
  author: `Laboratoire ${(index % 37) + 1}`,
  updatedAt: new Date(Date.UTC(2026, 0, 1) + index * 3_600_000).toISOString().slice(0, 16).replace('T', ' '),
}));

const columns: Column<BenchRow>[] = [
  { id: 'select', header: '', cell: (row) => <input type="checkbox" aria-label={`Sélectionner ${row.id}`} /> },
  { id: 'id', header: 'ID', cell: (row) => row.id },
  { id: 'name', header: 'Nom', cell: (row) => <button className="link">{row.name}</button> },
  { id: 'type', header: 'Type', cell: (row) => row.type },
  { id: 'status', header: 'Statut', cell: (row) => <span className="badge">{row.status}</span> },
  { id: 'author', header: 'Auteur', cell: (row) => row.author },
  { id: 'updatedAt', header: 'Modifiée', cell: (row) => row.updatedAt, className: 'cell-nowrap' },
];

/** Every row in the DOM: the shared table as it was before virtualisation. */
function PlainTable() {
  return (
    <table className="table" data-testid="bench-table">
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column.id}>{column.header}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.id} data-testid={`row-${row.id}`}>
            {columns.map((column) => (
              <td key={column.id} className={column.className}>
                {column.cell(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const started = performance.now();

/** Mount to the rows in the DOM and laid out: what opening the list costs (read by the section). */
function RenderedMark() {
  useLayoutEffect(() => {
    void document.body.offsetHeight;
    Object.assign(window, { benchRenderMs: performance.now() - started });
  }, []);
  return null;
}

createRoot(document.getElementById('root')!).render(
  <main className="content">
    <h1>Bench</h1>
    {params.get('plain') ? (
      <PlainTable />
    ) : (
      <DataTable
        testId="bench-table"
        columns={columns}
        rows={rows}
        rowKey={(row) => row.id}
        rowAttributes={(row) => ({ 'data-testid': `row-${row.id}` })}
        hasMore={false}
        loading={false}
      />
    )}
    <RenderedMark />
  </main>,
);
