import { mediaOf } from './preview/parts';

/**
 * A media thumbnail in the editors: an image or a video of the product's storage, or, for another site's URL the
 * CSP would refuse (a pre-filled or legacy link), a placeholder naming it.
 */
export function MediaThumb(props: { url: string; video?: boolean; className?: string; alt?: string; testId?: string }) {
  const { url, video, className = 'media-thumb', alt = '', testId } = props;
  const shown = mediaOf(url);
  if (!shown) {
    return (
      <span className={`${className} media-outside`} title={url} data-testid={testId} data-url={url}>
        {video ? 'Vidéo externe' : 'Image externe'}
      </span>
    );
  }
  return video ? (
    <video className={className} src={shown} controls preload="metadata" data-testid={testId} />
  ) : (
    <img className={className} src={shown} alt={alt} data-testid={testId} />
  );
}
