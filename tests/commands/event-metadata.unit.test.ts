import { eventMetadata } from '../../commands/plumbing/metadata';
import { realClocks } from '../../infra/clock/clocks';

describe('event metadata', () => {
  const caller = { actor: { type: 'system' as const }, requestId: null };
  const organisation = { id: 'org_1', livemode: true };
  // A wall clock that moves a millisecond at every reading, as a busy process's does between two reads.
  const ticking = () => {
    let ms = Date.parse('2026-11-23T10:00:00.000Z');
    return { now: () => new Date(ms++) };
  };

  it('records one instant as both business and recorded time on real time', () => {
    const metadata = eventMetadata(caller, organisation, realClocks(ticking()));
    expect(metadata.businessTime).toBe('2026-11-23T10:00:00.000Z');
    expect(metadata.recordedTime).toBe('2026-11-23T10:00:00.000Z');
  });

  it('records the test clock as the business time of an organisation that has one', () => {
    const clocks = realClocks(ticking());
    clocks.setTestClock('org_1', new Date('2027-01-31T12:00:00.000Z'));
    const metadata = eventMetadata(caller, organisation, clocks);
    expect(metadata.businessTime).toBe('2027-01-31T12:00:00.000Z');
    expect(metadata.recordedTime).toBe('2026-11-23T10:00:00.000Z');
  });

  it('records a sandbox’s reset generation where the command read it, and never a live organisation’s', () => {
    const clocks = realClocks(ticking());
    expect(eventMetadata(caller, { id: 'org_sbx', livemode: false, resetGeneration: 0 }, clocks).resetGeneration).toBe(0);
    expect(eventMetadata(caller, { id: 'org_sbx', livemode: false, resetGeneration: 3 }, clocks).resetGeneration).toBe(3);
    expect(eventMetadata(caller, { id: 'org_sbx', livemode: false }, clocks)).not.toHaveProperty('resetGeneration');
    expect(eventMetadata(caller, { id: 'org_1', livemode: true, resetGeneration: 0 }, clocks)).not.toHaveProperty('resetGeneration');
  });
});
