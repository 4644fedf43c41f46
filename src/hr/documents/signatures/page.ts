import { createHash } from 'node:crypto';
import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { BlobStore } from '../../../platform/blobs/store.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import { DomainError, FieldValidationError, ForbiddenError } from '../../../platform/errors.js';
import { type RateLimits, underFailureLimits } from '../../../platform/http/rate-limit.js';
import { sendBlob } from '../../../platform/http/send-blob.js';
import type { TypeBoxTypeProvider } from '../../../platform/http/types.js';
import { escapeHtml, FAVICON, securePage } from '../../../platform/http/web-page.js';
import { formatUtcStamp } from '../../../platform/time.js';
import { callOrigin } from './origin.js';
import type { SignaturesService } from './service.js';
import type { SigningService } from './signing-service.js';
import { findSignatureType } from './types.js';
import type { ProcessView, SignerView } from './views.js';

/**
 * The signing page (docs/hr-api.md, "Electronic signature"): what a signer's `signing_url` opens. It shows the
 * document and lets the signer sign, by typing their name, or refuse, with a comment, in their turn. One HTML answer
 * per step, its style inline (by hash), no script and nothing fetched from elsewhere, so it works offline; the forms
 * post back to the page, which answers `303 See Other` to itself. The link is the signer's credential: the page is
 * served without a bearer token, and a wrong link is a 404 page.
 */

const STYLE = `
:root { color-scheme: light dark; --bg: #f6f7fa; --card: #fff; --fg: #1c1e23; --muted: #555b68; --accent: #2b4fc7;
  --accent-fg: #fff; --rule: #d8dbe3; --ok: #1d6b3a; --bad: #a3262a; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #14161b; --card: #1c1f26; --fg: #e7e9ef; --muted: #a3a9b7; --accent: #93b2ff; --accent-fg: #14161b;
    --rule: #2d313b; --ok: #7fd39b; --bad: #ff9a9e; }
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg);
  font: 16px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
main { max-width: 52rem; margin: 0 auto; padding: 2rem 1rem 3rem; }
h1 { font-size: 1.6rem; margin: 0 0 0.25rem; line-height: 1.25; }
h2 { font-size: 1.1rem; margin: 0 0 0.75rem; }
p { margin: 0.5rem 0; }
.muted { color: var(--muted); }
.card { background: var(--card); border: 1px solid var(--rule); border-radius: 10px; padding: 1.25rem; margin-top: 1.25rem; }
.status { font-weight: 600; }
.status.ok { color: var(--ok); }
.status.bad { color: var(--bad); }
iframe { width: 100%; height: 28rem; border: 1px solid var(--rule); border-radius: 6px; background: #fff; }
label { display: block; font-weight: 600; margin: 0.75rem 0 0.25rem; }
input, textarea { width: 100%; font: inherit; padding: 0.5rem 0.6rem; border: 1px solid var(--muted); border-radius: 6px;
  background: var(--bg); color: var(--fg); }
textarea { min-height: 5rem; }
button { margin-top: 1rem; font: inherit; font-weight: 600; padding: 0.55rem 1.2rem; border-radius: 6px; cursor: pointer;
  border: 1px solid var(--accent); background: var(--accent); color: var(--accent-fg); }
button.secondary { background: transparent; color: var(--fg); border-color: var(--muted); }
a { color: var(--accent); }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.error { color: var(--bad); font-weight: 600; }
.grid { display: grid; gap: 1.25rem; grid-template-columns: 1fr; }
@media (min-width: 48rem) { .grid { grid-template-columns: 1fr 1fr; } }
`;

/** Nothing but the inline style and the `data:` icon; the document in a frame of this server; forms post here. */
const CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  'img-src data:',
  "frame-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
];

const TokenParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 300 }) });
const SignForm = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 140 }),
  access_code: Type.Optional(Type.String({ maxLength: 100 })),
});
const RefuseForm = Type.Object({
  comment: Type.String({ minLength: 1, maxLength: 550 }),
  access_code: Type.Optional(Type.String({ maxLength: 100 })),
});

const when = formatUtcStamp;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Atrium signing</title>
<link rel="icon" href="${FAVICON}">
<style>${STYLE}</style>
</head>
<body><main>${body}</main></body>
</html>`;
}

/** The signer's page for the state they and their process are in. */
function render(token: string, process: ProcessView, signer: SignerView, error?: string): string {
  // Relative to the page: the link itself (`…/signing/<token>`), or a form's answer (`…/signing/<token>/sign`).
  const here = escapeHtml(`${error === undefined ? '' : '../'}${encodeURIComponent(token)}`);
  const p = process.process;
  const s = signer.signer;
  const name = `${s.firstName} ${s.lastName}`;
  const others = process.signers
    .filter((o) => o.id !== s.id)
    .map((o) => `<li>${escapeHtml(`${o.firstName} ${o.lastName}`)}: ${escapeHtml(o.state.replace('_', ' '))}</li>`)
    .join('');
  let status: string;
  let forms = '';
  if (s.state === 'signed' && s.signedAt !== null) {
    status = `<p class="status ok" role="status">You signed this document on ${when(s.signedAt)} as “${escapeHtml(s.signatureName ?? name)}”.</p>`;
  } else if (s.state === 'rejected') {
    status = `<p class="status bad" role="status">You refused to sign this document.</p>`;
  } else if (process.state !== 'signing') {
    status = `<p class="status bad" role="status">This document is no longer open for signature: it is ${escapeHtml(process.state)}.</p>`;
  } else if (s.state === 'pending') {
    status = `<p class="status" role="status">It is not your turn yet: the signers before you sign first. Come back with the same link.</p>`;
  } else {
    status = `<p class="status" role="status">Your signature is requested until ${escapeHtml(p.expiryDate ?? '')}.</p>`;
    const code = s.accessCodeHash
      ? '<label for="sign-code">Access code</label><input id="sign-code" name="access_code" autocomplete="one-time-code" required>'
      : '';
    const refuseCode = s.accessCodeHash
      ? '<label for="refuse-code">Access code</label><input id="refuse-code" name="access_code" autocomplete="one-time-code" required>'
      : '';
    const canRefuse = findSignatureType(p.signatureTypeId)?.signer_can_reject !== false;
    forms = `<div class="grid">
<form class="card" method="post" action="${here}/sign" aria-labelledby="sign-title">
<h2 id="sign-title">Sign</h2>
<p class="muted">Type your full name to sign electronically.</p>
<label for="sign-name">Your name</label>
<input id="sign-name" name="name" value="${escapeHtml(name)}" maxlength="140" autocomplete="name" required>
${code}
<button type="submit">Sign the document</button>
</form>
${
  canRefuse
    ? `<form class="card" method="post" action="${here}/refuse" aria-labelledby="refuse-title">
<h2 id="refuse-title">Refuse</h2>
<p class="muted">Say why you refuse to sign. The sender is told.</p>
<label for="refuse-comment">Comment</label>
<textarea id="refuse-comment" name="comment" maxlength="550" required></textarea>
${refuseCode}
<button type="submit" class="secondary">Refuse to sign</button>
</form>`
    : ''
}
</div>`;
  }
  return page(
    p.title,
    `<h1>${escapeHtml(p.title)}</h1>
<p class="muted">For ${escapeHtml(name)} · file number ${escapeHtml(p.fileNumber)} · ${escapeHtml(p.reason)}</p>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
${status}
${p.message ? `<p>${escapeHtml(p.message)}</p>` : ''}
<section class="card" aria-labelledby="doc-title">
<h2 id="doc-title">The document</h2>
<iframe src="${here}/document" title="The document to sign: ${escapeHtml(p.filename)}"></iframe>
<p><a href="${here}/document" download="${escapeHtml(p.filename)}">Download ${escapeHtml(p.filename)}</a></p>
</section>
${forms}
${others ? `<section class="card" aria-labelledby="others-title"><h2 id="others-title">Other signers</h2><ul>${others}</ul></section>` : ''}
<p class="muted">Atrium is a sandbox: this signature has no legal value.</p>`,
  );
}

/** The failed-attempt limit of the client address was reached (`underFailureLimits`). */
class TooManyCodes extends Error {
  constructor(readonly retryAfter: number) {
    super('Too many wrong access codes from this address.');
  }
}

/** A wrong access code, or any try at a signer locked by them. */
const wrongCode = (error: unknown): boolean =>
  (error instanceof FieldValidationError && error.fields.some((f) => f.field === 'access_code')) ||
  (error instanceof ForbiddenError && error.code === 'signer_locked');

const notFound = page(
  'Link not valid',
  '<h1>This signing link is not valid</h1><p>It may have been mistyped, or the signature process was deleted. Ask the sender for a new link.</p>',
);

/**
 * The signing page's routes, under the HR API's prefix and without its bearer guard: `/signing/{token}` (the
 * signer's link: the page), its document, and the two forms, which answer `303 See Other` back to the page. Their
 * paths are relative to the link, so they work under any prefix or proxy.
 */
export async function signingPageRoutes(
  app: FastifyInstance,
  opts: { signatures: SignaturesService; signing: SigningService; blobs: BlobStore; limits?: RateLimits | undefined },
): Promise<void> {
  const { signatures, signing, blobs, limits } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const html = (request: FastifyRequest, reply: FastifyReply, status: number, body: string) =>
    securePage(request, reply, CSP)
      .code(status)
      .type('text/html; charset=utf-8')
      .header('Cache-Control', 'no-store')
      .header('Referrer-Policy', 'no-referrer')
      .send(body);
  const hidden = { hide: true };

  api.get('/signing/:token', { schema: { ...hidden, params: TokenParams } }, async (request, reply) => {
    const found = await signing.openLink(request.params.token);
    if (!found) return html(request, reply, 404, notFound);
    return html(request, reply, 200, render(request.params.token, found.process, found.signer));
  });

  api.get('/signing/:token/document', { schema: { ...hidden, params: TokenParams } }, async (request, reply) => {
    const found = await signing.openLink(request.params.token);
    if (!found) return html(request, reply, 404, notFound);
    const file = await signatures.file(found.clientId, found.process.process.id);
    return sendBlob(reply, request, blobs, { ...file, contentType: 'application/pdf', disposition: 'inline' });
  });

  type Form = { name?: string; comment?: string; access_code?: string };
  const action = (
    path: 'sign' | 'refuse',
    body: typeof SignForm | typeof RefuseForm,
    act: (clientId: HrTenantId, signerId: string, form: Form, request: FastifyRequest) => Promise<unknown>,
  ) =>
    api.post(
      `/signing/:token/${path}`,
      { schema: { ...hidden, params: TokenParams, body }, attachValidation: true },
      async (request, reply) => {
        const token = request.params.token;
        const found = await signing.openLink(token);
        if (!found) return html(request, reply, 404, notFound);
        const back = (error: string) => html(request, reply, 422, render(token, found.process, found.signer, error));
        if (request.validationError) {
          return back(
            path === 'sign'
              ? 'Type your name to sign (at most 140 characters).'
              : 'Say why you refuse (at most 550 characters).',
          );
        }
        try {
          // A wrong access code (or a try at a locked signer) is a failed authentication of this address, counted
          // with the APIs' own (ATRIUM_AUTH_FAILURE_LIMIT): past it, the page answers 429 instead of checking more.
          await underFailureLimits(
            limits,
            request.ip,
            undefined,
            () =>
              signing.inClientTime(found.clientId, () =>
                act(found.clientId, found.signer.signer.id, request.body as Form, request),
              ),
            wrongCode,
            (retryAfter) => new TooManyCodes(retryAfter),
          );
        } catch (error) {
          if (error instanceof TooManyCodes) {
            reply.header('Retry-After', String(error.retryAfter));
            return html(
              request,
              reply,
              429,
              render(
                token,
                found.process,
                found.signer,
                `Too many wrong access codes from your address. Try again in ${error.retryAfter} s.`,
              ),
            );
          }
          if (error instanceof FieldValidationError) return back(error.fields.map((f) => f.message).join(' '));
          if (error instanceof DomainError) return back(error.message);
          throw error;
        }
        return reply.redirect(`../${encodeURIComponent(token)}`, 303);
      },
    );

  action('sign', SignForm, (clientId, signerId, form, request) =>
    signing.sign(clientId, signerId, form as Static<typeof SignForm>, callOrigin(request)),
  );
  action('refuse', RefuseForm, (clientId, signerId, form) =>
    signing.refuse(clientId, signerId, form as Static<typeof RefuseForm>),
  );
}
