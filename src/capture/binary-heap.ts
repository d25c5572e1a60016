// A binary min-heap ordered by a `before` function: the merge of several captures keeps its files in
// one (the file whose next frame comes first at the top), and synthetic traffic its flows (the next
// packet's time at the top). Items are moved, never copied; nothing is allocated past the array.

export class BinaryHeap<T> {
  readonly items: T[] = [];

  /** `before(a, b)`: a comes out before b */
  constructor(private readonly before: (a: T, b: T) => boolean) {}

  get size(): number {
    return this.items.length;
  }

  /** the item that comes out first (the heap must not be empty) */
  top(): T {
    return this.items[0]!;
  }

  push(item: T): void {
    const h = this.items;
    let i = h.push(item) - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(item, h[parent]!)) break;
      h[i] = h[parent]!;
      i = parent;
    }
    h[i] = item;
  }

  /** Puts the top back in its place after its key grew. */
  siftTop(): void {
    const h = this.items;
    const item = h[0]!;
    const n = h.length;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && this.before(h[child + 1]!, h[child]!)) child++;
      if (!this.before(h[child]!, item)) break;
      h[i] = h[child]!;
      i = child;
    }
    h[i] = item;
  }

  /** Removes the top. */
  pop(): void {
    const last = this.items.pop()!;
    if (this.items.length === 0) return;
    this.items[0] = last;
    this.siftTop();
  }
}
