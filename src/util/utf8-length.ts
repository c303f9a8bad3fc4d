// UTF-8 lengths of text without encoding it: `Buffer.byteLength` is Node's
// alone, and a TextEncoder would copy the whole text to count it.

/**
 * How many bytes `text[start, end)` takes in UTF-8, as a TextEncoder would
 * write it: a surrogate pair is 4 bytes, and a lone surrogate 3 (it becomes
 * U+FFFD).
 */
export function utf8Length(text: string, start = 0, end = text.length): number {
  let bytes = end - start;
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) bytes += 1;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < end && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      // Two UTF-16 units, four bytes.
      bytes += 2;
      i++;
    } else bytes += 2;
  }
  return bytes;
}

/**
 * Whether `text` takes more than `limit` bytes in UTF-8. One UTF-16 unit is
 * 1 to 3 bytes, so most texts are settled by their length alone and only
 * those in between are counted.
 */
export function longerInUtf8(text: string, limit: number): boolean {
  if (text.length > limit) return true;
  return text.length * 3 > limit && utf8Length(text) > limit;
}
