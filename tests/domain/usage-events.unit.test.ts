import fc from 'fast-check';
import { decodeEvent } from '../../domain/decode-event';
import { type RecordedUsage, recordedUsages, type UsageRecordedData, usageRecordedData } from '../../domain/usage/events';

/**
 * UsageRecorded stores a request's events grouped by meter and period, each with only its id, its
 * quantity and the timestamp it was sent with (version 2); version 1 held every field of every event.
 * Both read back as the same events.
 */
const NOW = '2026-02-10T00:00:00.000Z';
const usage = fc.record({
  eventId: fc.string({ minLength: 1, maxLength: 8 }),
  meter: fc.constantFrom('calls', 'storage'),
  period: fc.constantFrom(['2026-02-01', '2026-03-01'], ['2026-03-01', '2026-04-01']),
  quantity: fc.constantFrom('1.0000', '0.0001', '12.5000'),
  timestamp: fc.constantFrom(NOW, '2026-02-09T23:59:59.999Z', '2026-03-02T10:00:00.000Z'),
  timestampSent: fc.boolean(),
}).map(({ eventId, meter, period, quantity, timestamp, timestampSent }): RecordedUsage => ({
  eventId,
  meterId: `mtr_${meter}`,
  meterCode: meter,
  quantity,
  timestamp,
  timestampSent,
  periodStart: period[0],
  periodEnd: period[1],
}));
const meterAndPeriod = (u: RecordedUsage) => `${u.meterId} ${u.periodStart}`;

describe('usage events as stored', () => {
  it('reads back every event exactly, in the order sent within each meter and period (property)', () => {
    fc.assert(
      fc.property(fc.array(usage, { maxLength: 30 }), (events) => {
        const back = recordedUsages(usageRecordedData('sub_1', 'org_1', NOW, events));
        const byMeterAndPeriod = (list: RecordedUsage[]) => [...new Set(list.map(meterAndPeriod))].sort().map((key) => list.filter((u) => meterAndPeriod(u) === key));
        expect(byMeterAndPeriod(back)).toEqual(byMeterAndPeriod(events));
      }),
      { numRuns: 500 },
    );
  });

  it('stores what a batch shares once: a timestamp only when it was sent', () => {
    const stored = usageRecordedData('sub_1', 'org_1', NOW, [
      { eventId: 'a', meterId: 'mtr_calls', meterCode: 'calls', quantity: '1.0000', timestamp: NOW, timestampSent: false, periodStart: '2026-02-01', periodEnd: '2026-03-01' },
      { eventId: 'b', meterId: 'mtr_calls', meterCode: 'calls', quantity: '2.0000', timestamp: NOW, timestampSent: true, periodStart: '2026-02-01', periodEnd: '2026-03-01' },
    ]);
    expect(stored).toEqual({
      subscriptionId: 'sub_1',
      organisationId: 'org_1',
      countedAt: NOW,
      groups: [{ meterId: 'mtr_calls', meterCode: 'calls', periodStart: '2026-02-01', periodEnd: '2026-03-01', events: [{ eventId: 'a', quantity: '1.0000' }, { eventId: 'b', quantity: '2.0000', timestamp: NOW }] }],
    });
  });

  it('upcasts version 1 (every field of every event) to the same events', () => {
    const v1Events: RecordedUsage[] = [
      { eventId: 'a', meterId: 'mtr_calls', meterCode: 'calls', quantity: '1.0000', timestamp: '2026-02-10T09:00:00.000Z', timestampSent: true, periodStart: '2026-02-01', periodEnd: '2026-03-01' },
      { eventId: 'b', meterId: 'mtr_storage', meterCode: 'storage', quantity: '0.5000', timestamp: NOW, timestampSent: false, periodStart: '2026-02-01', periodEnd: '2026-03-01' },
      { eventId: 'c', meterId: 'mtr_calls', meterCode: 'calls', quantity: '3.0000', timestamp: NOW, timestampSent: false, periodStart: '2026-02-01', periodEnd: '2026-03-01' },
    ];
    const v1 = (events: readonly unknown[]): unknown => ({ subscriptionId: 'sub_1', organisationId: 'org_1', events });
    const decoded = decodeEvent({ type: 'UsageRecorded', version: 1, data: v1(v1Events) });
    expect(decoded.version).toBe(2);
    const data = decoded.data as UsageRecordedData;
    expect(data.countedAt).toBe(NOW);
    expect(recordedUsages(data)).toEqual([v1Events[0], v1Events[2], v1Events[1]]);
    // A version 1 event whose unsent timestamp is not the batch's (none was ever written so) still reads back as it was.
    const odd = { ...v1Events[2]!, eventId: 'd', timestamp: '2026-02-11T00:00:00.000Z' };
    const oddData = decodeEvent({ type: 'UsageRecorded', version: 1, data: v1([v1Events[1], odd]) }).data as UsageRecordedData;
    expect(recordedUsages(oddData)).toEqual([v1Events[1], odd]);
  });

  it('is a fraction of version 1’s size for a batch of 100 sent without timestamps', () => {
    const events = Array.from({ length: 100 }, (_, k): RecordedUsage => ({
      eventId: `bench-1234-${k}`, meterId: 'mtr_4f8a9b2c7d1e6f3a', meterCode: 'api_calls', quantity: '1.5000', timestamp: NOW, timestampSent: false, periodStart: '2026-02-01', periodEnd: '2026-03-01',
    }));
    const v1 = JSON.stringify({ subscriptionId: 'sub_1', organisationId: 'org_1', events });
    const v2 = JSON.stringify(usageRecordedData('sub_1', 'org_1', NOW, events));
    expect(v2.length * 4).toBeLessThan(v1.length);
  });
});
