import { perStore } from '../plumbing/per-store';

/** One decision's claim on the ids it stores: in flight until its append commits at `position` (0n once released). */
export type UsageIdClaim = { readonly organisationId: string; readonly subscriptionId: string; readonly eventIds: readonly string[]; position: bigint | null };

/** Ids held past this many (about 100 MB) are forgotten oldest first once committed, as if the lookup held them. */
const KEPT_IDS = 1_000_000;

/**
 * The usage event ids this process has decided to store, per organisation, until the `Lookups`
 * answer includes them. An id is unique across an organisation's subscriptions,
 * and the lookup lags the log: two concurrent requests naming one id on two subscriptions would
 * both find it free there. A decision claims the ids it stores as it is made (no await between
 * the two), so a decision on another subscription made after it sees them. Within one process:
 * processes sharing a log still meet only in the lookup.
 */
export class UsageIdClaims {
  private readonly holders = new Map<string, Map<string, UsageIdClaim>>();
  /** Every claim not yet forgotten, in the order made, and the ids they hold. */
  private readonly claims: UsageIdClaim[] = [];
  private held = 0;
  /** The furthest position a lookup answer included, and how many requests decide from an answer through each position. */
  private included = 0n;
  private readonly readers = new Map<bigint, number>();

  constructor(private readonly keptIds = KEPT_IDS) {}

  /** The subscription holding a claim on the id, if any. */
  holder(organisationId: string, eventId: string): string | undefined {
    return this.holders.get(organisationId)?.get(eventId)?.subscriptionId;
  }

  claim(organisationId: string, subscriptionId: string, eventIds: readonly string[]): UsageIdClaim {
    const claim: UsageIdClaim = { organisationId, subscriptionId, eventIds, position: null };
    if (eventIds.length === 0) return claim;
    let holders = this.holders.get(organisationId);
    if (!holders) this.holders.set(organisationId, (holders = new Map<string, UsageIdClaim>()));
    for (const eventId of eventIds) holders.set(eventId, claim);
    this.claims.push(claim);
    this.held += eventIds.length;
    // Should the lookup stop following the log, memory stays bounded; its lag is back for the oldest.
    this.forgetWhile((oldest) => this.held > this.keptIds && oldest.position !== null);
    return claim;
  }

  committed(claim: UsageIdClaim, position: bigint): void {
    claim.position = position;
  }

  /** The decision's append was refused or failed: its ids are free again. */
  release(claim: UsageIdClaim): void {
    this.free(claim);
    claim.position = 0n;
  }

  /**
   * A request decides from a lookup answer that includes the log through `through` (a position):
   * the claims whose appends it includes are forgotten, oldest first (an append still in flight
   * holds back those after it), once no request still deciding from an older answer needs them.
   * Call the function returned when the request is done.
   */
  settle(through: bigint): () => void {
    if (through > this.included) this.included = through;
    this.readers.set(through, (this.readers.get(through) ?? 0) + 1);
    this.forgetIncluded();
    return () => {
      const left = this.readers.get(through)! - 1;
      if (left === 0) this.readers.delete(through);
      else this.readers.set(through, left);
      this.forgetIncluded();
    };
  }

  private forgetIncluded(): void {
    let upTo = this.included;
    for (const through of this.readers.keys()) if (through < upTo) upTo = through;
    this.forgetWhile((oldest) => oldest.position !== null && oldest.position <= upTo);
  }

  private forgetWhile(forget: (oldest: UsageIdClaim) => boolean): void {
    let forgotten = 0;
    for (const oldest of this.claims) {
      if (!forget(oldest)) break;
      this.free(oldest);
      this.held -= oldest.eventIds.length;
      forgotten++;
    }
    this.claims.splice(0, forgotten);
  }

  private free(claim: UsageIdClaim): void {
    const holders = this.holders.get(claim.organisationId);
    if (!holders) return;
    for (const eventId of claim.eventIds) if (holders.get(eventId) === claim) holders.delete(eventId);
    if (holders.size === 0) this.holders.delete(claim.organisationId);
  }
}

/** The one set of claims for a log. */
export const usageIdClaimsOf = perStore(() => new UsageIdClaims());
