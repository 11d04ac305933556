import { formatMoney } from '../../domain/pricing/money';
import { creditNoteReversals, invoiceRevenue, type Revenue, reversedType } from '../../domain/reports/revenue';

const shown = (revenue: Revenue) => Object.fromEntries(Object.entries(revenue).map(([type, amount]) => [type, formatMoney(amount)]));
const line = (effectiveDate: string, amount = '10.0000') => ({ lineId: 'cnl_1', name: 'Seats', description: null, amount, effectiveDate });

describe('invoiced revenue by type', () => {
  it('sums each type’s lines after discount', () => {
    const lines = [
      { revenueType: 'new_subscription' as const, chargeAmount: '45.0000' },
      { revenueType: 'new_subscription' as const, chargeAmount: '20.0000' },
      { revenueType: 'usage' as const, chargeAmount: '4.5005' },
    ];
    expect(shown(invoiceRevenue(lines))).toEqual({ new_subscription: '65.0000', expansion: '0.0000', renewal: '0.0000', usage: '4.5005' });
  });

  it('reverses the type of the line that billed the period a credit note line credits', () => {
    const periodTwo = '2026-04-15T00:00:00.000Z';
    const renewalInvoice = [{ effectiveDate: periodTwo, revenueType: 'renewal' as const }];
    const separateIncrease = [
      { effectiveDate: '2026-04-10T00:00:00.000Z', revenueType: 'expansion' as const },
      { effectiveDate: periodTwo, revenueType: 'expansion' as const },
    ];
    // The renewal invoice's period, credited by a separate decrease: renewal.
    expect(reversedType(line(periodTwo), renewalInvoice, periodTwo)).toBe('renewal');
    // The next period's line of a separate increase, credited when the subscription ends: expansion.
    expect(reversedType(line(periodTwo), separateIncrease, periodTwo)).toBe('expansion');
    // The rest of the first period (before the first renewal line holds): new_subscription; of a later period: renewal.
    expect(reversedType(line('2026-04-12T00:00:00.000Z'), renewalInvoice, periodTwo)).toBe('new_subscription');
    expect(reversedType(line('2026-04-12T00:00:00.000Z'), [], null)).toBe('new_subscription');
    expect(reversedType(line('2026-04-20T00:00:00.000Z'), [], periodTwo)).toBe('renewal');
  });

  it('sums a credit note’s lines under the types they reverse', () => {
    const periodTwo = '2026-04-15T00:00:00.000Z';
    const reversals = creditNoteReversals([line('2026-04-12T00:00:00.000Z', '2.2581'), line(periodTwo, '10.0000')], [{ effectiveDate: periodTwo, revenueType: 'renewal' }], periodTwo);
    expect(shown(reversals)).toEqual({ new_subscription: '2.2581', expansion: '0.0000', renewal: '10.0000', usage: '0.0000' });
  });
});
