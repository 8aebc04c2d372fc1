/**
 * Validation failures in French, naming the field as the forms label it (spec: forms tell the user what is
 * wrong next to the field, never a raw schema message). Used by the server's error handler and by the main
 * process when it checks a call against the contract before sending it, so both say the same thing.
 * Deliberately free of zod: the renderer imports this module.
 */
import { CONTENT_FIELD_LABELS } from './content-fields';

/** How forms label a field; a field not listed is named by its key. Features add their labels here. */
export const FIELD_LABELS: Readonly<Record<string, string>> = {
  name: 'Nom',
  nickname: 'Surnom',
  username: 'E-mail',
  email: 'E-mail',
  password: 'Mot de passe',
  confirmationToken: 'Lien de confirmation',
  roles: 'Rôles',
  term: 'Recherche',
  limit: 'Limite',
  skip: 'Décalage',
  accountId: 'Compte',
  token: 'Jeton',
  clientName: 'Client',
  /** The push notification's text (platform.md §2, 'Texte'). */
  body: 'Texte',
};

/**
 * A field's label: the longest dotted tail of its path (without indices) the editors label ('advert.quiz.link' →
 * 'quiz.link'), then its innermost key, the general labels before the editors'.
 */
function labelOf(path: readonly string[]): string | undefined {
  const named = path.filter((segment) => !/^\d+$/.test(segment));
  const innermost = named.at(-1);
  if (!innermost) return undefined;
  for (let start = 0; start < named.length - 1; start++) {
    const label = CONTENT_FIELD_LABELS[named.slice(start).join('.')];
    if (label) return label;
  }
  return FIELD_LABELS[innermost] ?? CONTENT_FIELD_LABELS[innermost];
}

export const VALIDATION_MESSAGES = {
  required: 'champ obligatoire',
  blank: 'ne peut pas être vide',
  email: 'adresse e-mail invalide',
  wholeNumber: 'nombre entier attendu',
  controlCharacters: 'caractères de contrôle interdits',
  unknownField: 'champ inconnu',
  badValue: 'valeur non autorisée',
  badType: 'valeur invalide',
  /** An instant the database and the engine cannot hold (year 0, year 9999): see instantField in the contract. */
  dateRange: 'date attendue entre 1970 et 2100',
  /** Prefix naming the row of an array body: 'Élément 3 — E-mail : adresse e-mail invalide'. */
  row: 'Élément',
} as const;

/** The parts of a zod issue this module reads (zod 4 issue shapes), so it needs no zod import. */
export interface ValidationIssue {
  code: string;
  path: readonly PropertyKey[];
  message?: string;
  origin?: string;
  maximum?: number | bigint;
  minimum?: number | bigint;
  inclusive?: boolean;
  format?: string;
  expected?: string;
  input?: unknown;
  keys?: readonly string[];
  values?: readonly unknown[];
}

export interface DescribedIssue {
  /** Dotted path of the field in its part (`name`, `roles.0`); the part itself when the whole part is wrong. */
  field: string;
  /** The field's label as the form shows it. */
  label: string;
  /** 'Nom : 200 caractères au plus'. */
  errorMsg: string;
}

function plural(count: number | bigint, one: string, many: string): string {
  return `${count} ${Number(count) > 1 ? many : one}`;
}

/** Messages we wrote ourselves in the contract (refinements, regex messages) are French already. */
function ownMessage(issue: ValidationIssue): string | null {
  const message = issue.message ?? '';
  return /^[A-ZÀ-Ýa-zà-ý0-9' ]+$/.test(message) && /[éèàùç]|attendu|interdit|vide|obligatoire|invalide/.test(message) ? message : null;
}

function reason(issue: ValidationIssue): string {
  switch (issue.code) {
    case 'too_big': {
      const max = issue.inclusive === false ? Number(issue.maximum) - 1 : (issue.maximum ?? 0);
      if (issue.origin === 'string') return `${plural(max, 'caractère', 'caractères')} au plus`;
      if (issue.origin === 'array' || issue.origin === 'set') return `${plural(max, 'élément', 'éléments')} au plus`;
      return `${max} au plus`;
    }
    case 'too_small': {
      if (ownMessage(issue)) return ownMessage(issue)!;
      const min = issue.inclusive === false ? Number(issue.minimum) + 1 : (issue.minimum ?? 0);
      if (issue.origin === 'string') return Number(min) <= 1 ? VALIDATION_MESSAGES.blank : `${plural(min, 'caractère', 'caractères')} au moins`;
      if (issue.origin === 'array' || issue.origin === 'set') return `${plural(min, 'élément', 'éléments')} au moins`;
      return `${min} au moins`;
    }
    case 'invalid_format':
      if (issue.format === 'email') return VALIDATION_MESSAGES.email;
      return ownMessage(issue) ?? VALIDATION_MESSAGES.badType;
    case 'invalid_type':
      if (issue.input === undefined) return VALIDATION_MESSAGES.required;
      if (issue.expected === 'number' || issue.expected === 'int') return VALIDATION_MESSAGES.wholeNumber;
      return VALIDATION_MESSAGES.badType;
    case 'unrecognized_keys':
      return `${VALIDATION_MESSAGES.unknownField} (${(issue.keys ?? []).join(', ')})`;
    case 'invalid_value':
    case 'invalid_enum_value':
      return VALIDATION_MESSAGES.badValue;
    default:
      return ownMessage(issue) ?? VALIDATION_MESSAGES.badType;
  }
}

/**
 * The French message of one validation issue, in the part (`body`, `query`, `params`) it was found in. A message
 * the contract gives in lower case is a reason put after the label ('Limite : nombre entier attendu'); one that
 * starts with a capital is a whole sentence of the messages files, shown as it is ('Le nom ne peut pas être vide').
 */
export function describeIssue(issue: ValidationIssue, part: string): DescribedIssue {
  const path = issue.path.map(String);
  // An array body (population ingestion): the row's index comes first, then what is wrong in it.
  if (part === 'body' && path.length > 1 && /^\d+$/.test(path[0])) {
    const inRow = describeIssue({ ...issue, path: issue.path.slice(1) }, part);
    return { field: path.join('.'), label: inRow.label, errorMsg: `${VALIDATION_MESSAGES.row} ${path[0]} — ${inRow.errorMsg}` };
  }
  const field = path.join('.') || part;
  // The label of the innermost named field: `roles.0` is labelled 'Rôles'.
  const named = [...path].reverse().find((segment) => !/^\d+$/.test(segment));
  const label = labelOf(path) ?? named ?? part;
  const own = ownMessage(issue);
  if (own && /^[A-ZÀ-Ý]/.test(own)) return { field, label, errorMsg: own };
  if (issue.code === 'unrecognized_keys') {
    const keys = (issue.keys ?? []).join(', ');
    return {
      field: path.concat(issue.keys ?? []).join('.') || part,
      label: keys || label,
      errorMsg: `${keys || label} : ${VALIDATION_MESSAGES.unknownField}`,
    };
  }
  return { field, label, errorMsg: `${label} : ${reason(issue)}` };
}
