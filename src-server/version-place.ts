import type { z } from 'zod';

/**
 * Where a write reads the version it was based on (docs/architecture.md, "Versions and conflicts"), seen from a
 * `version` sent at `path` of its body, where it is not read: the dotted path of the nearest enclosing object of the
 * body schema that has a `version` field (`version` for the body itself, `items.2.version` for a row of a batch),
 * or null when the body reads none on that way.
 */
export function versionPlace(body: z.ZodType, path: readonly string[]): string | null {
  let schema: z.ZodType | undefined = body;
  let place: string | null = null;
  for (let depth = 0; schema; depth++) {
    schema = unwrapped(schema);
    const def = schema._zod.def as { type: string; shape?: Record<string, z.ZodType>; element?: z.ZodType };
    if (def.type === 'object' && def.shape && 'version' in def.shape) place = [...path.slice(0, depth), 'version'].join('.');
    if (depth === path.length) break;
    const segment = path[depth];
    schema = def.type === 'object' ? def.shape?.[segment] : def.type === 'array' && /^\d+$/.test(segment) ? def.element : undefined;
  }
  return place;
}

/** The schema under optional, nullable, default, readonly and the input side of a pipe. */
function unwrapped(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (;;) {
    const def = current._zod.def as { type: string; innerType?: z.ZodType; in?: z.ZodType };
    if (def.innerType && ['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional'].includes(def.type)) {
      current = def.innerType;
    } else if (def.type === 'pipe' && def.in) current = def.in;
    else return current;
  }
}
