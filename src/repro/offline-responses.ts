import type { HarFile } from '../../schemas/network';

/** A response the bundle recorded, as a replay serves it back. */
export interface RecordedResponse {
  method: string;
  url: string;
  status: number;
  contentType: string;
  /** The body as the HAR kept it (masked; empty when it was left out), base64 when `base64`. */
  body: string;
  base64: boolean;
  /** Why the body is empty (`not_kept`, `binary`…), when it is. */
  omitted?: string;
}

/**
 * The recorded responses, in the order they were requested: the failed ones (status 0) and redirects
 * left out, since neither can be served back as an answer.
 */
export function recordedResponses(har: HarFile): RecordedResponse[] {
  return [...har.log.entries]
    .sort((a, b) => a.startedDateTime.localeCompare(b.startedDateTime))
    .filter((entry) => entry.response.status >= 200 && !(entry.response.status >= 300 && entry.response.status < 400))
    .map((entry) => {
      const content = entry.response.content;
      const contentType = content.mimeType || (entry.response.headers.find((h) => h.name.toLowerCase() === 'content-type')?.value ?? '');
      return {
        method: entry.request.method.toUpperCase(),
        url: entry.request.url,
        status: entry.response.status,
        contentType,
        body: content.text ?? '',
        base64: content.encoding === 'base64',
        ...(content.text === undefined && content._omitted ? { omitted: content._omitted } : {}),
      };
    });
}

/** A URL without its query and fragment: masked query values (`?token=[redacted]`) still match on it. */
function withoutQuery(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return url;
  }
}

/**
 * Serves recorded responses to a replay by method, URL and order: the first unused response of the same
 * method and URL, else (a URL the recorder masked) of the same method, origin and path. Request bodies
 * are masked in the HAR, so they cannot match byte for byte and are not compared. A request made more
 * often than recorded gets the last recorded answer again. Requests with no
 * recorded answer are listed (`unrecorded`) for the replay to abort.
 * @example const queue = new ResponseQueue(recordedResponses(har)); queue.take('POST', url)?.status // 500
 */
export class ResponseQueue {
  private readonly used: boolean[];
  readonly unrecorded: string[] = [];

  constructor(private readonly responses: readonly RecordedResponse[]) {
    this.used = responses.map(() => false);
  }

  take(method: string, url: string): RecordedResponse | null {
    const m = method.toUpperCase();
    let i = this.responses.findIndex((r, n) => !this.used[n] && r.method === m && r.url === url);
    if (i < 0) i = this.responses.findIndex((r, n) => !this.used[n] && r.method === m && withoutQuery(r.url) === withoutQuery(url));
    // Asked more often than recorded (a reload, a retry): the last recorded answer again.
    if (i < 0) i = this.responses.findLastIndex((r) => r.method === m && withoutQuery(r.url) === withoutQuery(url));
    if (i < 0) {
      this.unrecorded.push(`${m} ${url}`);
      return null;
    }
    this.used[i] = true;
    return this.responses[i]!;
  }
}
