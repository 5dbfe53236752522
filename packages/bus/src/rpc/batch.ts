/**
 * Gathers what is written in one turn of the event loop and hands it over as one batch at the next
 * (setImmediate). Under load most of the time of a small command is the socket write (one syscall
 * each, ~20% of the transport's CPU when measured): calls made together (the replies of one socket
 * read wake many callers at once) then share one pipeline. An idle process pays one loop turn.
 */
export function createBatcher<T>(flush: (items: T[]) => void): (item: T) => void {
  let items: T[] = [];
  let scheduled = false;
  const run = () => {
    scheduled = false;
    const batch = items;
    items = [];
    flush(batch);
  };
  return (item) => {
    items.push(item);
    if (!scheduled) {
      scheduled = true;
      setImmediate(run);
    }
  };
}
