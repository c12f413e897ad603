/**
 * A request target as Node's HTTP parser hands it over, as the URL the web handler reads. Node
 * gives the target's bytes as latin-1 characters; bytes above 0x7e (and controls, spaces) are
 * percent-encoded back, so UTF-8 text stays UTF-8. An absolute-form target
 * (`GET http://host/api/… HTTP/1.1`, what a proxy sends) names its path; the asterisk-form (`*`,
 * only meaningful with OPTIONS) names the server as a whole, here `/`. A fixed origin keeps
 * `//x/…` a path.
 */
const ABSOLUTE_FORM = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i;

export function requestUrl(target: string): string {
  const path = target === "*" ? "/" : target.replace(ABSOLUTE_FORM, "") || "/";
  const bytes = Array.from(path.startsWith("/") ? path : `/${path}`, (c) => c.charCodeAt(0) & 0xff);
  return `http://localhost${bytes.map((b) => (b > 0x7e || b < 0x21 ? `%${b.toString(16).toUpperCase().padStart(2, "0")}` : String.fromCharCode(b))).join("")}`;
}
