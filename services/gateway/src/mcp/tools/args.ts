/** "1 capability", "3 capabilities": counts in the one-line summaries. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
