import { perStore } from '../per-store';

/** One decision's claim on the ids it stores: in flight until its append commits at `position` (0n once released). */
export type UsageIdClaim = { readonly organisationId: string; readonly subscriptionId: string; readonly eventIds: readonly string[]; position: bigint | null };

type OrganisationClaims = { readonly holders: Map<string, UsageIdClaim>; readonly claims: UsageIdClaim[] };

/**
 * The usage event ids this process has decided to store, per organisation, until the read models
 * the `Lookups` answer from include them. An id is unique across an organisation's subscriptions,
 * and the lookups lag the log: two concurrent requests naming one id on two subscriptions would
 * both find it free there. A decision claims the ids it stores as it is made (no await between
 * the two), so a decision on another subscription made after it sees them. Within one process:
 * processes sharing a log still meet only in the read models.
 */
export class UsageIdClaims {
  private readonly byOrganisation = new Map<string, OrganisationClaims>();

  /** The subscription holding a claim on the id, if any. */
  holder(organisationId: string, eventId: string): string | undefined {
    return this.byOrganisation.get(organisationId)?.holders.get(eventId)?.subscriptionId;
  }

  claim(organisationId: string, subscriptionId: string, eventIds: readonly string[]): UsageIdClaim {
    const claim: UsageIdClaim = { organisationId, subscriptionId, eventIds, position: null };
    if (eventIds.length === 0) return claim;
    let organisation = this.byOrganisation.get(organisationId);
    if (!organisation) this.byOrganisation.set(organisationId, (organisation = { holders: new Map(), claims: [] }));
    for (const eventId of eventIds) organisation.holders.set(eventId, claim);
    organisation.claims.push(claim);
    return claim;
  }

  committed(claim: UsageIdClaim, position: bigint): void {
    claim.position = position;
  }

  /** The decision's append was refused or failed: its ids are free again. */
  release(claim: UsageIdClaim): void {
    const organisation = this.byOrganisation.get(claim.organisationId);
    if (organisation) this.forget(organisation, claim);
    claim.position = 0n;
  }

  /** Forgets the claims whose appends the read models include, in the order they were made (an append still in flight holds back those after it). */
  settle(organisationId: string, through: bigint): void {
    const organisation = this.byOrganisation.get(organisationId);
    if (!organisation) return;
    let settled = 0;
    for (const claim of organisation.claims) {
      if (claim.position === null || claim.position > through) break;
      this.forget(organisation, claim);
      settled++;
    }
    organisation.claims.splice(0, settled);
    if (organisation.claims.length === 0) this.byOrganisation.delete(organisationId);
  }

  private forget(organisation: OrganisationClaims, claim: UsageIdClaim): void {
    for (const eventId of claim.eventIds) if (organisation.holders.get(eventId) === claim) organisation.holders.delete(eventId);
  }
}

/** The one set of claims for a log. */
export const usageIdClaimsOf = perStore(() => new UsageIdClaims());
