import { UsageIdClaims } from '../../commands/usage/usage-id-claims';

describe('UsageIdClaims', () => {
  it('answers the subscription holding a claim on an id, per organisation', () => {
    const claims = new UsageIdClaims();
    claims.claim('org_1', 'sub_1', ['a', 'b']);
    expect([claims.holder('org_1', 'a'), claims.holder('org_1', 'b'), claims.holder('org_1', 'c'), claims.holder('org_2', 'a')]).toEqual(['sub_1', 'sub_1', undefined, undefined]);
  });

  it('keeps a claim until the lookup includes its append, and one in flight whatever they include', () => {
    const claims = new UsageIdClaims();
    const committed = claims.claim('org_1', 'sub_1', ['a']);
    claims.claim('org_1', 'sub_2', ['b']);
    claims.committed(committed, 10n);
    claims.settle(9n)();
    expect(claims.holder('org_1', 'a')).toBe('sub_1');
    claims.settle(10n)();
    expect([claims.holder('org_1', 'a'), claims.holder('org_1', 'b')]).toEqual([undefined, 'sub_2']);
  });

  it('settles in the order claims were made: one in flight holds back those made after it', () => {
    const claims = new UsageIdClaims();
    const first = claims.claim('org_1', 'sub_1', ['a']);
    const second = claims.claim('org_1', 'sub_2', ['b']);
    claims.committed(second, 5n);
    claims.settle(100n)();
    expect(claims.holder('org_1', 'b')).toBe('sub_2');
    claims.committed(first, 6n);
    claims.settle(100n)();
    expect([claims.holder('org_1', 'a'), claims.holder('org_1', 'b')]).toEqual([undefined, undefined]);
  });

  it('keeps a claim an older answer still being decided from does not include, until that request is done', () => {
    const claims = new UsageIdClaims();
    const older = claims.settle(5n);
    claims.committed(claims.claim('org_1', 'sub_1', ['a']), 7n);
    const newer = claims.settle(10n);
    expect(claims.holder('org_1', 'a')).toBe('sub_1');
    newer();
    expect(claims.holder('org_1', 'a')).toBe('sub_1');
    older();
    expect(claims.holder('org_1', 'a')).toBeUndefined();
  });

  it('frees the ids of a released claim at once, leaving a later claim on the same id in place', () => {
    const claims = new UsageIdClaims();
    const refused = claims.claim('org_1', 'sub_1', ['a', 'b']);
    claims.release(refused);
    expect(claims.holder('org_1', 'a')).toBeUndefined();
    const again = claims.claim('org_1', 'sub_1', ['b']);
    claims.settle(0n)();
    expect(claims.holder('org_1', 'b')).toBe('sub_1');
    claims.release(again);
    expect(claims.holder('org_1', 'b')).toBeUndefined();
  });

  it('settles the claims of every organisation by one log position', () => {
    const claims = new UsageIdClaims();
    claims.committed(claims.claim('org_1', 'sub_1', ['a']), 3n);
    claims.committed(claims.claim('org_2', 'sub_9', ['a']), 4n);
    claims.settle(4n)();
    expect([claims.holder('org_1', 'a'), claims.holder('org_2', 'a')]).toEqual([undefined, undefined]);
  });

  it('forgets the oldest committed claims past the ids it keeps, never one in flight', () => {
    const claims = new UsageIdClaims(3);
    const inFlight = claims.claim('org_1', 'sub_1', ['a']);
    claims.committed(claims.claim('org_1', 'sub_1', ['b', 'c']), 5n);
    claims.claim('org_1', 'sub_2', ['d']);
    // Four ids held, past three: the oldest is in flight, so nothing is forgotten yet.
    expect(['a', 'b', 'd'].map((id) => claims.holder('org_1', id))).toEqual(['sub_1', 'sub_1', 'sub_2']);
    claims.committed(inFlight, 4n);
    claims.claim('org_1', 'sub_2', ['e']);
    expect(['a', 'b', 'c', 'd', 'e'].map((id) => claims.holder('org_1', id))).toEqual([undefined, undefined, undefined, 'sub_2', 'sub_2']);
  });
});
