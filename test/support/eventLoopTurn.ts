/**
 * Every test ends with a turn of the event loop. A file of synchronous tests otherwise runs in one
 * macrotask, so its worker reads none of the test runner's replies until the file ends; on a
 * loaded machine that exceeds the 60 s the runner waits for them ("Timeout calling onTaskUpdate").
 */
import { afterEach } from "vitest";

afterEach(() => new Promise<void>((resolve) => setImmediate(resolve)));
