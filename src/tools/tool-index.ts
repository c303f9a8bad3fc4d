import { searchTerms } from './search-terms.js';

/** A tool as a tool search reads it: what a model would read to choose it. */
export interface SearchableTool {
  /** The tool's name as its provider gives it. */
  name: string;
  /** Its human-readable title, when its server declared one. */
  title?: string;
  description?: string;
  /** Its input schema: the names and descriptions of its top-level properties are searched. */
  parameters: Record<string, unknown>;
}

/** One hit of an index: the tool's position in the list the index was built from, and its score. */
export interface IndexHit {
  doc: number;
  score: number;
}

// The fields of a tool, each with its weight and its length normalisation
// (BM25F). A name says most about a tool and is short, so a word in it
// counts three times one in the description; a long field's words count
// less than a short one's (b), so that a description padded with every
// word cannot outweigh a name that says the thing once.
const FIELDS = [
  { weight: 3, b: 0.5, maxChars: 256 }, // name
  { weight: 2, b: 0.5, maxChars: 256 }, // title
  { weight: 1.5, b: 0.5, maxChars: 2048 }, // parameter names
  { weight: 1, b: 0.75, maxChars: 2000 }, // description
  { weight: 0.5, b: 0.75, maxChars: 1000 }, // parameter descriptions
] as const;
const FIELD_COUNT = FIELDS.length;

// Term-frequency saturation: the second mention of a word adds less than the
// first, and no number of mentions adds more than (K1 + 1) times the first.
const K1 = 1.2;

/** The most parameters of one tool whose names and descriptions are read. */
const MAX_PARAMETERS = 64;

/** The most characters of a query read; the rest is dropped (a query is a sentence, not a document). */
export const MAX_QUERY_CHARS = 2048;
/** The most terms of a query used. */
export const MAX_QUERY_TERMS = 64;

// Bounds on the whole index, whatever the catalogue: the characters read
// (their share per tool shrinks as tools grow, down to a floor) and the
// distinct terms kept per tool (likewise), so 100,000 tools cost about what
// a few thousand with long descriptions do.
const MAX_INDEXED_CHARS = 48_000_000;
const MIN_CHARS_PER_TOOL = 300;
const MAX_POSTINGS = 3_000_000;
const MIN_TERMS_PER_TOOL = 24;
const MAX_TERMS_PER_TOOL = 256;

/**
 * An in-memory lexical index over a tool catalogue, ranked by BM25F (BM25
 * over weighted fields: name, title, parameter names, description,
 * parameter descriptions). Built once per catalogue; read only after. Terms
 * are kept in a `Map`, so a name such as `__proto__` or `constructor` is a
 * word like any other.
 */
export class ToolIndex {
  /** How many tools the index was built from. */
  readonly size: number;
  private readonly terms = new Map<string, number>();
  // Postings of term t: docs[starts[t] .. starts[t + 1]) with their combined weights.
  private readonly starts: Int32Array;
  private readonly docs: Int32Array;
  private readonly weights: Float32Array;

  /** Indexes a catalogue; a hit's `doc` is a tool's position in `tools`. */
  constructor(tools: readonly SearchableTool[]) {
    const n = tools.length;
    this.size = n;
    const charsPerTool = Math.max(MIN_CHARS_PER_TOOL, Math.floor(MAX_INDEXED_CHARS / Math.max(n, 1)));
    const termsPerTool = Math.min(MAX_TERMS_PER_TOOL, Math.max(MIN_TERMS_PER_TOOL, Math.floor(MAX_POSTINGS / Math.max(n, 1))));
    // First pass: each tool's distinct terms with their count in each field
    // (packed: pair p is term pairTerms[p] of the tool whose pairs start at
    // toolStarts[doc], its counts pairCounts[p * FIELD_COUNT + field]), and
    // the fields' lengths.
    const lengths = new Float64Array(n * FIELD_COUNT);
    const toolStarts = new Int32Array(n + 1);
    const pairTerms = new Grown(Int32Array);
    const pairCounts = new Grown(Uint16Array);
    const slots = new Map<number, number>();
    for (let doc = 0; doc < n; doc++) {
      const first = pairTerms.length;
      slots.clear();
      let budget = charsPerTool;
      fieldTexts(tools[doc] as SearchableTool).forEach((text, field) => {
        const maxChars = Math.min(budget, (FIELDS[field] as (typeof FIELDS)[number]).maxChars);
        const words = searchTerms(text, maxChars, maxChars);
        budget -= Math.min(text.length, maxChars);
        lengths[doc * FIELD_COUNT + field] = words.length;
        for (const word of words) {
          let id = this.terms.get(word);
          let slot = id === undefined ? undefined : slots.get(id);
          if (slot === undefined) {
            // Past its share of distinct terms a tool's new words are not kept (its known ones still count).
            if (slots.size >= termsPerTool) continue;
            if (id === undefined) {
              id = this.terms.size;
              this.terms.set(word, id);
            }
            slot = pairTerms.length;
            slots.set(id, slot);
            pairTerms.push(id);
            for (let f = 0; f < FIELD_COUNT; f++) pairCounts.push(0);
          }
          const at = slot * FIELD_COUNT + field;
          pairCounts.set(at, Math.min(pairCounts.get(at) + 1, 0xffff));
        }
      });
      toolStarts[doc] = first;
    }
    toolStarts[n] = pairTerms.length;
    // The typical length of each field is its median, not its mean: a few
    // padded descriptions must not raise the bar every other tool is measured by.
    const typical = FIELDS.map((_field, f) => {
      const column = new Float64Array(n);
      for (let doc = 0; doc < n; doc++) column[doc] = lengths[doc * FIELD_COUNT + f] as number;
      column.sort();
      return Math.max(column[n >> 1] ?? 0, 1);
    });
    // Second pass: one weight per (term, tool), the fields' normalised counts summed by weight, laid out by term.
    const termCount = this.terms.size;
    this.starts = new Int32Array(termCount + 1);
    for (let p = 0; p < pairTerms.length; p++) this.starts[pairTerms.get(p) + 1] = (this.starts[pairTerms.get(p) + 1] as number) + 1;
    for (let t = 0; t < termCount; t++) this.starts[t + 1] = (this.starts[t + 1] as number) + (this.starts[t] as number);
    this.docs = new Int32Array(pairTerms.length);
    this.weights = new Float32Array(pairTerms.length);
    const fill = this.starts.slice(0, termCount);
    for (let doc = 0; doc < n; doc++) {
      for (let p = toolStarts[doc] as number; p < (toolStarts[doc + 1] as number); p++) {
        let weight = 0;
        for (let f = 0; f < FIELD_COUNT; f++) {
          const tf = pairCounts.get(p * FIELD_COUNT + f);
          if (tf === 0) continue;
          const { weight: w, b } = FIELDS[f] as (typeof FIELDS)[number];
          weight += (w * tf) / (1 - b + (b * (lengths[doc * FIELD_COUNT + f] as number)) / (typical[f] as number));
        }
        const id = pairTerms.get(p);
        const at = fill[id] as number;
        fill[id] = at + 1;
        this.docs[at] = doc;
        this.weights[at] = weight;
      }
    }
  }

  /**
   * The tools that share a term with the query, best first (ties in
   * catalogue order), at most `limit` of them; every hit when `limit` is
   * `Infinity`. Only the first {@link MAX_QUERY_CHARS} characters and
   * {@link MAX_QUERY_TERMS} terms of the query are read.
   */
  search(query: string, limit: number): IndexHit[] {
    const scores = new Float64Array(this.size);
    const touched: number[] = [];
    for (const term of new Set(searchTerms(query, MAX_QUERY_CHARS, MAX_QUERY_TERMS))) {
      const id = this.terms.get(term);
      if (id === undefined) continue;
      const from = this.starts[id] as number;
      const to = this.starts[id + 1] as number;
      const df = to - from;
      const idf = Math.log(1 + (this.size - df + 0.5) / (df + 0.5));
      for (let at = from; at < to; at++) {
        const doc = this.docs[at] as number;
        const weight = this.weights[at] as number;
        if (scores[doc] === 0) touched.push(doc);
        scores[doc] = (scores[doc] as number) + (idf * weight * (K1 + 1)) / (K1 + weight);
      }
    }
    const hits = touched.map((doc) => ({ doc, score: scores[doc] as number }));
    hits.sort((a, b) => b.score - a.score || a.doc - b.doc);
    return Number.isFinite(limit) ? hits.slice(0, Math.max(0, limit)) : hits;
  }
}

// The text of each field, in FIELDS order. Only the top level of the input
// schema is read, and only its first MAX_PARAMETERS properties: a schema is
// the server's, of any depth and size.
function fieldTexts(tool: SearchableTool): string[] {
  const names: string[] = [];
  const descriptions: string[] = [];
  const properties = (tool.parameters as { properties?: unknown } | undefined)?.properties;
  if (typeof properties === 'object' && properties !== null && !Array.isArray(properties)) {
    let seen = 0;
    for (const key in properties) {
      if (!Object.prototype.hasOwnProperty.call(properties, key)) continue;
      if (++seen > MAX_PARAMETERS) break;
      names.push(key);
      const description = (properties as Record<string, { description?: unknown } | undefined>)[key]?.description;
      if (typeof description === 'string') descriptions.push(description.slice(0, 500));
    }
  }
  return [tool.name, tool.title ?? '', names.join(' '), tool.description ?? '', descriptions.join(' ')].map((text) => (typeof text === 'string' ? text : ''));
}

type TypedArray = Int32Array | Uint16Array;

// A typed array that doubles as it fills: the index's first pass holds
// millions of small numbers, which plain arrays of them would keep at eight
// bytes or more each.
class Grown<T extends TypedArray> {
  length = 0;
  private items: T;

  constructor(private readonly make: new (size: number) => T) {
    this.items = new make(1024);
  }

  push(value: number): void {
    if (this.length === this.items.length) {
      const bigger = new this.make(this.items.length * 2);
      bigger.set(this.items);
      this.items = bigger;
    }
    this.items[this.length++] = value;
  }

  get(at: number): number {
    return this.items[at] as number;
  }

  set(at: number, value: number): void {
    this.items[at] = value;
  }
}
