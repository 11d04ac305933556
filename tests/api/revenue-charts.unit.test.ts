import { chartsOf } from '../../api/console/pages/revenue';
import type { MrrRowObject } from '../../api/schemas/reports';

const row = (month: string, currency: string, closing: string, added: Partial<Record<'new' | 'expansion' | 'reactivation', string>> = {}): MrrRowObject => ({
  month,
  currency,
  opening_mrr: '0.0000',
  new: added.new ?? '0.0000',
  expansion: added.expansion ?? '0.0000',
  contraction: '0.0000',
  churn: '0.0000',
  reactivation: added.reactivation ?? '0.0000',
  closing_mrr: closing,
  arr: '0.0000',
  active_subscriptions: 1,
});

describe('the revenue page’s charts', () => {
  it('draws one chart per currency, in the order the rows name them, each month stacked as kept plus what each movement added', () => {
    const charts = chartsOf([
      row('2026-03', 'GBP', '100.0000', { new: '100.0000' }),
      row('2026-03', 'EUR', '30.0000', { new: '30.0000' }),
      row('2026-04', 'GBP', '150.0000', { expansion: '40.0000', reactivation: '10.0000' }),
      row('2026-04', 'EUR', '30.0000'),
    ]);
    expect(charts).toEqual([
      {
        currency: 'GBP',
        months: ['2026-03', '2026-04'],
        series: [
          { label: 'Kept', values: [0, 100] },
          { label: 'New', values: [100, 0] },
          { label: 'Expansion', values: [0, 40] },
          { label: 'Reactivation', values: [0, 10] },
        ],
      },
      {
        currency: 'EUR',
        months: ['2026-03', '2026-04'],
        series: [
          { label: 'Kept', values: [0, 30] },
          { label: 'New', values: [30, 0] },
          { label: 'Expansion', values: [0, 0] },
          { label: 'Reactivation', values: [0, 0] },
        ],
      },
    ]);
  });

  it('draws none when there are no rows', () => {
    expect(chartsOf([])).toEqual([]);
  });
});
