import type { RedactionRules } from '../../schemas/settings';

/** Custom redaction rules, compiled: the content script applies all of them, the service worker its text patterns. */
export interface CompiledRedactionRules {
  /** The valid selectors joined into one selector list, or null. */
  selector: string | null;
  fieldPatterns: readonly RegExp[];
  textPatterns: readonly RegExp[];
}

export const NO_CUSTOM_RULES: CompiledRedactionRules = { selector: null, fieldPatterns: [], textPatterns: [] };

/**
 * Compiles the rules; invalid selectors or patterns are left out and reported (the settings schema
 * checks patterns, but a selector's validity is only known to a DOM). `isValidSelector` tries one.
 */
export function compileRedactionRules(
  rules: RedactionRules,
  isValidSelector: (selector: string) => boolean,
): { rules: CompiledRedactionRules; problems: string[] } {
  const problems: string[] = [];
  const selectors = rules.selectors.filter((s) => isValidSelector(s) || (problems.push(`invalid selector: ${s}`), false));
  const compile = (flags: string) => (source: string) => {
    try {
      return [new RegExp(source, flags)];
    } catch {
      problems.push(`invalid pattern: ${source}`);
      return [];
    }
  };
  return {
    rules: {
      selector: selectors.length ? selectors.join(', ') : null,
      fieldPatterns: rules.fieldNamePatterns.flatMap(compile('iu')),
      textPatterns: rules.textPatterns.flatMap(compile('gu')),
    },
    problems,
  };
}

/** A selector check for a document: `querySelector` throws on a selector it cannot parse. */
export function selectorValidator(doc: Pick<Document, 'createDocumentFragment'>): (selector: string) => boolean {
  const probe = doc.createDocumentFragment();
  return (selector) => {
    try {
      probe.querySelector(selector);
      return true;
    } catch {
      return false;
    }
  };
}

/** Whether `el` is, or is inside, an element the custom selectors withhold. */
export function withheldBySelector(el: Element, rules: CompiledRedactionRules): boolean {
  if (!rules.selector) return false;
  try {
    return el.closest(rules.selector) !== null;
  } catch {
    return false;
  }
}
