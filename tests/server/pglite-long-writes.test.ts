import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../../src-server/db/rows';
import { importInventory } from '../../src-server/features/inventory/import';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * PGlite has one connection: a write held in one transaction made every other call wait until it ended (a minute
 * for a large CSV list import). The long writes are now short transactions, and a call from another account is
 * answered between two of them. Each test starts a long write and reads while it runs: a read must be answered
 * while the write is visibly half done (some of its rows committed, not all), which one transaction never shows.
 * Ordering, not timings: nothing here depends on how fast the machine is.
 */

describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('long writes on PGlite let other calls through', { timeout: 180_000 }, () => {
  let server: TestServer;
  let admin: string;
  let reader: string;
  beforeAll(async () => {
    server = await startTestServer();
    admin = (await server.signIn(['ADMIN'])).accessToken.value;
    reader = (await server.signIn(['CSM'])).accessToken.value;
  });
  afterAll(() => server?.close());

  const count = async (query: ReturnType<typeof sql>) => (await rows<{ n: number }>(server.database.db, query))[0].n;

  /**
   * Calls GET /meta as another account, and reads the write's progress, until `write` settles. Answers the progress
   * seen after each /meta answered while the write was still running.
   */
  async function readWhile(write: Promise<unknown>, progress: () => Promise<number>): Promise<number[]> {
    let done = false;
    const settled = write.finally(() => (done = true));
    const seen: number[] = [];
    while (!done) {
      const meta = await server.request('GET', '/meta', { token: reader });
      expect(meta.status).toBe(200);
      const value = await progress();
      if (!done) seen.push(value);
    }
    await settled;
    return seen;
  }

  it('answers /meta during a population batch of 5,000 users, between its transactions', async () => {
    const users = Array.from({ length: 5000 }, (_, n) => ({ externalId: `long-pop-${n}`, email: `long${n}@exemple.fr`, area: 'french', roles: [] }));
    const written = count(sql`SELECT count(*)::int AS n FROM app_users WHERE external_id LIKE 'long-pop-%'`);
    expect(await written).toBe(0);
    let answer: { status: number; body: unknown } | undefined;
    const write = server.request('POST', '/population/users', { token: admin, body: users }).then((response) => (answer = response));
    const seen = await readWhile(write, () => count(sql`SELECT count(*)::int AS n FROM app_users WHERE external_id LIKE 'long-pop-%'`));
    expect(answer?.status).toBe(200);
    expect(answer?.body).toEqual({ inserted: 5000, updated: 0 });
    expect(seen.some((n) => n > 0 && n < 5000)).toBe(true);
  });

  it('answers /meta while a panel of 20,000 members is matched to app users, statement by statement', async () => {
    await server.database.db.execute(
      sql`INSERT INTO app_users (external_id, email, profession_id) SELECT 'long-lab-' || i, 'lab' || i || '@exemple.fr', 2 FROM generate_series(1, 20000) i`,
    );
    const panel = [
      'NAME;SURNAME;GENDER;CRIT_01;externalId',
      ...Array.from({ length: 20_000 }, (_, i) => `Nom${i};Prénom${i};F;fort;long-lab-${i + 1}`),
    ];
    const form = new FormData();
    form.append('projectName', 'Panel long');
    form.append('file', new Blob([panel.join('\r\n')]), 'panel.csv');
    let status = 0;
    const write = fetch(`${server.url}/alphonse/project`, { method: 'POST', headers: { authorization: `Bearer ${admin}` }, body: form }).then(
      async (response) => {
        status = response.status;
        return response.json() as Promise<{ matchedCount: number }>;
      },
    );
    const seen = await readWhile(write, () => count(sql`SELECT count(*)::int AS n FROM lab_panel_members WHERE app_user_id IS NOT NULL`));
    expect(status).toBe(201);
    expect((await write).matchedCount).toBe(20_000);
    expect(seen.some((n) => n > 0 && n < 20_000)).toBe(true);
  });

  /** A CSV list of users `from` … `to` - 1 named `prefix`n, all in `area`. */
  function list(prefix: string, from: number, to: number, area: string): string {
    const lines = ['ID;E-mail;Nom;Langue'];
    for (let n = from; n < to; n += 1) lines.push(`${prefix}${n};${prefix}${n}@liste.test;Dr ${n};${area}`);
    return `${lines.join('\r\n')}\r\n`;
  }
  const MAPPING = [
    { header: 'ID', field: 'externalId' },
    { header: 'E-mail', field: 'email' },
    { header: 'Nom', field: 'name' },
    { header: 'Langue', field: 'area' },
  ];
  async function startImport(name: string, content: string): Promise<number> {
    const form = new FormData();
    form.append('file', new Blob([content]), name);
    const uploaded = await fetch(`${server.url}/csv/upload`, { method: 'POST', headers: { authorization: `Bearer ${admin}` }, body: form });
    expect(uploaded.status).toBe(200);
    const started = await server.request('POST', '/csv/import', { token: admin, body: { filename: name, mapping: MAPPING } });
    expect(started.status).toBe(202);
    return started.body.id;
  }
  async function job(id: number) {
    return (await server.request('GET', `/csv/import/${id}`, { token: admin })).body as { state: string; inserted: number; updated: number };
  }
  async function areaSize(area: string): Promise<number> {
    const answer = await server.request('POST', '/audience/size', { token: admin, body: { area, relationships: [] } });
    expect(answer.status).toBe(200);
    return answer.body.size;
  }
  const listed = (prefix: string, area?: string) =>
    count(sql`SELECT count(*)::int AS n FROM app_users WHERE external_id LIKE ${`${prefix}%`} ${area ? sql`AND area = ${area}` : sql``}`);

  it('answers /meta during a CSV list import of 20,000 users; audience sizes switch to the list at once, never half of it', async () => {
    const before = await areaSize('english');
    const id = await startImport('longue.csv', list('lw-', 0, 20_000, 'english'));
    const sizes = new Set<number>();
    let state = 'running';
    const write = (async () => {
      while (state === 'running') state = (await job(id)).state;
    })();
    const seen = await readWhile(write, async () => {
      sizes.add(await areaSize('english'));
      return listed('lw-');
    });
    expect(state).toBe('done');
    expect(seen.some((n) => n > 0 && n < 20_000)).toBe(true);
    // The engine (sizes, push counts, decisioning) saw the list whole or not at all.
    for (const size of sizes) expect([before, before + 20_000]).toContain(size);
    expect(await areaSize('english')).toBe(before + 20_000);
  });

  it('puts every user back when a CSV list import is cancelled half merged', async () => {
    const english = await areaSize('english');
    const spanish = await areaSize('spanish');
    // The 20,000 users of the list above move to 'spanish', and 5,000 new ones come (their ids sort last).
    const id = await startImport(
      'annulee.csv',
      list('lw-', 0, 20_000, 'spanish') + list('lw-x-', 0, 5000, 'spanish').split('\r\n').slice(1).join('\r\n'),
    );
    let moved = 0;
    while (moved === 0 && (await job(id)).state === 'running') moved = await listed('lw-', 'spanish');
    expect(moved).toBeGreaterThan(0);
    expect(moved).toBeLessThan(20_000);
    expect((await server.request('POST', `/csv/import/${id}/cancel`, { token: admin })).status).toBe(200);
    let ended = await job(id);
    while (ended.state === 'running') ended = await job(id);
    expect(ended.state).toBe('cancelled');
    expect(await listed('lw-', 'spanish')).toBe(0);
    expect(await listed('lw-', 'english')).toBe(20_000);
    expect(await listed('lw-x-')).toBe(0);
    expect(await count(sql`SELECT count(*)::int AS n FROM nodes WHERE label = 'User' AND name LIKE 'lw-x-%'`)).toBe(0);
    expect(await count(sql`SELECT count(*)::int AS n FROM nodes WHERE label = 'User' AND name LIKE 'lw-%@liste.test'`)).toBe(20_000);
    expect(await count(sql`SELECT count(*)::int AS n FROM csv_import_rows`)).toBe(0);
    expect(await areaSize('english')).toBe(english);
    expect(await areaSize('spanish')).toBe(spanish);
  });

  it('lets a feed batch that changes a user of a list being merged wait for the merge: table and engine agree after both', async () => {
    // The 20,000 users of the list above (all 'english') move to 'italian'; the feed sends lw-0 (first merged) back to 'english'.
    const id = await startImport('italien.csv', list('lw-', 0, 20_000, 'italian'));
    while ((await listed('lw-0', 'italian')) === 0) expect((await job(id)).state).toBe('running');
    const fed = server.request('POST', '/population/users', {
      token: admin,
      body: [{ externalId: 'lw-0', email: 'lw-0@liste.test', area: 'english', roles: [] }],
    });
    let ended = await job(id);
    while (ended.state === 'running') ended = await job(id);
    expect(ended.state).toBe('done');
    expect((await fed).status).toBe(200);
    const inDatabase = async (area: string) => count(sql`SELECT count(*)::int AS n FROM app_users WHERE area = ${area}`);
    expect(await listed('lw-0', 'english')).toBe(1);
    for (const area of ['english', 'italian']) expect(await areaSize(area)).toBe(await inDatabase(area));
  });

  it('puts every user back when a chunk of a CSV list import fails, the failed chunk included', async () => {
    const finish = async (id: number) => {
      let ended = await job(id);
      while (ended.state === 'running') ended = await job(id);
      return ended.state;
    };
    expect(await finish(await startImport('anglais.csv', list('lf-', 0, 20_000, 'english')))).toBe('done');
    // A real failure of the database in the last chunk (lf-9999 sorts last): every user of the list stays as it was.
    await server.database.db.execute(
      sql.raw(`CREATE FUNCTION long_writes_fail() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN IF NEW.external_id = 'lf-9999' AND NEW.area = 'german' THEN RAISE EXCEPTION 'refused by the test'; END IF; RETURN NEW; END $$`),
    );
    await server.database.db.execute(
      sql`CREATE TRIGGER long_writes_fail BEFORE INSERT OR UPDATE ON app_users FOR EACH ROW EXECUTE FUNCTION long_writes_fail()`,
    );
    try {
      expect(await finish(await startImport('allemand.csv', list('lf-', 0, 20_000, 'german')))).toBe('failed');
      expect(await listed('lf-', 'english')).toBe(20_000);
      expect(await areaSize('german')).toBe(0);
    } finally {
      await server.database.db.execute(sql`DROP TRIGGER long_writes_fail ON app_users`);
      await server.database.db.execute(sql`DROP FUNCTION long_writes_fail()`);
    }
  });
  /** An inventory file of `categories` specialties (ids from 5001) × 36 months from 31/01, views offset by `shift`. */
  function inventoryFile(categories: number, shift: number): string {
    const months = Array.from({ length: 36 }, (_, i) => `${31 + Math.floor(i / 12)}/${String(1 + (i % 12)).padStart(2, '0')}`);
    const lines = [`Profession;Specialty;Nom;${months.join(';')}`];
    for (let i = 1; i <= categories; i += 1) lines.push(`;${5000 + i};Catégorie ${i};${months.map((_, m) => shift + i + m).join(';')}`);
    return lines.join('\r\n');
  }
  const inventoryTotal = () => count(sql`SELECT coalesce(sum(total_views), 0)::int AS n FROM inventory_capacity WHERE month >= '2031-01-01'`);
  const building = () => count(sql`SELECT (to_regclass('inventory_capacity_next') IS NOT NULL)::int AS n`);

  it('answers /meta while a large inventory file is switched in; readers see the old inventory or the new one, never half', async () => {
    const upload = (content: string) => {
      const form = new FormData();
      form.append('file', new Blob([content]), 'inventaire.csv');
      return fetch(`${server.url}/inventory/upload`, { method: 'PUT', headers: { authorization: `Bearer ${admin}` }, body: form });
    };
    expect((await upload(inventoryFile(3000, 0))).status).toBe(200);
    const before = await inventoryTotal();
    let status = 0;
    const write = upload(inventoryFile(3000, 1000)).then((response) => (status = response.status));
    const totals = new Set<number>();
    const seen = await readWhile(write, async () => {
      totals.add(await inventoryTotal());
      return building();
    });
    expect(status).toBe(200);
    const after = await inventoryTotal();
    expect(after).toBe(before + 1000 * 3000 * 36);
    // A call was answered while the new inventory was being built beside the old one (one transaction never lets one in).
    expect(seen).toContain(1);
    for (const total of totals) expect([before, after]).toContain(total);
    expect(await count(sql`SELECT count(*)::int AS n FROM inventory_staging`)).toBe(0);
    // The switched-in table keeps its key, its month index and its fillfactor for the next import's in-place updates.
    const indexes = await rows<{ name: string }>(
      server.database.db,
      sql`SELECT indexname AS name FROM pg_indexes WHERE tablename = 'inventory_capacity' ORDER BY 1`,
    );
    expect(indexes.map((index) => index.name)).toEqual(['inventory_capacity_label_category_id_month_pk', 'inventory_capacity_month_idx']);
    const [{ options }] = await rows<{ options: string[] }>(
      server.database.db,
      sql`SELECT reloptions AS options FROM pg_class WHERE relname = 'inventory_capacity'`,
    );
    expect(options).toContain('fillfactor=50');
  });

  it('leaves the inventory as it was when the switch of a large file fails halfway', async () => {
    const before = await inventoryTotal();
    const history = await count(sql`SELECT count(*)::int AS n FROM inventory_imports`);
    let chunks = 0;
    const failing = importInventory(server.database.db, { fileName: 'rate.csv', body: Readable.from([inventoryFile(3000, 5000)]) }, null, {
      embedded: true,
      afterChunk: async () => {
        chunks += 1;
        expect(await inventoryTotal()).toBe(before);
        if (chunks === 4) throw new Error('refused by the test');
      },
    });
    await expect(failing).rejects.toThrow('refused by the test');
    expect(await inventoryTotal()).toBe(before);
    expect(await building()).toBe(0);
    expect(await count(sql`SELECT count(*)::int AS n FROM inventory_staging`)).toBe(0);
    expect(await count(sql`SELECT count(*)::int AS n FROM inventory_imports`)).toBe(history);
  });

  it('keeps a small file switched in while a large one is being built (one switch at a time)', async () => {
    // Old cells in months the large file does not name: the build copies them, then drops the table they were in.
    const old = inventoryFile(3000, 0);
    expect(await inventoryTotal()).toBeGreaterThan(0);
    const large = old.replace(/;3(\d)\/(\d\d)/g, ';4$1/$2');
    const small = ['Profession;Specialty;Nom;31/01', ';5001;Catégorie 1;777777'].join('\r\n');
    let smallImport: Promise<unknown> | undefined;
    const largeImport = importInventory(server.database.db, { fileName: 'grand.csv', body: Readable.from([large]) }, null, {
      embedded: true,
      afterChunk: async () => {
        // Once the build has copied the old cells of category 5001 (the first in key order), a small file arrives.
        if (smallImport || !(await building())) return;
        const copied = await count(sql`SELECT count(*)::int AS n FROM inventory_capacity_next WHERE month < '2040-01-01'`);
        if (copied > 0)
          smallImport = importInventory(server.database.db, { fileName: 'petit.csv', body: Readable.from([small]) }, null, { embedded: true });
      },
    });
    await largeImport;
    expect(smallImport).toBeDefined();
    await smallImport;
    const [cell] = await rows<{ views: number }>(
      server.database.db,
      sql`SELECT total_views::int AS views FROM inventory_capacity WHERE category_id = 5001 AND month = '2031-01-01'`,
    );
    expect(cell?.views).toBe(777777);
    expect(await count(sql`SELECT count(*)::int AS n FROM inventory_capacity WHERE month >= '2041-01-01'`)).toBe(3000 * 36);
  });
});
