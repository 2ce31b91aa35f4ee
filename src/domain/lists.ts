/** Ordered lists (reasons of a schedule, fields of the form). Pure. */

/** Returns `list` with `item` moved to the 1-based `position` (clamped to the list), the others keeping their order. */
export function moveTo<T>(list: readonly T[], item: T, position: number): T[] {
  const rest = list.filter((entry) => entry !== item);
  const index = Math.min(Math.max(position - 1, 0), rest.length);
  return [...rest.slice(0, index), item, ...rest.slice(index)];
}
