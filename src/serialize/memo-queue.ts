// The JSON memo's queue (memo.ts): what waits for its second chance, in order.

/**
 * First in, first out, in a ring of slots that doubles when full and never shrinks (a JSON memo costs at least
 * 256 bytes, so the ring has at most a slot per 256 bytes of the bound); a slot is emptied as its item leaves.
 */
export class Queue<T> {
  #slots: (T | undefined)[] = new Array(16)
  #head = 0
  #size = 0

  get size(): number {
    return this.#size
  }

  push(item: T): void {
    if (this.#size === this.#slots.length) {
      const grown = new Array<T | undefined>(this.#size * 2)
      for (let i = 0; i < this.#size; i++) grown[i] = this.#slots[(this.#head + i) % this.#size]
      this.#slots = grown
      this.#head = 0
    }
    this.#slots[(this.#head + this.#size) % this.#slots.length] = item
    this.#size++
  }

  /** The first item; only while `size` is above 0. */
  shift(): T {
    const item = this.#slots[this.#head] as T
    // Emptied, so that a dropped memo's bytes are not held by its old slot.
    this.#slots[this.#head] = undefined
    this.#head = (this.#head + 1) % this.#slots.length
    this.#size--
    return item
  }
}
