import { usageRecordedData } from '../../domain/usage/events';
import { USAGE_PERIODS, usageProjection } from '../../projections/read-models/usage';
import { projectionSpec } from '../support/projection-spec';

const spec = projectionSpec(usageProjection);
const usage = (eventId: string, quantity: string, meter = 'calls', periodStart = '2026-02-01', periodEnd = '2026-03-01') => ({
  eventId,
  meterId: `mtr_${meter}`,
  meterCode: meter,
  quantity,
  timestamp: '2026-02-10T00:00:00.000Z',
  timestampSent: false,
  periodStart,
  periodEnd,
});
const recorded = (subscriptionId: string, ...events: ReturnType<typeof usage>[]) => ({ type: 'UsageRecorded', data: usageRecordedData(subscriptionId, 'org_1', '2026-02-10T00:00:00.000Z', events) });
const period = (subscription: string, meter: string, periodStart: string, periodEnd: string, quantity: string, events: number, firstRevision: number) => ({
  id: `${subscription}:mtr_${meter}:${periodStart}`,
  subscription,
  meter: `mtr_${meter}`,
  meter_code: meter,
  period_start: periodStart,
  period_end: periodEnd,
  quantity,
  events,
  first_revision: firstRevision,
  _organisation: 'org_1',
});

describe('usage projection: given events, then documents', () => {
  it('keeps one total per subscription, meter and period, summed exactly', async () => {
    // calls in February: 12.5 + 0.0001 + 7 = 19.5001 over 3 events; 3 in March; storage 0.25 in February.
    // Each keeps the revision of the first event in it (here the given events' order).
    await spec
      .given([
        recorded('sub_1', usage('a', '12.5000'), usage('b', '0.0001'), usage('c', '0.2500', 'storage')),
        recorded('sub_1', usage('d', '7.0000'), usage('e', '3.0000', 'calls', '2026-03-01', '2026-04-01')),
        recorded('sub_2', usage('f', '1.0000')),
      ])
      .then(USAGE_PERIODS, [
        period('sub_1', 'calls', '2026-02-01', '2026-03-01', '19.5001', 3, 0),
        period('sub_1', 'calls', '2026-03-01', '2026-04-01', '3.0000', 1, 1),
        period('sub_1', 'storage', '2026-02-01', '2026-03-01', '0.2500', 1, 0),
        period('sub_2', 'calls', '2026-02-01', '2026-03-01', '1.0000', 1, 2),
      ]);
  });

  it('sums past the largest quantity one event may report (a period’s total has no such bound)', async () => {
    await spec
      .given([recorded('sub_1', usage('a', '999999999999.9999')), recorded('sub_1', usage('b', '999999999999.9999')), recorded('sub_1', usage('c', '0.0002'))])
      .then(USAGE_PERIODS, [period('sub_1', 'calls', '2026-02-01', '2026-03-01', '2000000000000.0000', 3, 0)]);
  });

  it('records on each document of a billed period its billing’s revision and invoice', async () => {
    const billed = {
      type: 'UsagePeriodBilled',
      data: {
        subscriptionId: 'sub_1',
        periodStart: '2026-02-01',
        periodEnd: '2026-03-01',
        invoiceId: 'inv_1',
        billedAt: '2026-03-02T00:00:00.000Z',
        meters: [
          { meterId: 'mtr_calls', quantity: '2.0000', events: 1 },
          // Reported nothing: no document to record it on.
          { meterId: 'mtr_storage', quantity: '0.0000', events: 0 },
        ],
      },
    };
    await spec
      .given([recorded('sub_1', usage('a', '2.0000'), usage('b', '1.0000', 'calls', '2026-03-01', '2026-04-01')), billed])
      .then(USAGE_PERIODS, [
        { ...period('sub_1', 'calls', '2026-02-01', '2026-03-01', '2.0000', 1, 0), billed_revision: 1, invoice: 'inv_1' },
        period('sub_1', 'calls', '2026-03-01', '2026-04-01', '1.0000', 1, 0),
      ]);
  });
});
