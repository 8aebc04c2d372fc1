import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { PREVIEW_MESSAGES as M } from '@shared/messages/previews';
import { expect, signIn, test } from './fixtures';
import { csmApi } from './offline-helpers';

/**
 * The article editor's preview (issue 53 item 7): its scrollable stage is reachable by the keyboard and named, so
 * axe's scrollable-region-focusable rule (serious) finds nothing there.
 */

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
let articleId: number;

test.use({
  viewport: { width: 1366, height: 768 },
  appOptions: {
    fresh: true,
    prepare: async (app) => {
      const csm = await csmApi(app);
      const long = 'Un texte long pour que l’aperçu défile. '.repeat(80);
      articleId = (await csm.call('POST', '/article/create', { article: { name: 'Article long', type: 'post', title: 'Titre', tagline: long } })).id;
    },
  },
});

test('the preview stage of the article editor is focusable and named', async ({ app }) => {
  const page = app.page;
  await signIn(page, app.url, 'CSM');
  await page.goto(`/articles/edit/${articleId}`);
  const stage = page.getByRole('region', { name: M.previewStage });
  await expect(stage).toBeVisible();
  await expect(stage).toHaveAttribute('tabindex', '0');
  await stage.focus();
  await expect(stage).toBeFocused();
  // Evaluated, not a script tag: the page's CSP allows no inline script.
  await page.evaluate(readFileSync(axePath, 'utf8'));
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run: (context: unknown, options: unknown) => Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> };
      }
    ).axe;
    const result = await axe.run(document, { runOnly: { type: 'rule', values: ['scrollable-region-focusable'] } });
    return result.violations.flatMap((violation) => violation.nodes.map((node) => `${violation.id} ${node.target.join(' ')}`));
  });
  expect(violations).toEqual([]);
});
