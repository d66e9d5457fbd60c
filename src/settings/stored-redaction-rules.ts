import { RedactionRulesSchema, type RedactionRules } from '../../schemas/redaction-rules';
import { migrateStoredSettings } from './migrations';

const EMPTY: RedactionRules = { selectors: [], fieldNamePatterns: [], textPatterns: [] };

/**
 * The custom redaction rules inside the stored settings value (`chrome.storage.local` `settings`),
 * whatever its schema version; the empty rule set when there are none or they do not validate.
 */
export function redactionRulesFromStoredSettings(stored: unknown): RedactionRules {
  const migrated = migrateStoredSettings(stored);
  const parsed = RedactionRulesSchema.safeParse(migrated?.settings.redaction);
  return parsed.success ? parsed.data : EMPTY;
}
