import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_MESSAGES } from '@shared/messages/projects';
import { demoAccount, launchChromium, openWebApp, signIn, type WebApp } from './fixtures';
import { signOut } from './helpers';

let browser: Browser;
let app: WebApp;
let csmId: number;
let dermato: { id: number; targets: { id: number }[] };
const CARDIO_COUNT = 11;

/** Calls the embedded API as the demo CSM: eleven active "Cardio" projects and one "Dermato" with a video online. */
async function seed() {
  const { email, password } = demoAccount('CSM');
  const call = async (method: string, path: string, body?: unknown, token?: string) => {
    const response = await fetch(`${app.apiUrl}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = await response.json();
    if (!response.ok) throw new Error(`${path}: ${JSON.stringify(answer)}`);
    return answer;
  };
  const session = await call('POST', '/authenticate', { username: email, password });
  const token = session.accessToken.value as string;
  csmId = session.userId;
  const create = async (name: string, clientName: string) => {
    const project = await call('POST', '/project', { name, clientName, keyAccount: csmId, actor: 'Laboratoire', lines: 1 }, token);
    // The list shows active projects by default (spec §3); new ones are drafts.
    await call('PUT', '/project', { id: project.id, status: 'active' }, token);
    return project;
  };
  for (let n = 1; n <= CARDIO_COUNT; n += 1) await create(`Cardio ${String(n).padStart(2, '0')}`, 'Sanofa');
  dermato = await create('Dermato peau', 'Pfizor');
  await call('PUT', `/target/${dermato.targets[0].id}/properties`, { type: 'video', status: '2. en ligne', startDate: 1772323200 }, token);
}

beforeAll(async () => {
  browser = await launchChromium();
  app = await openWebApp(browser);
  await seed();
}, 120_000);
afterAll(async () => {
  await app?.close();
  await browser?.close();
});

const shown = (prefix: string) => app.page.locator(`[data-project-name^="${prefix}"]`).count();

describe('projects list (web host, Chromium)', () => {
  it('filters with chips and Clear All, searches, scrolls for more, and creates a project through the modal', async () => {
    const { page, url } = app;
    await signIn(page, url, 'CSM');
    await page.goto(`${url}/projects`);

    // Default CSM filter: the current user, as a chip. The first page holds 8; the rest comes as the bottom nears.
    await page.getByTestId(`chip-keyAccount-${csmId}`).waitFor({ timeout: 20_000 });
    await expect.poll(() => shown('Cardio'), { timeout: 20_000 }).toBe(CARDIO_COUNT);
    await page.getByTestId('projects-sentinel').scrollIntoViewIfNeeded();
    expect(await shown('Dermato')).toBe(1);

    // Sortable header: Projet ascending puts "Cardio 01" first.
    await page.getByTestId('projects-sort-name').click();
    await expect.poll(() => page.locator('[data-project-name]').first().getAttribute('data-project-name'), { timeout: 15_000 }).toBe('Cardio 01');
    await expect.poll(() => shown('Cardio'), { timeout: 15_000 }).toBe(CARDIO_COUNT);

    // A Type filter becomes a chip; Clear All removes every chip (the CSM default too).
    await page.getByTestId('projects-filter-type').selectOption({ label: 'video' });
    await page.getByTestId('chip-type-video').waitFor();
    await expect.poll(() => shown('Cardio'), { timeout: 15_000 }).toBe(0);
    expect(await shown('Dermato')).toBe(1);
    await page.getByTestId('projects-clear-all').click();
    await expect.poll(() => page.getByTestId('projects-chips').count()).toBe(0);
    await expect.poll(() => shown('Cardio'), { timeout: 15_000 }).toBe(CARDIO_COUNT);

    // Date range: "from" after "to" cannot be validated; a valid range filters on the start date.
    await page.getByTestId('projects-filter-startDate').click();
    await page.getByTestId('projects-filter-startDate-from').fill('2026-03-05');
    await page.getByTestId('projects-filter-startDate-to').fill('2026-03-01');
    expect(await page.getByTestId('projects-filter-startDate-apply').isDisabled()).toBe(true);
    await page.getByTestId('projects-filter-startDate-from').fill('2026-02-01');
    await page.getByTestId('projects-filter-startDate-apply').click();
    await page.getByTestId('chip-startDate').waitFor();
    await expect.poll(() => shown('Cardio'), { timeout: 15_000 }).toBe(0);
    expect(await shown('Dermato')).toBe(1);
    await page.getByTestId('chip-remove-startDate').click();
    await expect.poll(() => shown('Cardio'), { timeout: 15_000 }).toBe(CARDIO_COUNT);

    // Search on project and client, suggestions from 2 characters; nothing found gives the empty text.
    await page.getByTestId('projects-search').fill('Pf');
    await page.getByTestId('projects-search-suggestions').getByText('Pfizor').waitFor({ timeout: 15_000 });
    await expect.poll(() => shown('Cardio'), { timeout: 15_000 }).toBe(0);
    expect(await shown('Dermato')).toBe(1);
    await page.getByTestId('projects-search').fill('zzzz-nothing');
    await page.getByText(PROJECT_MESSAGES.noProjectFound).waitFor({ timeout: 15_000 });
    await page.getByTestId('projects-clear-all').click();
    await expect.poll(() => shown('Cardio'), { timeout: 15_000 }).toBe(CARDIO_COUNT);
    expect(await page.getByTestId(`project-link-${dermato.id}`).getAttribute('href')).toBe(`/project/edit/${dermato.id}`);

    // Create modal: missing fields are highlighted, nothing is sent; an unknown quote is reported.
    await page.getByTestId('projects-new').click();
    await page.getByTestId('create-project-submit').click();
    await expect.poll(() => page.getByTestId('create-project-name').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByTestId('create-project-lines').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByTestId('create-project-csm').inputValue()).toBe(String(csmId));
    await page.getByTestId('create-project-mode-import').check();
    expect(await page.getByTestId('create-project-submit').isDisabled()).toBe(true);
    await page.getByTestId('create-project-estimate').fill('DEV-404-NOPE');
    await page.getByTestId('create-project-name').fill('Vaccins hiver');
    await page.getByTestId('create-project-actor').selectOption('Laboratoire');
    await page.getByTestId('create-project-submit').click();
    await page.getByText(PROJECT_MESSAGES.estimateNotFound).waitFor({ timeout: 15_000 });

    // A project of 3 lines: the user lands on its edit page.
    await page.getByTestId('create-project-mode-create').check();
    await page.getByTestId('create-project-client').fill('Sanofa');
    await page.getByTestId('create-project-lines').fill('3');
    await page.getByTestId('create-project-submit').click();
    await page.waitForURL((address) => /^\/project\/edit\/\d+$/.test(address.pathname), { timeout: 20_000 });
  }, 240_000);

  it('shows SALES the list without "Nouveau projet" nor a CSM default', async () => {
    const { page, url } = app;
    await signOut(page);
    await signIn(page, url, 'SALES');
    await page.goto(`${url}/projects`);
    await expect.poll(() => shown('Cardio'), { timeout: 20_000 }).toBe(CARDIO_COUNT);
    expect(await page.getByTestId('projects-new').count()).toBe(0);
    expect(await page.getByTestId('projects-chips').count()).toBe(0);
  }, 120_000);
});
