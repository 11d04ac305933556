import { createHash } from 'node:crypto';
import { requestFingerprint } from '../../api/public/idempotency';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Fingerprints are stored with idempotency records: their canonical text must never change. */
describe('requestFingerprint', () => {
  it('hashes the method, the path and the body with keys sorted by code unit at every level', () => {
    const body = { b: 1, a: [{ d: null, c: 'é', C: true }], _: { z: [], y: {} } };
    // Sorted by UTF-16 code unit: '_' (0x5f) < 'a' (0x61) < 'b'; 'C' (0x43) < 'c' < 'd'. Arrays keep their order.
    expect(requestFingerprint('POST', '/v1/x', body)).toBe(sha256('POST /v1/x\n{"_":{"y":{},"z":[]},"a":[{"C":true,"c":"é","d":null}],"b":1}'));
  });

  it('is the same whatever order the keys came in, and different for a different body', () => {
    expect(requestFingerprint('POST', '/v1/x', { a: 1, b: { c: 2, d: 3 } })).toBe(requestFingerprint('POST', '/v1/x', { b: { d: 3, c: 2 }, a: 1 }));
    expect(requestFingerprint('POST', '/v1/x', { a: 1 })).not.toBe(requestFingerprint('POST', '/v1/x', { a: 2 }));
  });

  it('takes a missing body as null', () => {
    expect(requestFingerprint('POST', '/v1/x', undefined)).toBe(sha256('POST /v1/x\nnull'));
  });
});
