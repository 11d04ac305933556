import { apiKeyStream } from './api-key/events';
import { chargeStream } from './charge/events';
import { customerStream } from './customer/events';
import { invoiceStream } from './invoice/events';
import { meterStream } from './meter/events';
import { organisationStream } from './organisation/events';
import { planStream } from './plan/events';
import { subscriptionStream } from './subscription/events';

/** Each object id's prefix and the stream its events live in (credit notes' stream is named ahead of their events). */
const STREAMS: Readonly<Record<string, (id: string) => string>> = {
  org: organisationStream,
  key: apiKeyStream,
  cus: customerStream,
  mtr: meterStream,
  plan: planStream,
  chg: chargeStream,
  sub: subscriptionStream,
  inv: invoiceStream,
  cn: (id) => `credit_note-${id}`,
};

/** The stream holding an object's events, from its id (`sub_…` → `subscription-sub_…`); null for an unknown prefix. */
export const streamOfObject = (objectId: string): string | null => {
  const prefix = /^([a-z]+)_[A-Za-z0-9]+$/.exec(objectId)?.[1];
  const stream = prefix === undefined ? undefined : STREAMS[prefix];
  return stream ? stream(objectId) : null;
};
