/**
 * A set of objects that link themselves (two fields of their own), for the hot path's sets with
 * an entry added and removed per relay call: the reservations held open. A `Set` there kept its
 * entries' objects (and what they reference) alive through young-generation collections, so whole
 * calls were promoted (docs/decisions, ADR-33). Adding and removing touch only the neighbours;
 * there is no table to grow, shrink or hash.
 *
 * An object belongs to at most one LinkedSet at a time (the fields are shared). Objects made
 * elsewhere without the fields (undefined) count as not linked.
 */
export interface Linked<T> {
  previousLinked: T | null;
  nextLinked: T | null;
}

export class LinkedSet<T extends Linked<T>> {
  /** Newest first. */
  private first: T | null = null;
  private count = 0;

  get size(): number {
    return this.count;
  }

  has(item: T): boolean {
    return (item.previousLinked ?? null) !== null || this.first === item;
  }

  /** Adds `item` (nothing when it is already in). */
  add(item: T): void {
    if (this.has(item)) return;
    const first = this.first;
    item.previousLinked = null;
    item.nextLinked = first;
    if (first !== null) first.previousLinked = item;
    this.first = item;
    this.count++;
  }

  /** Removes `item`; false when it was not in. */
  delete(item: T): boolean {
    const previous = item.previousLinked ?? null;
    const next = item.nextLinked ?? null;
    if (previous !== null) previous.nextLinked = next;
    else if (this.first === item) this.first = next;
    else return false;
    if (next !== null) next.previousLinked = previous;
    item.previousLinked = null;
    item.nextLinked = null;
    this.count--;
    return true;
  }

  /** Calls `visit` for every item, newest first; `visit` may delete the item it is given. */
  forEach(visit: (item: T) => void): void {
    let item = this.first;
    while (item !== null) {
      const next = item.nextLinked;
      visit(item);
      item = next;
    }
  }
}
