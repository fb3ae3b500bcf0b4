/**
 * The last `size` event ids a subscription accepted, to drop repeats (delivery is at least once:
 * a reopened stream, a resumed poll or a retried webhook can send an occurrence again).
 */
export class RecentIds {
  private readonly ids = new Set<string>();

  constructor(private readonly size: number) {}

  /** True when `id` is new (and remembers it); false for a repeat within the window. */
  accept(id: string): boolean {
    if (this.size <= 0) return true;
    if (this.ids.has(id)) return false;
    this.ids.add(id);
    if (this.ids.size > this.size) {
      const oldest = this.ids.values().next().value;
      if (oldest !== undefined) this.ids.delete(oldest);
    }
    return true;
  }
}
