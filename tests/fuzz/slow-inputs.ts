import type { FuzzRequest } from './requests';

/** Bodies that cost the most to refuse: nested as deep as the size allows, at the size limit, or not UTF-8. */
export const COSTLY_BODIES: readonly (string | Buffer)[] = [
  `${'['.repeat(49_000)}${']'.repeat(49_000)}`,
  `${'{"a":'.repeat(16_000)}1${'}'.repeat(16_000)}`,
  `{${Array.from({ length: 9_000 }, (_, i) => `"k${i}":0`).join(',')}}`,
  `{"padding":"${'x'.repeat(99_980)}"}`,
  `{"emoji":"${'😀'.repeat(99_980)}"}`,
  Buffer.concat([Buffer.from('{"code":"'), Buffer.alloc(399_000, 0xff), Buffer.from('"}')]),
];

/**
 * The slowest requests the fuzz suite knows, for a world made by `hostileWorld`: dates at the ends
 * of the range (a start in 9999 once walked period by period for tens of seconds), the most cycles,
 * the largest prices × units, and the costliest bodies and query strings.
 */
export const slowestRequests = (apiKey: string, hugeChargeId: string): FuzzRequest[] => {
  const auth = { Authorization: `Bearer ${apiKey}` };
  let n = 0;
  const subscription = (body: object): FuzzRequest => ({
    method: 'POST',
    path: '/v1/subscriptions',
    query: '',
    headers: { ...auth, 'Content-Type': 'application/json', 'Idempotency-Key': `slow-${++n}-${Math.random()}` },
    body: JSON.stringify(body),
    mutation: 'slow input',
  });
  return [
    subscription({ customer_code: 'C1', plan_code: 'volume', units: 5, start_date: '9999-12-31' }),
    subscription({ customer_code: 'C1', plan_code: 'volume', units: 5, start_date: '9999-01-01', end_after_cycles: 10_000 }),
    subscription({ customer_code: 'C1', plan_code: 'stairs', units: 5, start_date: '1970-01-01', end_after_cycles: 10_000 }),
    subscription({ customer_code: 'C1', plan_code: 'tiered', units: 999_999_999, start_date: '1970-01-01' }),
    subscription({ customer_code: 'C1', plan_code: 'huge', units: 999_999_999, charges: Array.from({ length: 50 }, () => ({ charge: hugeChargeId, quantity: 10_000 })) }),
    ...COSTLY_BODIES.map((body) => ({ ...subscription({}), body })),
    ...COSTLY_BODIES.map((body): FuzzRequest => ({ method: 'POST', path: '/v1/customers', query: '', headers: { ...auth, 'Content-Type': 'application/json' }, body, mutation: 'slow input' })),
    { method: 'GET', path: '/v1/customers', query: Array.from({ length: 2_500 }, (_, i) => `p${i}=%FF`).join('&'), headers: auth, body: null, mutation: 'slow input' },
    { method: 'GET', path: '/v1/subscriptions', query: 'status=pending,active,complete,ended'.padEnd(20_000, ',active'), headers: auth, body: null, mutation: 'slow input' },
    { ...subscription({ customer_code: 'C1', plan_code: 'seats', units: 5 }), headers: { ...auth, 'Content-Type': 'application/json', 'Idempotency-Key': 'k'.repeat(20_000) } },
  ];
};
