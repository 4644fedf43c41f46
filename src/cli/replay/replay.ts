/**
 * `atrium replay DIR --against URL`: the recorded calls sent again, in order, to an Atrium tenant, each answer
 * compared with the recorded one (compare.ts) and reported per operation (docs/replay.md).
 */
import { type Answer, compareAnswers, type Difference } from './compare.js';
import { type Exchange, readRecording } from './recording.js';
import {
  basicAuthorization,
  HR_PREFIX,
  isHrPath,
  isTokenCall,
  newRunId,
  type OutgoingRequest,
  outgoing,
  type ReplayCredentials,
  type ReplayState,
} from './request.js';
import { IdMap, resourceOf } from './rules.js';

export interface ReplayOptions {
  dir: string;
  /** The Atrium to replay against: an origin, with a path prefix when it is served under one. */
  against: string;
  credentials: ReplayCredentials;
  /** JSON pointer patterns not compared (`/body/*\/updated_by`). */
  ignore: string[];
}

/** One operation of the report. */
export interface OperationResult {
  seq: number;
  operation_id: string | null;
  method: string;
  /** The path as recorded, and as sent (ids and credentials replaced; secrets of the query left out). */
  path: string;
  sent_path: string | null;
  status: { recorded: number; replayed: number | null };
  differences: Difference[];
  /** Why the call was not sent, when it was not. */
  error?: string;
}

export interface ReplayReport {
  recording: { target: string; started_at: string; exchanges: number };
  against: string;
  operations: OperationResult[];
  /** How many operations differ (or could not be replayed). */
  different: number;
}

/** An answer read as the recording keeps bodies: JSON parsed, text as `{text}`, anything else as `{base64}`. */
async function readAnswer(response: Response): Promise<Answer> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name.toLowerCase()] = value;
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  const type = headers['content-type'] ?? '';
  let body: unknown = null;
  if (bytes.length > 0) {
    if (/[/+]json\b/i.test(type)) {
      try {
        body = JSON.parse(bytes.toString('utf8'));
      } catch {
        body = { text: bytes.toString('utf8') };
      }
    } else if (/^text\/|xml|x-www-form-urlencoded/i.test(type)) body = { text: bytes.toString('utf8') };
    else body = { base64: bytes.toString('base64') };
  }
  return { status: response.status, headers, body };
}

function send(against: string, request: OutgoingRequest): Promise<Response> {
  return fetch(`${against}${request.path}`, {
    method: request.method,
    headers: request.headers,
    redirect: 'manual',
    ...(request.body !== undefined ? { body: request.body } : {}),
  });
}

/** The replay's own token, for HR calls recorded without their token call (the recording started later). */
async function ensureToken(state: ReplayState, against: string): Promise<void> {
  if (state.token !== undefined) return;
  if (!state.credentials.clientId) throw new Error('HR calls need --client-id of the target tenant');
  const form = new URLSearchParams({
    grant_type: 'client_credentials',
    scope: 'client',
    client_id: state.credentials.clientId,
  });
  const answer = await readAnswer(
    await send(against, {
      method: 'POST',
      path: `${HR_PREFIX}/tokens`,
      headers: {
        authorization: basicAuthorization(state.credentials),
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: form.toString(),
    }),
  );
  const token = (answer.body as { access_token?: unknown } | null)?.access_token;
  if (answer.status !== 200 || typeof token !== 'string') {
    throw new Error(`the target refused the token request (${answer.status}): check the HR credentials`);
  }
  state.token = token;
}

/** A path as a report shows it: the values of secret parameters left out (they are the target's credentials). */
function shown(path: string): string {
  return path.replace(/([?&](?:apikey|api_key|access_token|token)=)[^&]*/gi, '$1…');
}

async function replayOne(state: ReplayState, options: ReplayOptions, target: string, exchange: Exchange) {
  const { request, response } = exchange;
  const result: OperationResult = {
    seq: exchange.seq,
    operation_id: exchange.operation_id,
    method: request.method,
    path: request.path,
    sent_path: null,
    status: { recorded: response.status, replayed: null },
    differences: [],
  };
  let answer: Answer;
  try {
    const bearer = request.headers.authorization !== undefined && !/^basic/i.test(request.headers.authorization);
    if (isHrPath(request.path) && bearer && !isTokenCall(request.method, request.path)) {
      await ensureToken(state, options.against);
    }
    const sent = outgoing(state, exchange);
    result.sent_path = shown(sent.path);
    answer = await readAnswer(await send(options.against, sent));
  } catch (error) {
    result.error = error instanceof Error ? error.message : String(error);
    return result;
  }
  result.status.replayed = answer.status;
  const token = (answer.body as { access_token?: unknown } | null)?.access_token;
  if (isTokenCall(request.method, request.path) && answer.status === 200 && typeof token === 'string') {
    state.token = token;
  }
  result.differences = compareAnswers(response, answer, {
    ids: state.ids,
    ignore: options.ignore,
    recordedOrigin: target,
    replayedOrigin: new URL(options.against).origin,
    resource: resourceOf(request.path),
  });
  return result;
}

/** Replays every exchange of the recording in order, each after the previous answer. */
export async function replay(options: ReplayOptions): Promise<ReplayReport> {
  const recording = readRecording(options.dir);
  const against = options.against.replace(/\/+$/, '');
  const state: ReplayState = { ids: new IdMap(), credentials: options.credentials, run: newRunId() };
  const operations: OperationResult[] = [];
  let target = '';
  try {
    target = recording.target ? new URL(recording.target).origin : '';
  } catch {
    target = '';
  }
  for (const exchange of recording.exchanges) {
    operations.push(await replayOne(state, { ...options, against }, target, exchange));
  }
  return {
    recording: { target: recording.target, started_at: recording.started_at, exchanges: recording.exchanges.length },
    against,
    operations,
    different: operations.filter((o) => o.error !== undefined || o.differences.length > 0).length,
  };
}

function value(v: unknown): string {
  return v === undefined ? '(missing)' : JSON.stringify(v);
}

/** The report as text: one line per operation, then one per difference, then the count. */
export function reportText(report: ReplayReport): string {
  const lines: string[] = [];
  for (const op of report.operations) {
    const name = `#${op.seq} ${op.method} ${op.path}${op.operation_id ? ` (${op.operation_id})` : ''}`;
    if (op.error !== undefined) lines.push(`${name}: not replayed: ${op.error}`);
    else if (op.differences.length === 0) lines.push(`${name}: same`);
    else {
      lines.push(`${name}: ${op.differences.length} difference${op.differences.length === 1 ? '' : 's'}`);
      for (const d of op.differences)
        lines.push(`  ${d.pointer}: recorded ${value(d.recorded)}, replayed ${value(d.replayed)}`);
    }
  }
  const n = report.operations.length;
  lines.push(
    report.different === 0
      ? `${n} operation${n === 1 ? '' : 's'} replayed against ${report.against}: no difference`
      : `${report.different} of ${n} operations differ (replayed against ${report.against})`,
  );
  return `${lines.join('\n')}\n`;
}
