/**
 * An answer a test gives when it says so: a mocked call returns `next()`, still unsettled, and the
 * test later calls `answer(value)` or `refuse(error)` to see each state of the page in turn.
 */
export function heldAnswer<T>() {
  let answer: (value: T) => void = () => undefined;
  let refuse: (err: Error) => void = () => undefined;
  return {
    next: () =>
      new Promise<T>((resolve, reject) => {
        answer = resolve;
        refuse = reject;
      }),
    answer: (value: T) => answer(value),
    refuse: (err: Error) => refuse(err),
  };
}
