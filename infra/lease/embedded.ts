import type { Leases } from './port';

/**
 * The embedded profile's leases: it is one process (guarded by its data directory lock), so the
 * leases live in memory; they keep the same rules as the shared ones (a holder that stops renewing
 * loses the lease once it lapses).
 */
export class EmbeddedLeases implements Leases {
  readonly kind = 'embedded';
  private readonly held = new Map<string, { holder: string; until: number }>();

  constructor(private readonly now: () => number = () => Date.now()) {}

  acquire(name: string, holder: string, ttlMs: number): Promise<boolean> {
    const now = this.now();
    const current = this.held.get(name);
    if (current && current.holder !== holder && current.until > now) return Promise.resolve(false);
    this.held.set(name, { holder, until: now + ttlMs });
    return Promise.resolve(true);
  }

  release(name: string, holder: string): Promise<void> {
    if (this.held.get(name)?.holder === holder) this.held.delete(name);
    return Promise.resolve();
  }
}
