import { McpClientError } from '../../errors/mcp-client-error.js';
import { isObject } from '../../util/values.js';
import { isFingerprint, type PinnedDefinition } from './tool-fingerprint.js';

/** One tool's pin: the definition it was first seen with (or last approved with) and its fingerprint. */
export interface Pin {
  /** The tool's key: its real name in the provider `Pins` wraps (a registry's prefix and the server's name). */
  tool: string;
  /** `sha256:` and the hex SHA-256 of the definition's canonical JSON. */
  fingerprint: string;
  /** The pinned definition, kept to show what changed. */
  definition: PinnedDefinition;
  /** When it was pinned (ISO 8601). */
  pinnedAt: string;
}

/**
 * Where `Pins` keeps pins: in memory (the default), in a file (`FilePins`
 * from `rxmcp/node`), or in Redis (`RedisPins` from `rxmcp/redis`). Methods
 * may answer with a value or a Promise. A store that cannot answer must
 * throw or reject (preferably with `McpStoreError`): `Pins` then hides every
 * tool it could not check and refuses their calls.
 */
export interface PinsStore {
  /** The pins held now for these tools; a tool with none is absent from the map. */
  read(tools: readonly string[]): Map<string, Pin> | Promise<Map<string, Pin>>;
  /**
   * Stores pins, all or none. With `replace: false` (a first sighting) a
   * tool that already has a pin keeps it (another process may have pinned
   * it first); with `replace: true` (an approval) the pin is replaced.
   */
  write(pins: readonly Pin[], options: { replace: boolean }): void | Promise<void>;
}

/** The most pins a store holds: new tools past it are not pinned, so stay hidden. */
export const MAX_PINS = 10_000;

/**
 * Checks a pin read from storage (untrusted: a file may be edited by hand)
 * and returns it. Its fingerprint is checked against its definition by
 * `Pins` itself, which can hash.
 * @throws McpClientError naming what is wrong.
 */
export function validatePin(value: unknown): Pin {
  if (!isObject(value)) throw new McpClientError('a pin must be an object');
  const { tool, fingerprint, definition, pinnedAt } = value;
  if (typeof tool !== 'string' || tool === '') throw new McpClientError('a pin needs its tool name');
  if (!isFingerprint(fingerprint)) throw new McpClientError(`the pin of ${JSON.stringify(tool)} has no valid fingerprint`);
  if (!isObject(definition) || typeof definition['name'] !== 'string') throw new McpClientError(`the pin of ${JSON.stringify(tool)} has no definition`);
  if (typeof pinnedAt !== 'string') throw new McpClientError(`the pin of ${JSON.stringify(tool)} has no pinnedAt`);
  return { tool, fingerprint, definition: definition as unknown as PinnedDefinition, pinnedAt };
}

/** The default store: pins in this process's memory, gone with it. */
export class MemoryPins implements PinsStore {
  // A Map: a tool named `__proto__` is a key like any other.
  private readonly pins = new Map<string, Pin>();

  read(tools: readonly string[]): Map<string, Pin> {
    const found = new Map<string, Pin>();
    for (const tool of tools) {
      const pin = this.pins.get(tool);
      if (pin) found.set(tool, pin);
    }
    return found;
  }

  write(pins: readonly Pin[], options: { replace: boolean }): void {
    const fresh = pins.filter((pin) => !this.pins.has(pin.tool));
    if (this.pins.size + fresh.length > MAX_PINS) throw new McpClientError(`the pins would number more than ${MAX_PINS}`);
    for (const pin of pins) if (options.replace || !this.pins.has(pin.tool)) this.pins.set(pin.tool, pin);
  }
}
