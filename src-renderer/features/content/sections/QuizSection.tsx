import { newQuestion, type QuizQuestion } from '@shared/rules/advert-screens/quiz';
import { contentAdminFieldWriters } from '@shared/access-rules';
import { isAllowed } from '@shared/roles';
import { Checkbox, NumberInput, Section, TextInput } from '../fields';
import { emptyQuiz, type SectionProps } from './section-props';

/** Quiz (§2.2 'Quizz', quiz only): questions numbered count + 1; ADMIN alone sees the starting voters count. */
export function QuizSection({ draft, patch, roles }: SectionProps) {
  const quiz = draft.quiz ?? emptyQuiz(draft.footNote);
  const setQuiz = (change: Partial<typeof quiz>) => patch({ quiz: { ...quiz, ...change } });
  const questions = quiz.questions as QuizQuestion[];
  const setQuestion = (id: number, change: Partial<QuizQuestion>) =>
    setQuiz({ questions: questions.map((question) => (question.id === id ? { ...question, ...change } : question)) });
  return (
    <Section id="quiz" title="Quizz">
      <ol className="quiz-questions" data-testid="quiz-questions">
        {questions.map((question) => (
          <li key={question.id} data-testid={`quiz-question-${question.id}`}>
            <input
              value={question.answer}
              placeholder={`Réponse ${question.id}`}
              onChange={(event) => setQuestion(question.id, { answer: event.target.value })}
              data-testid={`quiz-answer-${question.id}`}
            />
            <label className="checkbox">
              <input
                type="checkbox"
                checked={question.correct}
                onChange={(event) => setQuestion(question.id, { correct: event.target.checked })}
                data-testid={`quiz-correct-${question.id}`}
              />
              Bonne réponse
            </label>
            <span className="muted">{question.percentage} %</span>
            <button
              type="button"
              className="link danger"
              onClick={() => setQuiz({ questions: questions.filter((entry) => entry.id !== question.id) })}
              data-testid={`quiz-remove-${question.id}`}
            >
              Retirer
            </button>
          </li>
        ))}
      </ol>
      <button
        type="button"
        className="secondary"
        onClick={() => setQuiz({ questions: [...questions, newQuestion(questions)] })}
        data-testid="quiz-add"
      >
        Ajouter une réponse
      </button>
      <div className="grid-2">
        <Checkbox
          field="quiz.allowMultipleAnswers"
          label="Plusieurs réponses possibles"
          checked={quiz.allowMultipleAnswers}
          onChange={(allowMultipleAnswers) => setQuiz({ allowMultipleAnswers })}
        />
        <Checkbox
          field="quiz.isSurvey"
          label="Sondage (pas de bonne réponse)"
          checked={quiz.isSurvey}
          onChange={(isSurvey) => setQuiz({ isSurvey })}
        />
        <TextInput field="quiz.link" label="Lien du quiz" value={quiz.link} onChange={(link) => setQuiz({ link: link.trim() })} />
        <TextInput
          field="quiz.answerButtonLabel"
          label="Libellé après réponse"
          value={quiz.answerButtonLabel}
          onChange={(answerButtonLabel) => setQuiz({ answerButtonLabel })}
        />
        <TextInput
          field="quiz.validateButtonLabel"
          label="Libellé du bouton valider"
          value={quiz.validateButtonLabel}
          onChange={(validateButtonLabel) => setQuiz({ validateButtonLabel })}
        />
        {isAllowed(contentAdminFieldWriters, roles) && (
          <NumberInput
            field="quiz.votersCountDefault"
            label="Nombre de votants de départ"
            value={quiz.votersCountDefault}
            min={0}
            onChange={(votersCountDefault) => setQuiz({ votersCountDefault: votersCountDefault ?? 0 })}
          />
        )}
      </div>
    </Section>
  );
}
