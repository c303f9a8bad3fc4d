import { keepSafeIcons } from '../protocol/icons.js';
import type { Tool } from '../protocol/types.js';
import { canonicalJson } from '../util/canonical-json.js';
import { messageOf } from '../util/values.js';
import { type CatalogueStore, checkStoredCatalogue, DEFAULT_CATALOGUE_MAX_AGE_MS } from './catalogue-store.js';

/** How far in the future a stored time may lie (clocks of two machines sharing a file differ a little). */
const CLOCK_SKEW_MS = 5 * 60 * 1000;

/**
 * One server's entry in a catalogue, as its `ConfigServer` uses it: read
 * once to decide whether the stored tools may stand in for the server, and
 * written with what the server lists once it runs. Writes go one after
 * another, off the path of the read or call that caused them; `flush()`
 * waits for them.
 */
export class StoredTools {
  private readonly maxAgeMs: number;
  // What this process last stored (or found stored), to skip writing the same list again.
  private written = '';
  private writtenAt = 0;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly server: string,
    private readonly store: CatalogueStore,
    private readonly fingerprint: () => Promise<string>,
    private readonly warn: (message: string) => void,
  ) {
    const age = store.maxAgeMs;
    this.maxAgeMs = typeof age === 'number' && age >= 0 ? age : DEFAULT_CATALOGUE_MAX_AGE_MS;
  }

  /**
   * The stored tools, when they may stand in for the server: an entry that
   * passes the checks, made for this config entry, within `maxAgeMs`.
   * `undefined` when the server must start (with a warning when the entry
   * or the store is broken, rather than merely absent, old or outdated).
   */
  async load(): Promise<Tool[] | undefined> {
    let found: unknown;
    try {
      found = await this.store.get(this.server);
    } catch (error) {
      this.warn(`the catalogue cannot be read, so the server starts: ${messageOf(error)}`);
      return undefined;
    }
    if (found === undefined) return undefined;
    const entry = checkStoredCatalogue(found);
    if (typeof entry === 'string') {
      this.warn(`its entry in the catalogue is not used, so the server starts: ${entry}`);
      return undefined;
    }
    if (entry.fingerprint !== (await this.fingerprint())) return undefined;
    const age = Date.now() - entry.savedAt;
    if (age > this.maxAgeMs || age < -CLOCK_SKEW_MS) return undefined;
    // Icons are held to the rule a live list is held to.
    keepSafeIcons(entry.tools, () => 'a stored tool');
    this.written = canonicalJson(entry.tools);
    this.writtenAt = entry.savedAt;
    return entry.tools;
  }

  /**
   * Stores what the server lists now, unless it is what was stored last
   * and that is still young. `list` runs in turn with the writes; a failure
   * of either is a warning, never the caller's failure.
   */
  save(list: () => Promise<readonly Tool[]>): void {
    this.writing = this.writing
      .then(async () => {
        const tools = await list();
        const text = canonicalJson(tools);
        const now = Date.now();
        if (text === this.written && now - this.writtenAt < this.maxAgeMs / 2) return;
        await this.store.set(this.server, { fingerprint: await this.fingerprint(), savedAt: now, tools: JSON.parse(JSON.stringify(tools)) as Tool[] });
        this.written = text;
        this.writtenAt = now;
      })
      .catch((error: unknown) => this.warn(`its tools could not be stored in the catalogue: ${messageOf(error)}`));
  }

  /** Resolves once every write asked for so far has ended. */
  flush(): Promise<void> {
    return this.writing;
  }
}
