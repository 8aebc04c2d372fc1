import { sourceHost } from '@shared/rules/preview';
import { Logo, type PreviewProps } from './parts';

/** A sponsored search result (§3 Search data): logo, title, source host, the sponsored mark. */
export function SearchPreview(props: PreviewProps) {
  const { item } = props;
  return (
    <article className="pv-card pv-search">
      <div className="pv-search-box">🔍 Rechercher</div>
      <div className="pv-search-row">
        <Logo src={item.logo} name={item.title || item.name} size={32} />
        <span className="pv-search-text">
          <span className="pv-title" data-testid="pv-title">
            {item.title}
          </span>
          <span className="pv-search-host">{sourceHost(item.source)}</span>
        </span>
        <span className="pv-sponsored">Sponsorisé</span>
      </div>
    </article>
  );
}
