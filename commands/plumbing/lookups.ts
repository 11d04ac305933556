import type { UsageIdHolder } from '../../domain/usage/state';

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
   * The usage batches (a subscription's usage stream and a revision) that may hold each of these
   * event ids: every one that does as of the log position the answer includes everything up to,
   * and rarely one that does not (the lookup compares 64-bit fingerprints): the event says for sure.
   * With the last revision of `subscriptionId`'s usage stream the answer includes.
   */
  usageEventHolders(organisationId: string, subscriptionId: string, eventIds: readonly string[]): Promise<UsageEventHolders>;
  webhookEndpointCount(organisationId: string): Promise<number>;
  /** The ids of what a sandbox copies from its live organisation. */
  copyable(organisationId: string): Promise<Readonly<Record<'meters' | 'plans' | 'charges' | 'customers' | 'subscriptions', readonly string[]>>>;
}>;

export type UsageEventHolders = Readonly<{
  holders: ReadonlyMap<string, readonly UsageIdHolder[]>;
  /** The log position the answer includes everything up to. */
  through: bigint;
  /** The last revision of the subscription's usage stream it includes (-1: none). */
  readThrough: number;
}>;
