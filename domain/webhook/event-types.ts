/** Every event type the API document lists; an endpoint subscribes to a chosen list or to all (`*`, including types added later). */
export const WEBHOOK_EVENT_TYPES = [
  'customer.created',
  'customer.updated',
  'customer.deleted',
  'subscription.created',
  'subscription.updated',
  'subscription.ended',
  'subscription.restored',
  'subscription.deleted',
  'invoice.created',
  'invoice.updated',
  'invoice.paid',
  'invoice.voided',
  'invoice.deleted',
  'credit_note.created',
  'credit_note.updated',
  'credit_note.voided',
  'credit_note.deleted',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number] | 'webhook.test';

export const subscribesTo = (events: readonly string[], type: string): boolean =>
  type === 'webhook.test' || events.includes('*') || events.includes(type);
