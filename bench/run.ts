import { cpus, loadavg } from 'node:os';
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { advertsSection } from './sections/adverts';
import { apiSection } from './sections/api';
import { audienceHistorySection } from './sections/audience-history';
import { audienceScreensSection } from './sections/audience-screens';
import { audiencesSection } from './sections/audiences';
import { batSection } from './sections/bat';
import { estimatesSection } from './sections/estimates';
import { laboratorySection } from './sections/laboratory';
import { importsSection } from './sections/imports';
import { inventorySection } from './sections/inventory';
import { pgliteWritesSection } from './sections/pglite-writes';
import { previewsSection } from './sections/previews';
import { uploadsSection } from './sections/uploads';
import { urlParseSection } from './sections/url-parse';
import { projectsSection } from './sections/projects';
import { pushSection } from './sections/push';
import { startupSection } from './sections/startup';
import { targetsExportSection } from './sections/targets-export';
import { tableSection } from './sections/table';
import { webSection } from './sections/web';

/** `npm run bench [-- section ...]`: prints figures; never part of `npm test`. */
/** `alias`: a name for other sections together, run only when named (a full run already runs its parts). */
const SECTIONS: Record<string, { title: string; run: () => Promise<unknown>; alias?: true }> = {
  api: { title: 'API: sign-in latency, account-list throughput, GET /meta during a sign-in burst', run: apiSection },
  audiences: { title: 'Audience engine: sizes, membership, index build and ingestion vs SQL', run: audiencesSection },
  'audience-history': { title: 'Audience and group history: cost per write, history list', run: audienceHistorySection },
  uploads: { title: 'Uploads: a 100 MB video through main to local storage, throughput and RSS growth', run: uploadsSection },
  'audience-screens': {
    title: 'Audience screens: live size in the editor, audience list at 10,000 audiences',
    run: audienceScreensSection,
  },
  adverts: { title: 'Adverts: list pages at 100,000 adverts, decisioning for one user, CSV export of 1,000 rows', run: advertsSection },
  projects: { title: 'Projects and targets: list latency at 20,000 projects / 1,000,000 targets, paste', run: projectsSection },
  'targets-export': {
    title: 'Targets export: 1,000,000 targets to CSV on PostgreSQL and PGlite against a raw copy by the same database, server RSS growth',
    run: targetsExportSection,
  },
  estimates: {
    title: 'Estimates: the largest quote export imported on PGlite, GET /meta from another account meanwhile',
    run: estimatesSection,
  },
  imports: {
    title: 'CSV list import: 1,000,000 new users into the population on PostgreSQL, end to end, server RSS growth',
    run: importsSection,
  },
  inventory: {
    title: 'Inventory: 200 categories × 36 months and 1,000,000 targets: rows, availability, CSV import',
    run: inventorySection,
  },
  'pglite-writes': {
    title: 'PGlite: GET /meta from another account during a CSV list import, an inventory import, a panel load, a population batch',
    run: pgliteWritesSection,
  },
  'url-parse': { title: 'URL pre-fill: GET /meta from another account while a hostile page is parsed', run: urlParseSection },
  previews: { title: 'Previews: re-render after a field change in Chromium', run: previewsSection },
  web: { title: 'Web host: cold start and sign-in in Chromium', run: webSection },
  laboratory: {
    title: 'Laboratory: a 100,000-member panel loaded, tag counts over it on PostgreSQL and PGlite',
    run: laboratorySection,
  },
  tools: {
    title: 'Tools: the laboratory and imports sections together',
    run: async () => ({ laboratory: await laboratorySection(), imports: await importsSection() }),
    alias: true,
  },
  push: { title: 'Push campaigns: count p95 and the send job per batch at 1,000,000 users', run: pushSection },
  bat: { title: 'BAT proof: autosave round trip, PDF of 10 pages, open to first page drawn in Chromium', run: batSection },
  startup: {
    title: 'Start to ready: the team server at 1,000,000 users on PostgreSQL and PGlite, the embedded server first start',
    run: startupSection,
  },
  table: { title: 'Shared table: render and scroll 10,000 loaded rows in Chromium, frame time', run: tableSection },
};

async function main() {
  const wanted = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
  const names = wanted.length ? wanted : Object.keys(SECTIONS).filter((name) => !SECTIONS[name].alias);
  const unknown = names.filter((name) => !(name in SECTIONS));
  if (unknown.length) {
    console.error(`Unknown section(s): ${unknown.join(', ')}. Sections: ${Object.keys(SECTIONS).join(', ')}`);
    process.exit(2);
  }
  const results: Record<string, unknown> = {};
  const seconds: Record<string, number> = {};
  const started = performance.now();
  for (const name of names) {
    console.log(`\n=== ${SECTIONS[name].title} ===  [load ${loadavg()[0].toFixed(2)}]`);
    const sectionStarted = performance.now();
    results[name] = await SECTIONS[name].run();
    seconds[name] = (performance.now() - sectionStarted) / 1000;
  }
  const totalSeconds = (performance.now() - started) / 1000;
  console.log('\nTime per section:');
  for (const name of names) console.log(`  ${name.padEnd(18)} ${seconds[name].toFixed(0).padStart(5)} s`);
  console.log(
    `Total: ${(totalSeconds / 60).toFixed(1)} min (${names.length} sections, load ${loadavg()
      .map((load) => load.toFixed(2))
      .join(' ')})`,
  );
  const report = { date: new Date().toISOString(), node: process.version, cpus: cpus().length, totalSeconds, seconds, results };
  const folder = fileURLToPath(new URL('./results', import.meta.url));
  mkdirSync(folder, { recursive: true });
  writeFileSync(`${folder}/latest.json`, JSON.stringify(report, null, 2));
  console.log(`\nBENCH_JSON ${JSON.stringify(report)}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
