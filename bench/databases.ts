import pg from 'pg';

/**
 * The URL of a benchmark database kept between runs on the PostgreSQL server of BENCH_DATABASE_URL (or
 * DATABASE_URL, else the local one), created empty when absent: generating a million rows once saves minutes on
 * every later run. `name` must be a plain identifier (it names the database).
 */
export async function keptBenchDatabase(name: string): Promise<string> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a database name: ${name}`);
  const serverUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!exists.rowCount) await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
