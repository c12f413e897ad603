/** The sentence a server prints when it cannot listen on its port; undefined for other faults. */
export function listenFailure(e: NodeJS.ErrnoException, port: number, host: string): string | undefined {
  if (e.code === "EADDRINUSE") return `cannot listen on ${host} port ${port}: it is already in use; set PORT to a free port (e.g. PORT=${port + 1} npm start)`;
  if (e.code === "EACCES" || e.code === "EPERM")
    return `cannot listen on ${host} port ${port}: not permitted (ports below 1024 need privileges); set PORT to a port above 1023 (e.g. PORT=3000 npm start)`;
  if (e.code === "EADDRNOTAVAIL") return `cannot listen on ${host} port ${port}: the address is not on this machine; set HOST (e.g. HOST=127.0.0.1) or PORT`;
  return undefined;
}
