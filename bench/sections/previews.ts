import { ms, summarize, table } from '../stats';
import { startBenchWebApp } from '../web-app';

const CHANGES = 60;

/**
 * Target: preview re-render after a field change ≤ 16 ms median. In Chromium through the web host (as
 * built), on a post advert's editor: the title field gets one more character (the input event React listens
 * to), and the time runs until the preview's DOM shows it and its layout is done (read back); the wait to the next
 * animation frame is reported beside it (it includes the idle part of the frame).
 */
export async function previewsSection(): Promise<unknown> {
  const app = await startBenchWebApp('previews');
  try {
    const token = await app.token('CSM');
    const { id } = await app.api<{ id: number }>(token, 'POST', '/advert/create', {
      advert: { name: 'Bench preview', type: 'post', author: 'Laboratoire', title: 'Titre', tagline: 'x'.repeat(150) },
    });
    const page = await app.signedInPage('CSM');
    await page.goto(`${app.host.url}/adverts/edit/${id}`);
    await page.getByTestId('preview-canvas').waitFor({ timeout: 30_000 });

    const samples = await page.evaluate(async (changes) => {
      const field = document.querySelector<HTMLInputElement>('[data-testid="field-title"]')!;
      const canvas = document.querySelector<HTMLElement>('[data-testid="preview-canvas"]')!;
      const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
      const toLayout: number[] = [];
      const toFrame: number[] = [];
      for (let change = 0; change < changes; change++) {
        // One frame apart, as typing is.
        await new Promise((resolve) => requestAnimationFrame(resolve));
        const expected = `${field.value}${change % 10}`;
        const done = new Promise<void>((resolve) => {
          const observer = new MutationObserver(() => {
            if (!canvas.textContent?.includes(expected.slice(-20))) return;
            observer.disconnect();
            resolve();
          });
          observer.observe(canvas, { subtree: true, childList: true, characterData: true });
        });
        const started = performance.now();
        setValue.call(field, expected);
        field.dispatchEvent(new Event('input', { bubbles: true }));
        await done;
        canvas.getBoundingClientRect();
        void document.body.offsetHeight;
        toLayout.push(performance.now() - started);
        await new Promise((resolve) => requestAnimationFrame(resolve));
        toFrame.push(performance.now() - started);
      }
      return { toLayout, toFrame };
    }, CHANGES);
    const result = { changes: CHANGES, rerenderWithLayout: summarize(samples.toLayout), untilNextFrame: summarize(samples.toFrame) };
    table(`Preview re-render after a field change (title + 1 character), ${CHANGES} changes; target ≤ 16 ms median`, [
      ['input event → preview DOM updated and laid out', `p50 ${ms(result.rerenderWithLayout.p50)}  max ${ms(result.rerenderWithLayout.max)}`],
      ['input event → next animation frame', `p50 ${ms(result.untilNextFrame.p50)}  max ${ms(result.untilNextFrame.max)}`],
    ]);
    return result;
  } finally {
    await app.close();
  }
}
