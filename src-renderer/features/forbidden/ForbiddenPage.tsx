import { MESSAGES } from '@shared/messages';

export default function ForbiddenPage() {
  return (
    <div className="centered">
      <h1 data-testid="forbidden">{MESSAGES.accessDenied}</h1>
    </div>
  );
}
