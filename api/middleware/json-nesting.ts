const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Where the string opened at `open` ends: the next quote not escaped (not after an odd run of backslashes); -1 if none. */
const closingQuote = (text: string, open: number): number => {
  for (let quote = text.indexOf('"', open + 1); quote >= 0; quote = text.indexOf('"', quote + 1)) {
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote;
  }
  return -1;
};

/**
 * The deepest nesting of `[` and `{` outside strings, counted without recursion, stopping past
 * `limit`. Strings are skipped with `indexOf` to their closing quote: a usage batch is mostly
 * strings, and a scan of every character cost four times as much.
 */
export const nestingDepth = (text: string, limit: number): number => {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = closingQuote(text, i);
      if (i < 0) return deepest;
    } else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > deepest) deepest = depth;
      if (deepest > limit) return deepest;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
};
