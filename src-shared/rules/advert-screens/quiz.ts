/** Quiz questions and source (adverts-articles.md §3). */

export interface QuizQuestion {
  id: number;
  answer: string;
  correct: boolean;
  percentage: number;
}

/** A new question's id is the question count plus 1 (§3). */
export const nextQuestionId = (questions: readonly unknown[]) => questions.length + 1;

export function newQuestion(questions: readonly QuizQuestion[]): QuizQuestion {
  return { id: nextQuestionId(questions), answer: '', correct: false, percentage: 0 };
}

/** Source and quiz link are trimmed; changing the source copies it into the quiz link (§3). */
export function withSource<T extends { source?: string | null; quiz?: { link?: string | null } | null }>(item: T, source: string): T {
  const trimmed = source.trim();
  return item.quiz ? { ...item, source: trimmed, quiz: { ...item.quiz, link: trimmed } } : { ...item, source: trimmed };
}
