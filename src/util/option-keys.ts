/**
 * Every key of `T`, each marked `true`: a record the compiler checks both
 * ways, so an option added to an interface but not to its list (or listed
 * but gone from the interface) fails to compile instead of being refused at
 * run time as unknown.
 */
export type KeyRecord<T> = { readonly [K in keyof T]-?: true };

/**
 * The keys of an options interface as the list `refuseUnknown` checks
 * against, written as a record of them all (see `KeyRecord`).
 *
 * @example keysOf<StdioTransportOptions>({ command: true, args: true, … })
 */
export function keysOf<T>(keys: KeyRecord<T>): readonly string[] {
  return Object.keys(keys);
}
