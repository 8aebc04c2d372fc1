import { expect } from 'vitest';
import type { PreviewType } from '@shared/rules/preview';
import { demoAccount, type WebApp } from './fixtures';

/**
 * Fixed adverts, one per preview type, for the preview tests (visual and functional): no media (images would be
 * loaded from outside), texts long enough to show the tagline cut, story colours with an invalid one (the default
 * #C41723 shows), a quiz with percentages.
 */
const TAGLINE =
  "Découvrez les dernières recommandations pour la prise en charge de l'hypertension artérielle chez l'adulte, avec des fiches pratiques, des cas cliniques commentés et un calculateur de risque cardiovasculaire intégré.";

const common = {
  author: 'Laboratoire Exemple',
  title: 'Nouvelles recommandations HTA 2026',
  tagline: TAGLINE,
  source: 'https://www.exemple.fr/hta',
  description: 'Fiches pratiques et cas cliniques.',
};

export const PREVIEW_FIXTURES: Record<PreviewType, Record<string, unknown>> = {
  post: { ...common, name: 'Visuel post', type: 'post' },
  video: { ...common, name: 'Visuel video', type: 'video' },
  quiz: {
    ...common,
    name: 'Visuel quiz',
    type: 'quiz',
    quiz: {
      questions: [
        { id: 1, answer: 'Moins de 130/80 mmHg', correct: true, percentage: 62 },
        { id: 2, answer: 'Moins de 140/90 mmHg', correct: false, percentage: 31 },
        { id: 3, answer: 'Moins de 150/95 mmHg', correct: false, percentage: 7 },
      ],
      link: 'https://www.exemple.fr/quiz',
      votersCount: 120,
    },
  },
  story: {
    name: 'Visuel story',
    type: 'story',
    story: {
      title: 'Exemple Santé',
      screens: [
        {
          id: 1,
          uuid: 'screen-1',
          title: 'Trois minutes pour faire le point',
          subtitle: 'Nouvelles cibles tensionnelles',
          position: 0,
          backgroundColor: '#1D3A8A',
          footerButtonText: 'SUIVANT',
          footerBgColor: 'not-a-colour',
        },
        { id: 2, uuid: 'screen-2', title: 'Les fiches pratiques', subtitle: 'À télécharger', position: 1, backgroundColor: 'nope' },
      ],
    },
  },
  search: { ...common, name: 'Visuel search', type: 'search' },
  notification: { ...common, name: 'Visuel notification', type: 'notification' },
  tool: { ...common, name: 'Visuel tool', type: 'tool', sonataId: 'calc-risk-42', tool: { sponsored: true } },
  banner: { name: 'Visuel banner', type: 'banner', bannerLink: 'https://www.exemple.fr/banniere' },
};

export async function tokenOf(app: WebApp, role: 'CSM' | 'SALES'): Promise<string> {
  const response = await fetch(`${app.apiUrl}/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: demoAccount(role).email, password: demoAccount(role).password }),
  });
  return ((await response.json()) as { accessToken: { value: string } }).accessToken.value;
}

/** Creates the fixture advert of a type through the embedded API; answers its id. */
export async function createPreviewAdvert(app: WebApp, token: string, type: PreviewType): Promise<number> {
  const response = await fetch(`${app.apiUrl}/advert/create`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ advert: PREVIEW_FIXTURES[type] }),
  });
  const body = (await response.json()) as { id: number };
  expect(response.status, JSON.stringify(body)).toBeLessThan(300);
  return body.id;
}
