import type { EntryReader } from './entry-reader.js';
import type { ServerEntry } from './server-config.js';

/**
 * Adds the tool lists a file gives: an allow-list and a deny-list, under
 * whichever keys the format names them. A tool the user switched off in the
 * app stays off here.
 */
export function withToolFilters<T extends ServerEntry>(entry: EntryReader, server: T, keys: { enabled?: string; disabled: string } = { disabled: 'disabledTools' }): T {
  const enabled = keys.enabled !== undefined && entry.has(keys.enabled) ? entry.strings(keys.enabled) : undefined;
  const disabled = entry.has(keys.disabled) ? entry.strings(keys.disabled) : undefined;
  return { ...server, ...(enabled ? { enabledTools: enabled } : {}), ...(disabled ? { disabledTools: disabled } : {}) };
}
