/** A text reduced to 64 bits, as two unsigned 32-bit halves (cyrb53's mixing, both halves kept whole). */
export type Fingerprint = Readonly<{ high: number; low: number }>;

export const fingerprintOf = (text: string): Fingerprint => {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return { high: h2 >>> 0, low: h1 >>> 0 };
};
