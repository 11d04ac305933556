import fc from 'fast-check';
import { acceptedUsageEventsBody, MAX_USAGE_EVENTS, toUsageRequest, usageEventsBody } from '../../api/schemas/usage';

/** Strings near the edges the schema checks: empty, 255 and 256 long, control and format characters, plain ids. */
const edgyString = fc.oneof(
  fc.constantFrom('', 'a', 'req-1', 'x'.repeat(255), 'x'.repeat(256), 'tab\there', 'nul\u0000', 'soft\u00adhyphen', 'emoji 😀', '\ud800', 'é', ' '),
  fc.string({ maxLength: 8 }),
  fc.string({ unit: 'binary', maxLength: 8 }),
);
const anyJson = fc.oneof(fc.constant(undefined), fc.constant(null), fc.boolean(), fc.double(), fc.integer(), edgyString, fc.array(fc.integer(), { maxLength: 2 }), fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 2 }));
const fieldName = fc.constantFrom('event_id', 'subscription', 'meter_code', 'quantity', 'timestamp', 'extra', '__proto__', 'constructor', 'Event_id');

/** An event mostly of the right shape, a field at a time wrong, missing or unknown. */
const event = fc.oneof(
  { weight: 4, arbitrary: fc.record({ event_id: edgyString, subscription: fc.string({ maxLength: 4 }), meter_code: fc.string({ maxLength: 4 }), quantity: anyJson }) },
  { weight: 2, arbitrary: fc.record({ event_id: edgyString, subscription: anyJson, meter_code: anyJson, quantity: anyJson, timestamp: anyJson }, { requiredKeys: [] }) },
  { weight: 1, arbitrary: fc.dictionary(fieldName, anyJson, { maxKeys: 6 }) },
  { weight: 1, arbitrary: anyJson },
);
const events = fc.oneof(fc.array(event, { minLength: 0, maxLength: 4 }), fc.array(event, { minLength: MAX_USAGE_EVENTS - 1, maxLength: MAX_USAGE_EVENTS + 1 }), anyJson);
/** As JSON.parse would give it (an own `__proto__` key included), which is what the route reads. */
const body = fc
  .oneof({ weight: 5, arbitrary: fc.record({ events }) }, { weight: 1, arbitrary: fc.dictionary(fc.constantFrom('events', 'extra', '__proto__'), events, { maxKeys: 2 }) })
  .map((value) => JSON.parse(JSON.stringify(value) ?? '{}') as Record<string, unknown>);

describe('the usage body read by hand (acceptedUsageEventsBody)', () => {
  it('accepts exactly the bodies the schema accepts, giving the same request', () => {
    fc.assert(
      fc.property(body, (sent) => {
        const parsed = usageEventsBody.safeParse(sent);
        const accepted = acceptedUsageEventsBody(sent);
        expect(accepted !== undefined).toBe(parsed.success);
        if (accepted !== undefined && parsed.success) expect(toUsageRequest(accepted)).toEqual(toUsageRequest(parsed.data));
      }),
      { numRuns: 3000 },
    );
  });

  it('takes a full batch of 100 and leaves an unknown field, a long id or a 101st event to the schema', () => {
    const full = { events: Array.from({ length: 100 }, (_, k) => ({ event_id: `e-${k}`, subscription: 'sub_1', meter_code: 'api_calls', quantity: '1.5' })) };
    expect(acceptedUsageEventsBody(full)).toBe(full);
    expect(acceptedUsageEventsBody({ events: [...full.events, full.events[0]] })).toBeUndefined();
    expect(acceptedUsageEventsBody({ events: [{ ...full.events[0], extra: 1 }] })).toBeUndefined();
    expect(acceptedUsageEventsBody({ events: [{ ...full.events[0], event_id: 'x'.repeat(256) }] })).toBeUndefined();
    expect(acceptedUsageEventsBody({ events: [{ ...full.events[0], event_id: 'a\u0007' }] })).toBeUndefined();
    // quantity may be any value but must be there; timestamp anything or absent: the usage rules judge them per event.
    expect(acceptedUsageEventsBody({ events: [{ event_id: 'e', subscription: 's', meter_code: 'm', quantity: null, timestamp: 3 }] })).toBeDefined();
    expect(acceptedUsageEventsBody({ events: [{ event_id: 'e', subscription: 's', meter_code: 'm' }] })).toBeUndefined();
  });
});
