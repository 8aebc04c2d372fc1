import type { CSSProperties } from 'react';

/** A sanitised text style ('color: red; font-size: 14px;') as React's style object. */
export function styleObject(style: string | undefined): CSSProperties {
  const result: Record<string, string> = {};
  for (const declaration of (style ?? '').split(';')) {
    const colon = declaration.indexOf(':');
    if (colon < 0) continue;
    const property = declaration.slice(0, colon).trim();
    if (!['font-size', 'color', 'background-color'].includes(property)) continue;
    result[property.replace(/-([a-z])/g, (_m, letter: string) => letter.toUpperCase())] = declaration.slice(colon + 1).trim();
  }
  return result as CSSProperties;
}
