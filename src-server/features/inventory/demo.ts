import { sql } from 'drizzle-orm';
import { PROFESSIONS, SPECIALTIES } from '@shared/reference';
import { addMonths, monthOf, type Month } from '@shared/rules/inventory';
import type { Database } from '../../db/client';
import { param, rows } from '../../db/rows';
import { firstDay, monthFigures } from './queries';

/** Names the demo projects' targets give their category (src-server/features/projects/demo.ts): the file's Nom. */
const DEMO_NAMES: Record<number, string> = { 6: 'Cardiologie', 15: 'Dermatologie' };

/**
 * The demo workspace's capacity (docs/inventory.md), once while none is stored: every specialty and profession but
 * 'Médecin' over the past 6 and next 12 months, as a realistic file would give it (larger for general medicine,
 * pharmacists and nurses, a seasonal dip in August). The categories the demo targets book are then sized on their
 * consumption: one in two on alert (15 % left), and the busiest month of the busiest category sold out.
 */
export async function seedInventoryDemo(db: Database, now: Date): Promise<boolean> {
  const [{ count }] = await rows<{ count: number }>(db, sql`SELECT count(*)::int AS count FROM inventory_capacity`);
  if (count > 0) return false;
  const current = monthOf(now.getTime());
  const from = addMonths(current, -6);
  const to = addMonths(current, 11);
  const months: Month[] = Array.from({ length: 18 }, (_, i) => addMonths(from, i));
  const categories = [
    ...SPECIALTIES.map((item) => ({
      label: 'Specialty',
      id: item.id,
      name: DEMO_NAMES[item.id] ?? item.name,
      base: item.id === 1 ? 400_000 : 12_000 + ((item.id * 7919) % 60_000),
    })),
    ...PROFESSIONS.filter((item) => item.name !== 'Médecin').map((item) => ({
      label: 'Profession',
      id: item.id,
      name: item.name,
      base: [3, 4].includes(item.id) ? 250_000 : 20_000 + ((item.id * 104_729) % 50_000),
    })),
  ];
  const values = { labels: [] as string[], ids: [] as number[], names: [] as string[], months: [] as string[], views: [] as number[] };
  for (const category of categories)
    for (const month of months) {
      values.labels.push(category.label);
      values.ids.push(category.id);
      values.names.push(category.name);
      values.months.push(firstDay(month));
      values.views.push(Math.round((category.base * (month.month === 8 ? 0.6 : 1)) / 1000) * 1000);
    }
  await db.transaction(async (tx) => {
    await tx.execute(sql`INSERT INTO inventory_capacity (label, category_id, name, month, total_views)
      SELECT * FROM unnest(${param(values.labels)}::text[], ${param(values.ids)}::int[], ${param(values.names)}::text[],
        ${param(values.months)}::date[], ${param(values.views)}::bigint[]) ON CONFLICT DO NOTHING`);
    await tx.execute(sql`INSERT INTO inventory_imports (file_name, rows, months, finished_at)
      VALUES ('inventaire-demo.csv', ${categories.length}, ${param(months.map((m) => `${String(m.year % 100).padStart(2, '0')}/${String(m.month).padStart(2, '0')}`))}::text[], now())`);
  });
  await sizeOnConsumption(db, from, to);
  return true;
}

/** Booked categories: every other one on alert, and the busiest month of the busiest one sold out. */
async function sizeOnConsumption(db: Database, from: Month, to: Month): Promise<void> {
  const figures = (await monthFigures(db, from, to, { specialty: [], profession: [] })).filter((figure) => figure.consumedViews > 0);
  const booked = [...new Set(figures.map((figure) => `${figure.label}:${figure.categoryId}`))];
  const busiest = figures.reduce<(typeof figures)[number] | null>(
    (best, figure) => (!best || figure.consumedViews > best.consumedViews ? figure : best),
    null,
  );
  for (const figure of figures) {
    const index = booked.indexOf(`${figure.label}:${figure.categoryId}`);
    let total = figure.totalViews;
    if (figure === busiest) total = Math.floor((figure.consumedViews * 0.9) / 100) * 100;
    else if (index % 2 === 0) total = Math.ceil(figure.consumedViews / 0.85 / 100) * 100;
    else total = Math.max(total, Math.ceil((figure.consumedViews * 2.5) / 1000) * 1000);
    const [year, month] = [2000 + Number(figure.date.slice(0, 2)), Number(figure.date.slice(3, 5))];
    await db.execute(sql`UPDATE inventory_capacity SET total_views = ${total}
      WHERE label = ${figure.label} AND category_id = ${figure.categoryId} AND month = ${firstDay({ year, month })}::date`);
  }
}
