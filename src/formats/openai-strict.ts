import { toRootObject } from './schemas/root-object.js';
import { toStrictSchema } from './schemas/strict-schema.js';

/** How the OpenAI formats declare tools. */
export interface OpenAIToolsOptions {
  /**
   * Declare each tool in strict mode (`strict: true`), its schema rewritten
   * as strict mode demands: every property required, the optional ones
   * nullable, `additionalProperties: false` on every object, refused keywords
   * folded into descriptions. A tool whose schema cannot be made strict (an
   * object whose keys are data, a `$ref` to the network…) is declared with
   * `strict: false` and its schema as the server wrote it. The nulls a model
   * sends for the optional members are dropped before the server sees the
   * call. Default `false`: every schema as the server wrote it, but for
   * what OpenAI refuses at the root (an object schema at the root, no union there, every array with `items`).
   */
  strict?: boolean;
}

/**
 * The parameters and `strict` flag one tool is declared with: strict or
 * not, an object schema at the root with no union there and every array
 * with `items` (see `toRootObject`), the server's own object when it fits.
 */
export function openAIParameters(parameters: Record<string, unknown>, options: OpenAIToolsOptions): { parameters: Record<string, unknown>; strict: boolean } {
  const fitted = toRootObject(parameters);
  const strict = options.strict === true ? toStrictSchema(fitted) : undefined;
  return strict ? { parameters: strict, strict: true } : { parameters: fitted, strict: false };
}
