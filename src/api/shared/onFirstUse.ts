/**
 * A value made the first time it is asked for, then kept. The response schemas are built this way:
 * answering never reads them (the OpenAPI document, the fuzzer and the tests do), and building
 * them all took a third of a fresh worker's import.
 */
export function onFirstUse<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => {
    made ??= { value: make() };
    return made.value;
  };
}
