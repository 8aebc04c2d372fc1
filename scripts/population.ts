import { parseArgs } from 'node:util';
import { openDatabase } from '../src-server/db/client';
import { generatePopulation } from '../src-server/features/audiences/generator';

/**
 * `npm run population -- --users 1000000 --events 5000000 --seed 42`: a deterministic app-user population written
 * straight into the database of DATABASE_URL (or the PGlite folder BACKOFFICE_DATA_DIR), for benchmarks.
 */
const { values } = parseArgs({
  options: { users: { type: 'string', default: '1000000' }, events: { type: 'string', default: '5000000' }, seed: { type: 'string', default: '42' } },
});
const started = performance.now();
const database = await openDatabase({
  url: process.env.DATABASE_URL,
  dataDir: process.env.DATABASE_URL ? undefined : (process.env.BACKOFFICE_DATA_DIR ?? '.data/pglite'),
});
let lastLine = 0;
await generatePopulation(database.db, {
  users: Number(values.users),
  events: Number(values.events),
  seed: Number(values.seed),
  progress: (what, done, total) => {
    if (Date.now() - lastLine > 2000 || done === total) {
      lastLine = Date.now();
      console.log(
        `${what}: ${done.toLocaleString('fr-FR')} / ${total.toLocaleString('fr-FR')} (${((performance.now() - started) / 1000).toFixed(1)} s)`,
      );
    }
  },
});
await database.close();
console.log(`done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
