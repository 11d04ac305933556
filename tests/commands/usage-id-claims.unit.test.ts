import { UsageIdClaims } from '../../commands/usage/usage-id-claims';

describe('UsageIdClaims', () => {
  it('answers the subscription holding a claim on an id, per organisation', () => {
    const claims = new UsageIdClaims();
    claims.claim('org_1', 'sub_1', ['a', 'b']);
    expect([claims.holder('org_1', 'a'), claims.holder('org_1', 'b'), claims.holder('org_1', 'c'), claims.holder('org_2', 'a')]).toEqual(['sub_1', 'sub_1', undefined, undefined]);
  });

  it('keeps a claim until the read models include its append, and one in flight whatever they include', () => {
    const claims = new UsageIdClaims();
    const committed = claims.claim('org_1', 'sub_1', ['a']);
    claims.claim('org_1', 'sub_2', ['b']);
    claims.committed(committed, 10n);
    claims.settle('org_1', 9n);
    expect(claims.holder('org_1', 'a')).toBe('sub_1');
    claims.settle('org_1', 10n);
    expect([claims.holder('org_1', 'a'), claims.holder('org_1', 'b')]).toEqual([undefined, 'sub_2']);
  });

  it('settles in the order claims were made: one in flight holds back those made after it', () => {
    const claims = new UsageIdClaims();
    const first = claims.claim('org_1', 'sub_1', ['a']);
    const second = claims.claim('org_1', 'sub_2', ['b']);
    claims.committed(second, 5n);
    claims.settle('org_1', 100n);
    expect(claims.holder('org_1', 'b')).toBe('sub_2');
    claims.committed(first, 6n);
    claims.settle('org_1', 100n);
    expect([claims.holder('org_1', 'a'), claims.holder('org_1', 'b')]).toEqual([undefined, undefined]);
  });

  it('frees the ids of a released claim at once, leaving a later claim on the same id in place', () => {
    const claims = new UsageIdClaims();
    const refused = claims.claim('org_1', 'sub_1', ['a', 'b']);
    claims.release(refused);
    expect(claims.holder('org_1', 'a')).toBeUndefined();
    const again = claims.claim('org_1', 'sub_1', ['b']);
    claims.settle('org_1', 0n);
    expect(claims.holder('org_1', 'b')).toBe('sub_1');
    claims.release(again);
    expect(claims.holder('org_1', 'b')).toBeUndefined();
  });
});
