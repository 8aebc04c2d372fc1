import { validateLabelFor } from '@shared/rules/advert-model';
import type { QuizQuestion } from '@shared/rules/advert-screens/quiz';
import type { ContentItem, ContentKind } from '../types';

/** What every editor section receives: the draft, how to change it, the item's kind and the user's roles. */
export interface SectionProps {
  draft: ContentItem;
  patch: (patch: Partial<ContentItem>) => void;
  kind: ContentKind;
  roles: readonly string[];
}

/** A new quiz, its validate label following the footnote language (§3 Quiz). */
export function emptyQuiz(footNote: string | null | undefined) {
  return {
    questions: [] as QuizQuestion[],
    allowMultipleAnswers: false,
    link: '',
    isSurvey: false,
    votersCount: 0,
    votersCountDefault: 0,
    answerButtonLabel: 'En savoir plus',
    validateButtonLabel: validateLabelFor(footNote),
    hasAnswered: false,
    answeredIds: [] as number[],
  };
}

/** A story with no screen yet, for an item whose type just became story. */
export function emptyStory() {
  return { logo: null, title: '', subtitle: '', position: null, forward: false, screens: [], isSeen: false, resetAt: null };
}
