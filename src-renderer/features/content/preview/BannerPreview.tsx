import { sourceHost } from '@shared/rules/preview';
import { Picture, firstImage, type PreviewProps } from './parts';

/** A banner: its image across the card, with where it leads (banner link). */
export function BannerPreview(props: PreviewProps) {
  const { item } = props;
  return (
    <article className="pv-card pv-banner">
      <Picture src={firstImage(item)} className="pv-banner-image" label="Bannière" />
      <span className="pv-banner-link">{sourceHost(item.bannerLink) || item.bannerLink || ''}</span>
    </article>
  );
}
