import type { Page } from '@playwright/test';
import { PROJECT_MESSAGES } from '@shared/messages/projects';
import { demoAccount, expect, signIn, test } from './fixtures';
import { lookAt, signOut } from './helpers';

/** The file's embedded API, for the helpers that put data in place. */
let apiUrl: string;
let csmId: number;
let dermato: { id: number; targets: { id: number }[] };
const CARDIO_COUNT = 11;

/** Calls the embedded API as the demo CSM: eleven active "Cardio" projects and one "Dermato" with a video online. */
async function seed() {
  const { email, password } = demoAccount('CSM');
  const call = async (method: string, path: string, body?: unknown, token?: string) => {
    const response = await fetch(`${apiUrl}${path}`, {
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
  const create = async (name: string, clientName: string, status = 'active') => {
    const project = await call('POST', '/project', { name, clientName, keyAccount: csmId, actor: 'Laboratoire', lines: 1 }, token);
    await call('PUT', '/project', { id: project.id, status }, token);
    return project;
  };
  for (let n = 1; n <= CARDIO_COUNT; n += 1) await create(`Cardio ${String(n).padStart(2, '0')}`, 'Sanofa');
  dermato = await create('Dermato peau', 'Pfizor');
  await create('Grippe 2019', 'Vaccinor', 'archived');
  await call('PUT', `/target/${dermato.targets[0].id}/properties`, { type: 'video', status: '2. en ligne', startDate: 1772323200 }, token);
}

// The tests of this file share one web host and build on one another's steps.
test.describe.configure({ mode: 'serial' });
test.use({
  appOptions: {
    prepare: async (app) => {
      apiUrl = app.apiUrl;
      await seed();
    },
  },
});

const shown = (page: Page, prefix: string) => page.locator(`[data-project-name^="${prefix}"]`);

test.describe('projects list (web host, Chromium)', () => {
  test('filters with chips and Clear All, searches, scrolls for more, and creates a project through the modal', async ({ app }) => {
    test.setTimeout(240_000);
    const { page, url } = app;
    await signIn(page, url, 'CSM');
    await page.goto(`${url}/projects`);

    // Default CSM filter: the current user, as a chip. The first page holds 8; the rest comes as the bottom nears.
    await expect(page.getByTestId(`chip-keyAccount-${csmId}`)).toBeVisible({ timeout: 20_000 });
    await expect(shown(page, 'Cardio')).toHaveCount(CARDIO_COUNT, { timeout: 20_000 });
    await page.getByTestId('projects-sentinel').scrollIntoViewIfNeeded();
    await expect(shown(page, 'Dermato')).toHaveCount(1);

    // Sortable header: Projet ascending puts "Cardio 01" first.
    await page.getByTestId('projects-sort-name').click();
    await expect(page.locator('[data-project-name]').first()).toHaveAttribute('data-project-name', 'Cardio 01', { timeout: 15_000 });
    await expect(shown(page, 'Cardio')).toHaveCount(CARDIO_COUNT, { timeout: 15_000 });

    // A Type filter becomes a chip; Clear All removes every chip (the CSM default too).
    await page.getByTestId('projects-filter-type').selectOption({ label: 'video' });
    await expect(page.getByTestId('chip-type-video')).toBeVisible();
    await expect(shown(page, 'Cardio')).toHaveCount(0, { timeout: 15_000 });
    await expect(shown(page, 'Dermato')).toHaveCount(1);
    await page.getByTestId('projects-clear-all').click();
    await expect(page.getByTestId('projects-chips')).toHaveCount(0);
    await expect(shown(page, 'Cardio')).toHaveCount(CARDIO_COUNT, { timeout: 15_000 });

    // Date range: "from" after "to" cannot be validated; a valid range filters on the start date.
    await page.getByTestId('projects-filter-startDate').click();
    await page.getByTestId('projects-filter-startDate-from').fill('2026-03-05');
    await page.getByTestId('projects-filter-startDate-to').fill('2026-03-01');
    await expect(page.getByTestId('projects-filter-startDate-apply')).toBeDisabled();
    await page.getByTestId('projects-filter-startDate-from').fill('2026-02-01');
    await page.getByTestId('projects-filter-startDate-apply').click();
    await expect(page.getByTestId('chip-startDate')).toBeVisible();
    await expect(shown(page, 'Cardio')).toHaveCount(0, { timeout: 15_000 });
    await expect(shown(page, 'Dermato')).toHaveCount(1);
    await page.getByTestId('chip-remove-startDate').click();
    await expect(shown(page, 'Cardio')).toHaveCount(CARDIO_COUNT, { timeout: 15_000 });

    // Search on project and client, suggestions from 2 characters; nothing found gives the empty text.
    await page.getByTestId('projects-search').fill('Pf');
    await expect(page.getByTestId('projects-search-suggestions').getByText('Pfizor')).toBeVisible({ timeout: 15_000 });
    await expect(shown(page, 'Cardio')).toHaveCount(0, { timeout: 15_000 });
    await expect(shown(page, 'Dermato')).toHaveCount(1);
    await page.getByTestId('projects-search').fill('zzzz-nothing');
    await expect(page.getByText(PROJECT_MESSAGES.noProjectFound)).toBeVisible({ timeout: 15_000 });
    await page.getByTestId('projects-clear-all').click();
    await expect(shown(page, 'Cardio')).toHaveCount(CARDIO_COUNT, { timeout: 15_000 });

    // A column filter: Enter filters on every value containing what is typed, as /targets does; none: 'Aucun résultat'.
    await page.getByTestId('projects-filter-clientName').fill('izo');
    await page.getByTestId('projects-filter-clientName').press('Enter');
    await expect(page.getByTestId('chip-clientName-Pfizor')).toBeVisible({ timeout: 15_000 });
    await expect(shown(page, 'Cardio')).toHaveCount(0, { timeout: 15_000 });
    await expect(shown(page, 'Dermato')).toHaveCount(1);
    await page.getByTestId('projects-clear-all').click();
    await expect(shown(page, 'Cardio')).toHaveCount(CARDIO_COUNT, { timeout: 15_000 });
    await page.getByTestId('projects-filter-clientName').fill('zzzz');
    await page.getByTestId('projects-filter-clientName').press('Enter');
    await expect(page.getByTestId('projects-filter-clientName-empty')).toHaveText(PROJECT_MESSAGES.noResult);
    await expect(page.getByTestId('projects-chips')).toHaveCount(0);
    await page.getByTestId('projects-filter-clientName').fill('');
    await expect(page.getByTestId(`project-link-${dermato.id}`)).toHaveAttribute('href', `/project/edit/${dermato.id}`);

    // Create modal: missing fields are highlighted, nothing is sent; an unknown quote is reported.
    await page.getByTestId('projects-new').click();
    await page.getByTestId('create-project-submit').click();
    await expect(page.getByTestId('create-project-name')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByTestId('create-project-lines')).toHaveAttribute('aria-invalid', 'true');
    // A negative count is refused at the field, in words.
    await page.getByTestId('create-project-lines').fill('-3');
    await expect(page.getByTestId('create-project-lines-error')).toHaveText('Nombre de lignes : nombre entier de 1 à 200 attendu');
    await page.getByTestId('create-project-lines').fill('');
    await expect(page.getByTestId('create-project-lines-error')).toHaveCount(0);
    await expect(page.getByTestId('create-project-csm')).toHaveValue(String(csmId));
    await page.getByTestId('create-project-mode-import').check();
    await expect(page.getByTestId('create-project-submit')).toBeDisabled();
    await page.getByTestId('create-project-estimate').fill('DEV-404-NOPE');
    await page.getByTestId('create-project-name').fill('Vaccins hiver');
    await page.getByTestId('create-project-actor').selectOption('Laboratoire');
    await page.getByTestId('create-project-submit').click();
    await expect(page.getByText(PROJECT_MESSAGES.estimateNotFound)).toBeVisible({ timeout: 15_000 });

    // A project of 3 lines: the user lands on its edit page.
    await page.getByTestId('create-project-mode-create').check();
    await page.getByTestId('create-project-client').fill('Sanofa');
    await page.getByTestId('create-project-lines').fill('3');
    await page.getByTestId('create-project-submit').click();
    await page.waitForURL((address) => /^\/project\/edit\/\d+$/.test(address.pathname), { timeout: 20_000 });
  });

  test('lists a new project (a draft) by default, searches it, and shows archived ones through "Statut projet"', async ({ app }) => {
    const { page, url } = app;
    // Back to the list from the project made by the modal: it is there, in the default view, with the CSM chip.
    await page.goto(`${url}/projects`);
    await expect(page.getByTestId(`chip-keyAccount-${csmId}`)).toBeVisible({ timeout: 20_000 });
    await expect(shown(page, 'Vaccins hiver')).toHaveCount(1, { timeout: 20_000 });
    await expect(shown(page, 'Grippe 2019')).toHaveCount(0);

    // The search suggests it and then lists it, rather than 'Aucun projet trouvé...'.
    await page.getByTestId('projects-search').fill('Vacc');
    await expect(page.getByTestId('projects-search-suggestions').getByText('Vaccins hiver')).toBeVisible({ timeout: 15_000 });
    await page.getByTestId('projects-search-suggestions').getByText('Vaccins hiver').click();
    await expect(shown(page, 'Vaccins hiver')).toHaveCount(1, { timeout: 15_000 });
    await expect(page.getByTestId('projects-empty')).toHaveCount(0);

    // The status filter: archived alone, then every status (each a chip).
    await page.getByTestId('projects-search').fill('');
    await page.getByTestId('projects-filter-projectStatus').selectOption({ label: 'Archivé' });
    await expect(page.getByTestId('chip-projectStatus-archived')).toHaveText(/Statut projet : Archivé/);
    await expect(shown(page, 'Grippe 2019')).toHaveCount(1, { timeout: 15_000 });
    await expect(shown(page, 'Vaccins hiver')).toHaveCount(0);
    await expect(shown(page, 'Cardio')).toHaveCount(0);
    await page.getByTestId('projects-filter-projectStatus').selectOption({ label: 'Brouillon' });
    await page.getByTestId('projects-filter-projectStatus').selectOption({ label: 'Actif' });
    await expect(shown(page, 'Vaccins hiver')).toHaveCount(1, { timeout: 15_000 });
    await expect(shown(page, 'Grippe 2019')).toHaveCount(1);
    await lookAt(page, 'projects-list-status-filter');
    // Removing the chips goes back to the default view, archived ones out.
    await page.getByTestId('chip-remove-projectStatus-archived').click();
    await expect(shown(page, 'Grippe 2019')).toHaveCount(0, { timeout: 15_000 });
    await expect(shown(page, 'Vaccins hiver')).toHaveCount(1);
    await page.getByTestId('projects-clear-all').click();
    await expect(page.getByTestId('projects-chips')).toHaveCount(0);
  });

  test('shows SALES the list without "Nouveau projet" nor a CSM default', async ({ app }) => {
    const { page, url } = app;
    await signOut(page);
    await signIn(page, url, 'SALES');
    await page.goto(`${url}/projects`);
    await expect(shown(page, 'Cardio')).toHaveCount(CARDIO_COUNT, { timeout: 20_000 });
    await expect(page.getByTestId('projects-new')).toHaveCount(0);
    await expect(page.getByTestId('projects-chips')).toHaveCount(0);
  });
});
