/** A TCP port on 127.0.0.1 that nothing listens on right now (the OS picks it). */
import { createServer } from "node:net";

export const freePort = (): Promise<number> =>
  new Promise((done) => {
    const probe = createServer();
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });
