import { organisationDecider } from '../../domain/organisation/decider';
import type { OrganisationEvent } from '../../domain/organisation/events';
import { DEFAULT_SETTINGS, type OrganisationSettings } from '../../domain/organisation/settings';
import { latestCpi } from '../../domain/organisation/time';
import { deciderSpec } from '../support/decider-spec';

const spec = deciderSpec(organisationDecider);
const settings: OrganisationSettings = { ...DEFAULT_SETTINGS, name: 'Acme', timezone: 'Australia/Sydney', defaultCurrency: 'AUD' };
const created = (livemode: boolean): OrganisationEvent => ({
  type: 'OrganisationCreated',
  data: { organisationId: 'org_1', livemode, liveOrganisationId: livemode ? null : 'org_live', settings },
});
const cpi = (year: number, percent: string): OrganisationEvent => ({ type: 'CpiRecorded', data: { organisationId: 'org_1', year, percent } });

describe('CPI', () => {
  it('records a year’s percentage, normalised to 2 places', () => {
    spec([created(true)]).when({ type: 'RecordCpi', year: 2025, percent: '3.5' }).then([cpi(2025, '3.50')]);
    spec([created(true)]).when({ type: 'RecordCpi', year: 2025, percent: '-0.25' }).then([cpi(2025, '-0.25')]);
  });

  it.each([
    [1899, '3.5', 'year'],
    [2025.5, '3.5', 'year'],
    [2025, '3.555', 'percent'],
    [2025, '100.01', 'percent'],
    [2025, '-100', 'percent'],
    [2025, 'abc', 'percent'],
  ])('refuses year %p percent %p (param %s)', (year, percent, param) => {
    spec([created(true)]).when({ type: 'RecordCpi', year, percent }).thenRefuses('invalid_parameter', param);
  });

  it('renewals apply the latest year’s percentage; recording a year again replaces it', () => {
    const state = [created(true), cpi(2025, '3.50'), cpi(2024, '7.00'), cpi(2025, '2.10')].reduce(organisationDecider.evolve, organisationDecider.initialState());
    expect(state.status === 'open' && latestCpi(state)).toEqual({ year: 2025, percent: '2.10' });
  });
});

describe('test clock advance', () => {
  // 10:00 UTC on 1 Mar 2026 is 21:00 in Sydney (AEDT, UTC+11), still 1 Mar.
  const now = '2026-03-01T10:00:00.000Z';

  it('moves a sandbox’s clock to midday of the date in its timezone: 12:00 AEDT is 01:00 UTC', () => {
    spec([created(false)])
      .when({ type: 'AdvanceTestClock', now, date: '2026-03-15' })
      .then([{ type: 'TestClockAdvanced', data: { organisationId: 'org_1', frozenTime: '2026-03-15T01:00:00.000Z' } }]);
  });

  it('goes at most 366 days ahead of the clock’s date: 1 Mar 2026 + 366 days = 2 Mar 2027', () => {
    spec([created(false)])
      .when({ type: 'AdvanceTestClock', now, date: '2027-03-02' })
      .then([{ type: 'TestClockAdvanced', data: { organisationId: 'org_1', frozenTime: '2027-03-02T01:00:00.000Z' } }]);
    spec([created(false)]).when({ type: 'AdvanceTestClock', now, date: '2027-03-03' }).thenRefuses('invalid_parameter', 'date');
  });

  it('never goes back, and on the same day after midday stays where it is', () => {
    spec([created(false)]).when({ type: 'AdvanceTestClock', now, date: '2026-02-28' }).thenRefuses('invalid_parameter', 'date');
    spec([created(false)])
      .when({ type: 'AdvanceTestClock', now, date: '2026-03-01' })
      .then([{ type: 'TestClockAdvanced', data: { organisationId: 'org_1', frozenTime: now } }]);
  });

  it('is only for sandboxes, and takes a real date', () => {
    spec([created(true)]).when({ type: 'AdvanceTestClock', now, date: '2026-03-15' }).thenRefuses('invalid_parameter', 'org');
    spec([created(false)]).when({ type: 'AdvanceTestClock', now, date: '2026-02-30' }).thenRefuses('invalid_parameter', 'date');
  });

  it('a reset returns the clock to real time', () => {
    const state = [
      created(false),
      { type: 'TestClockAdvanced', data: { organisationId: 'org_1', frozenTime: '2026-03-15T01:00:00.000Z' } },
      { type: 'SandboxReset', data: { organisationId: 'org_1', generation: 1, copy: { settings: true, catalogue: true, customers: false, subscriptions: false } } },
    ].reduce((s, e) => organisationDecider.evolve(s, e as OrganisationEvent), organisationDecider.initialState());
    expect(state.status === 'open' && state.testClock).toBeNull();
  });
});
