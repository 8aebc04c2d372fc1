import { Search } from 'lucide-react';
import { sourceHost } from '@shared/rules/preview';
import { Logo, type PreviewProps } from './parts';

/** A sponsored search result (§3 Search data): logo, title, source host, the sponsored mark. */
export function SearchPreview(props: PreviewProps) {
  const { item } = props;
  return (
    <article className="pv-card pv-search">
      {/* An SVG glyph: the 🔍 emoji needs a colour-emoji font the desktop may lack, and draws as a blank box then. */}
      <div className="pv-search-box" data-testid="pv-search-box">
        <Search size={14} aria-hidden="true" data-testid="pv-search-icon" />
        Rechercher
      </div>
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
