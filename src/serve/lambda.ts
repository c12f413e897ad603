/**
 * AWS Lambda function URL (payload format 2.0) adapter over the worker's `fetch`: the event
 * becomes a web Request, the Response becomes the function's result. In the S3 + CloudFront
 * recipe the bucket serves the files and CloudFront's origin group sends its misses here.
 */
import worker from "./worker.js";

/** The parts of a function URL event the adapter reads. */
export interface FunctionUrlEvent {
  rawPath: string;
  rawQueryString?: string;
  headers?: Record<string, string | undefined>;
  cookies?: string[];
  requestContext: { http: { method: string }; domainName?: string };
}

export interface FunctionUrlResult {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
  isBase64Encoded: boolean;
}

const base64 = (bytes: Uint8Array): string => {
  let text = "";
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
};

/** The web Request a function URL event stands for. */
export function requestOf(event: FunctionUrlEvent): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(event.headers ?? {})) if (value !== undefined) headers.set(name, value);
  const host = event.requestContext.domainName ?? headers.get("host") ?? "localhost";
  const query = event.rawQueryString ? `?${event.rawQueryString}` : "";
  return new Request(`https://${host}${event.rawPath}${query}`, { method: event.requestContext.http.method, headers });
}

/** The function result of a Response: text bodies as they are, encoded or binary ones in base64. */
export async function resultOf(response: Response): Promise<FunctionUrlResult> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  const bytes = new Uint8Array(await response.arrayBuffer());
  const textual = !headers["content-encoding"] && /^(application\/json|text\/)/.test(headers["content-type"] ?? "");
  return textual
    ? { statusCode: response.status, headers, body: new TextDecoder().decode(bytes), isBase64Encoded: false }
    : { statusCode: response.status, headers, body: base64(bytes), isBase64Encoded: true };
}

export const handler = async (event: FunctionUrlEvent): Promise<FunctionUrlResult> => resultOf(await worker.fetch(requestOf(event)));
