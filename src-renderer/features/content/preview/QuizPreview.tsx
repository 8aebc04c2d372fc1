import { QUIZ_STEPS, nextQuizStep, percentageOf, type QuizStep } from '@shared/rules/preview';
import { CallToAction, CardHeader, FootNote, Tagline, type PreviewProps } from './parts';

const DEFAULT_VALIDATE = 'Valider';
const DEFAULT_ANSWER = 'En savoir plus';

/**
 * A quiz (§3 Quiz). Collapsed: the card of the feed with its answers. Expanded: the app's three steps — answer
 * (the choices and the validate button), results (each answer's percentage, the correct ones marked, the voters
 * count) and more (the answer button leading to the quiz link).
 */
export function QuizPreview(props: PreviewProps & { step: QuizStep; onStep: (step: QuizStep) => void }) {
  const { item, expanded } = props;
  const quiz = item.quiz;
  const questions = quiz?.questions ?? [];
  const step = expanded ? props.step : 'answer';
  return (
    <article className={`pv-card pv-quiz pv-quiz-${step}`} data-testid="pv-quiz" data-step={step}>
      <CardHeader {...props} />
      {expanded && (
        <ol className="pv-quiz-steps" aria-label="Étapes du quiz">
          {QUIZ_STEPS.map((name, index) => (
            <li key={name} className={name === step ? 'active' : ''}>
              {index + 1}
            </li>
          ))}
        </ol>
      )}
      {item.title ? (
        <h3 className="pv-title" data-testid="pv-title">
          {item.title}
        </h3>
      ) : null}
      {step !== 'more' && <Tagline item={item} />}
      {step === 'answer' && (
        <>
          <ul className="pv-quiz-answers">
            {questions.map((question) => (
              <li key={question.id} className="pv-quiz-answer">
                <span className={`pv-quiz-check ${quiz?.allowMultipleAnswers ? 'multiple' : ''}`} aria-hidden="true" />
                {question.answer}
              </li>
            ))}
          </ul>
          <button
            type="button"
            className="pv-cta pv-quiz-validate"
            disabled={!expanded}
            onClick={() => props.onStep(nextQuizStep(step))}
            data-testid="pv-quiz-validate"
          >
            {quiz?.validateButtonLabel || DEFAULT_VALIDATE}
          </button>
        </>
      )}
      {step === 'results' && (
        <>
          <ul className="pv-quiz-answers" data-testid="pv-quiz-results">
            {questions.map((question) => (
              <li key={question.id} className={`pv-quiz-result ${question.correct && !quiz?.isSurvey ? 'correct' : ''}`}>
                <span className="pv-quiz-bar" style={{ width: `${percentageOf(question.percentage)}%` }} />
                <span className="pv-quiz-result-text">{question.answer}</span>
                <span className="pv-quiz-percent">{percentageOf(question.percentage)} %</span>
              </li>
            ))}
          </ul>
          <p className="pv-quiz-voters">{(quiz?.votersCount ?? 0) + (quiz?.votersCountDefault ?? 0)} votants</p>
          <button type="button" className="pv-cta pv-quiz-more" onClick={() => props.onStep(nextQuizStep(step))} data-testid="pv-quiz-more">
            {quiz?.answerButtonLabel || DEFAULT_ANSWER}
          </button>
        </>
      )}
      {step === 'more' && (
        <div className="pv-quiz-link" data-testid="pv-quiz-link">
          {item.description ? <p className="pv-description">{item.description}</p> : null}
          <span className="pv-quiz-url">{quiz?.link || item.source}</span>
          <CallToAction item={item} kind={props.kind} />
        </div>
      )}
      <FootNote item={item} />
    </article>
  );
}
