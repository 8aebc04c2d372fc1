import de from 'flag-icons/flags/4x3/de.svg?url';
import es from 'flag-icons/flags/4x3/es.svg?url';
import fr from 'flag-icons/flags/4x3/fr.svg?url';
import gb from 'flag-icons/flags/4x3/gb.svg?url';
import it from 'flag-icons/flags/4x3/it.svg?url';
import type { Area } from '@shared/rules/audiences';

/**
 * Flags as pictures (flag-icons): emoji flags are blank where no emoji font is installed and two letters on
 * Windows. Only the five areas' files are bundled.
 */
const FLAG_URLS: Record<Area, string> = { french: fr, english: gb, spanish: es, italian: it, german: de };

export function AreaFlag({ area }: { area: Area }) {
  // The flag is the cell's only content: its alternative text names the area (WCAG 1.1.1).
  return <img className="area-flag" src={FLAG_URLS[area]} alt={area} width={20} height={15} data-flag={area} />;
}
