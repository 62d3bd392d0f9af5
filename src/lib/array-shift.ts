// Inserting into and removing from the middle of an array by shifting its tail one place, for the
// chain's short sorted arrays (a book side's level chunks, a trigger ladder's chunks). Array.prototype.splice does the same move but is a runtime call that also allocates
// the array of removed items on every call; on these paths that call cost more than the shift.

/** Inserts item at index (0 <= index <= length), moving the items from index on up by one. */
export function insertAt<T>(items: T[], index: number, item: T): void {
  let i = items.length
  // Bounded by the array's length: each step moves one item up.
  for (; i > index; i--) items[i] = items[i - 1]!
  items[i] = item
}

/** Removes the item at index (0 <= index < length), moving the items after it down by one. */
export function removeAt<T>(items: T[], index: number): void {
  const end = items.length - 1
  // Bounded by the array's length: each step moves one item down.
  for (let i = index; i < end; i++) items[i] = items[i + 1]!
  items.pop()
}
