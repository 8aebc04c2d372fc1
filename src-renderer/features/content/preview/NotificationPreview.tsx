import { cutTagline } from '@shared/rules/preview';
import { Logo, type PreviewProps } from './parts';

/** A push notification on the lock screen: logo, title and the tagline (cut as in the feed). */
export function NotificationPreview(props: PreviewProps) {
  const { item } = props;
  const { text } = cutTagline(item.tagline, item.showReadMore);
  return (
    <article className="pv-card pv-notification">
      <div className="pv-notification-bubble">
        <Logo src={item.logo} name={item.author || item.title} size={28} />
        <span className="pv-notification-text">
          <span className="pv-notification-app">APPLICATION · maintenant</span>
          <strong className="pv-title" data-testid="pv-title">
            {item.title}
          </strong>
          {text ? (
            <span className="pv-tagline" data-testid="pv-tagline">
              {text}
            </span>
          ) : null}
        </span>
      </div>
    </article>
  );
}
