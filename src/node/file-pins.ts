import { resolve } from 'node:path';
import { McpClientError } from '../errors/mcp-client-error.js';
import { MAX_PINS, type Pin, type PinsStore, validatePin } from '../providers/pins/pins-store.js';
import { keysOf } from '../util/option-keys.js';
import { refuseUnknown } from '../util/refuse-unknown.js';
import { isObject, messageOf } from '../util/values.js';
import { inTurn } from './file-turns.js';
import { JsonFile } from './json-file.js';

/** Options of `FilePins`. */
export interface FilePinsOptions {
  /** The JSON file the pins are kept in; created (with its folder) on the first pin. */
  path: string;
}

const OPTION_KEYS = keysOf<FilePinsOptions>({ path: true });
const FORMAT = 'rxmcp-pins';
const VERSION = 1;
/** The largest pins file read or written (32 MiB): thousands of tools, each with its whole definition. */
const MAX_BYTES = 32 * 1024 * 1024;

/**
 * Pins (`PinsStore`) kept in a JSON file, so that the definitions first seen
 * outlive the process: give it to `Pins` as `store`. Several processes may
 * share one file; each looks at it at every check (a stat, and a new read
 * whenever the file changed), so a change approved in one binds the others
 * from their next listing or call.
 *
 * Kept like `FileGrants`' file: written atomically (mode 0600, renamed over
 * the old one), writers of several processes taking turns through
 * `<path>.lock`. Fails closed: a file it cannot read as a pins file (not
 * JSON, truncated, another format, an entry that is not a pin, two pins of
 * one tool, too large, unreadable), or one that others may write to or that
 * belongs to another user, makes `read` and `write` throw `McpStoreError`,
 * and `Pins` then hides every tool it could not check; it never overwrites
 * such a file. A pin whose fingerprint does not match its own definition
 * (edited by hand) hides its tool. A missing file holds no pins.
 *
 * @throws McpClientError at construction, for an unknown option or a missing path.
 * @example
 * ```ts
 * import { Pins } from 'rxmcp';
 * import { FilePins } from 'rxmcp/node';
 *
 * const pins = new Pins({ provider: registry, store: new FilePins({ path: 'pins.json' }), onDrift });
 * ```
 */
export class FilePins implements PinsStore {
  /** The file, resolved at construction. */
  readonly path: string;
  private readonly file: JsonFile;

  constructor(options: FilePinsOptions) {
    refuseUnknown(options ?? {}, OPTION_KEYS);
    if (typeof options?.path !== 'string' || options.path === '' || options.path.includes('\0')) throw new McpClientError('option path must be a file path');
    this.path = resolve(options.path);
    this.file = new JsonFile(this.path, 'FilePins', MAX_BYTES);
  }

  /**
   * The pins the file holds now for these tools.
   * @throws McpStoreError when the file cannot be read as a pins file.
   */
  async read(tools: readonly string[]): Promise<Map<string, Pin>> {
    // Every tool call checks its pin: the file is parsed again only when it changed.
    const all = await this.file.readKept('read', (document) => this.pinsIn(document, 'read'));
    const found = new Map<string, Pin>();
    for (const tool of tools) {
      const pin = all.get(tool);
      if (pin) found.set(tool, pin);
    }
    return found;
  }

  /**
   * Stores pins (see `PinsStore.write`) and resolves once the file holds them.
   * @throws McpStoreError when the file cannot be read or written (it is left as it was), or would hold more than 10,000 pins.
   */
  write(pins: readonly Pin[], options: { replace: boolean }): Promise<void> {
    let checked: Pin[];
    try {
      checked = pins.map(validatePin);
    } catch (error) {
      return Promise.reject(error);
    }
    return inTurn(this.path, () =>
      this.file.locked('write', async () => {
        const all = await this.all('write');
        for (const pin of checked) if (options.replace || !all.has(pin.tool)) all.set(pin.tool, pin);
        if (all.size > MAX_PINS) throw this.file.broken('write', `would hold more than ${MAX_PINS} pins`);
        await this.file.write('write', { format: FORMAT, version: VERSION, pins: [...all.values()] });
      }),
    );
  }

  private async all(operation: string): Promise<Map<string, Pin>> {
    return this.pinsIn(await this.file.read(operation), operation);
  }

  private pinsIn(document: unknown, operation: string): Map<string, Pin> {
    // A Map: a tool named `__proto__` is a key like any other.
    const pins = new Map<string, Pin>();
    if (document === undefined) return pins;
    if (!isObject(document) || document['format'] !== FORMAT) throw this.file.broken(operation, 'is not an rxmcp pins file');
    if (document['version'] !== VERSION) throw this.file.broken(operation, `is in pins file version ${JSON.stringify(document['version'])}, which this rxmcp does not read`);
    const entries = document['pins'];
    if (!Array.isArray(entries)) throw this.file.broken(operation, 'has no list of pins');
    entries.forEach((entry: unknown, n) => {
      let pin: Pin;
      try {
        pin = validatePin(entry);
      } catch (error) {
        throw this.file.broken(operation, `holds pins[${n}], which is not a pin (${messageOf(error).slice(0, 200)})`);
      }
      // Two pins of one tool: which one was meant cannot be known.
      if (pins.has(pin.tool)) throw this.file.broken(operation, `holds two pins of ${JSON.stringify(pin.tool.slice(0, 200))}`);
      pins.set(pin.tool, pin);
    });
    return pins;
  }
}
