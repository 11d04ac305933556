/**
 * The facts a command needs that no single stream holds, answered from read models. Eventually
 * consistent: a burst of writes may be counted one or two behind, so a plan limit can be overshot
 * by a burst. No command reads read models any other way.
 */
export type Lookups = Readonly<{
  /** Pending and active subscriptions of the organisation. */
  liveSubscriptionCount(organisationId: string): Promise<number>;
  customerCount(organisationId: string): Promise<number>;
  metersDefined(organisationId: string): Promise<boolean>;
  /** The customer already linked to an accounting contact, if any. */
  customerWithContact(organisationId: string, accountingContactId: string): Promise<string | null>;
  /**
   * The subscriptions that may hold each of these usage event ids: every one that does (as of the
   * log position the answer includes everything up to), and rarely one that does not (the lookup
   * compares 64-bit fingerprints): the subscription's usage stream says for sure.
   */
  usageEventSubscriptions(organisationId: string, eventIds: readonly string[]): Promise<UsageEventSubscriptions>;
  webhookEndpointCount(organisationId: string): Promise<number>;
  /** The ids of what a sandbox copies from its live organisation. */
  copyable(organisationId: string): Promise<Readonly<Record<'meters' | 'plans' | 'charges' | 'customers' | 'subscriptions', readonly string[]>>>;
}>;

export type UsageEventSubscriptions = Readonly<{ candidates: ReadonlyMap<string, readonly string[]>; through: bigint }>;
