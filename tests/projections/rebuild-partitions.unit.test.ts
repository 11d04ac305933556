import { partitionByWork } from '../../projections/engine/rebuild-partitions';

const model = (name: string, ...handles: string[]) => ({ name, handles });
const names = (groups: { name: string }[][]) => groups.map((group) => group.map((m) => m.name).sort());

describe('partitionByWork', () => {
  // The bench's log: a subscription's creation, its customer's import, its invoice raised and synced.
  const shares = new Map([
    ['SubscriptionCreated', 0.35],
    ['InvoiceRaised', 0.31],
    ['InvoiceSynced', 0.16],
    ['CustomerImported', 0.18],
  ]);
  const models = [
    model('invoices', 'InvoiceRaised', 'InvoiceSynced', 'SandboxReset'),
    model('subscriptions', 'SubscriptionCreated', 'SandboxReset'),
    model('due_dates', 'SubscriptionCreated', 'SandboxReset'),
    model('customers', 'CustomerImported', 'SandboxReset'),
    model('api_keys', 'ApiKeyCreated'),
  ];

  it('keeps read models of the same events together, where they are read and decoded once, and balances the rest', () => {
    expect(names(partitionByWork(models, shares, 2))).toEqual([['api_keys', 'invoices'], ['customers', 'due_dates', 'subscriptions']]);
  });

  it('makes no more groups than asked, nor than there are read models, and leaves none empty', () => {
    expect(partitionByWork(models, shares, 1)[0]).toHaveLength(5);
    expect(partitionByWork(models.slice(0, 2), shares, 8)).toHaveLength(2);
    // Types the sample did not meet weigh nothing: spread all the same.
    expect(names(partitionByWork([model('a', 'Unseen'), model('b', 'Unseen'), model('c', 'Other')], shares, 2))).toEqual([['a', 'c'], ['b']]);
  });

  it('puts the heaviest read models in groups of their own', () => {
    const groups = names(partitionByWork(models, shares, 3));
    const groupOf = (name: string) => groups.findIndex((group) => group.includes(name));
    expect(new Set([groupOf('invoices'), groupOf('subscriptions'), groupOf('due_dates')]).size).toBe(3);
  });
});
