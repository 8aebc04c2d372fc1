import { READ_MORE, callToActionColours, cutTagline, displayableMedia, initialOf } from '@shared/rules/preview';
import type { ContentItem, ContentKind } from '../types';

/** What every preview component takes: the item as the editor holds it now (unsaved changes included). */
export interface PreviewProps {
  item: ContentItem;
  kind: ContentKind;
  expanded: boolean;
}

/** A media URL the page can load (its own origin), else null: the preview shows a placeholder. */
export const mediaOf = (url: string | null | undefined) => displayableMedia(url, window.location.origin);

/** The first image of the item, as the app picks it (images[], then image). */
export const firstImage = (item: ContentItem) => item.images?.find(Boolean) ?? item.image ?? null;

/** A logo, or its initial in a circle when there is none yet. */
export function Logo(props: { src: string | null | undefined; name: string | null | undefined; size?: number }) {
  const size = props.size ?? 36;
  const src = mediaOf(props.src);
  if (src) return <img className="pv-logo" src={src} alt="" width={size} height={size} />;
  return (
    <span className="pv-logo pv-logo-empty" style={{ width: size, height: size, lineHeight: `${size}px` }} aria-hidden="true">
      {initialOf(props.name)}
    </span>
  );
}

/** The card header of the feed: logo, author, partnership line (and an article's tag). */
export function CardHeader(props: PreviewProps) {
  const { item, kind } = props;
  return (
    <header className="pv-header">
      <Logo src={item.logo} name={item.author || item.name} />
      <span className="pv-header-text">
        <span className="pv-author" data-testid="pv-author">
          {item.author}
        </span>
        {item.subtitle ? <span className="pv-subtitle">{item.subtitle}</span> : null}
      </span>
      {kind === 'article' && item.tag?.text ? (
        <span className="pv-tag" style={{ backgroundColor: item.tag.tagColor }}>
          {item.tag.text}
        </span>
      ) : null}
    </header>
  );
}

/** The tagline cut at 180 characters, with 'Lire la suite' when showReadMore is on (§5). */
export function Tagline(props: { item: ContentItem }) {
  const { text, readMore } = cutTagline(props.item.tagline, props.item.showReadMore);
  if (!text) return null;
  return (
    <p className="pv-tagline" data-testid="pv-tagline">
      {text}
      {readMore && (
        <>
          {' '}
          <span className="pv-read-more" data-testid="pv-read-more">
            {READ_MORE}
          </span>
        </>
      )}
    </p>
  );
}

/** The call-to-action button in the item's colours, else the app's (§3). */
export function CallToAction(props: { item: ContentItem; kind: ContentKind; label?: string }) {
  const colours = callToActionColours(props.kind, props.item.callToAction);
  const label = props.label ?? (props.item.callToAction?.text || props.item.buttonLabel || '');
  if (!label) return null;
  return (
    <span className="pv-cta" style={{ color: colours.textColor, backgroundColor: colours.backgroundColor }} data-testid="pv-cta">
      {label}
    </span>
  );
}

export function FootNote(props: { item: ContentItem }) {
  return props.item.footNote ? <p className="pv-footnote">{props.item.footNote}</p> : null;
}

/** An image, or a grey area of the same place when there is none yet. */
export function Picture(props: { src: string | null | undefined; className?: string; label?: string }) {
  const src = mediaOf(props.src);
  if (src) return <img className={`pv-picture ${props.className ?? ''}`} src={src} alt="" />;
  return <div className={`pv-picture pv-picture-empty ${props.className ?? ''}`}>{props.label ?? 'Image'}</div>;
}
