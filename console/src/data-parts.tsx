/**
 * The data browser's parts that do more than show JSON: a document's file (preview and download, fetched with the
 * view pass as a Blob) and a webhook delivery's Redeliver button.
 */

import { useEffect, useState } from 'preact/hooks';
import { Alert } from './components';
import { type Context, type Row, text } from './data-browser';
import { getFile, redeliver, triggerEvent } from './tenant-api';

/** Text files shown in the preview up to this size; the download has them whole. */
const TEXT_PREVIEW = 100_000;
/** Names of files shown as text when the API could not tell their type from their bytes. */
const TEXT_NAME = /\.(txt|csv|tsv|json|xml|md|log)$/i;

interface Loaded {
  url: string;
  type: string;
  name: string;
  size: number;
  text?: string;
}

/**
 * An employee document's file, fetched once with the pass: an image in `<img>`, a PDF in a frame (the browser's own
 * viewer), a text file as text; and a download link of the same bytes. The blob: URL is released when the page
 * leaves.
 */
export function DocumentFile(props: { context: Context; item: string; body: Row }) {
  const [file, setFile] = useState<Loaded | undefined>();
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    let url: string | undefined;
    let current = true;
    const path = `/employee_documents/${encodeURIComponent(props.item)}/file`;
    getFile(props.context.kind, props.context.id, path)
      .then(async (got) => {
        if (!current) return;
        url = URL.createObjectURL(got.blob);
        const name = got.name ?? (text(props.body.name) || 'document');
        // The API sniffs a type from the bytes, and text has no signature: its name tells.
        const textual =
          /^text\/|^application\/(json|xml|csv)$/.test(got.type) ||
          (got.type === 'application/octet-stream' && TEXT_NAME.test(name));
        setFile({
          url,
          type: got.type,
          name,
          size: got.blob.size,
          ...(textual ? { text: await got.blob.slice(0, TEXT_PREVIEW).text() } : {}),
        });
      })
      .catch((err: unknown) => current && setError(err instanceof Error ? err.message : String(err)));
    return () => {
      current = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [props.context.kind, props.context.id, props.item]);

  return (
    <section class="card" aria-labelledby="file-title">
      <h2 id="file-title">File</h2>
      {error && <Alert>{error}</Alert>}
      {!file && !error && <p class="muted">Loading the file…</p>}
      {file && (
        <>
          <p class="actions">
            <a class="button" href={file.url} download={file.name}>
              Download {file.name}
            </a>
            <span class="muted">
              {file.type}, {file.size.toLocaleString('en')} bytes
            </span>
          </p>
          <figure class="preview" data-testid="preview">
            {file.type.startsWith('image/') ? (
              <img src={file.url} alt={`Preview of ${file.name}`} />
            ) : file.type === 'application/pdf' ? (
              <iframe src={file.url} title={`Preview of ${file.name}`} />
            ) : file.text !== undefined ? (
              <pre>{file.text}</pre>
            ) : (
              <p class="muted">No preview for this type of file: download it.</p>
            )}
            <figcaption class="visually-hidden">Preview of {file.name}</figcaption>
          </figure>
        </>
      )}
    </section>
  );
}

/**
 * Sends a webhook delivery's event again (the admin API's redeliver, signed anew); the new attempt shows in the
 * list once made, which reloads after a moment.
 */
export function Redeliver(props: { row: Row; context: Context }) {
  const [said, setSaid] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const delivery = text(props.row.delivery_id);
  const send = async () => {
    setBusy(true);
    setSaid(undefined);
    try {
      await redeliver(props.context.id, props.context.parent ?? '', delivery);
      setSaid('Queued again.');
      // The new attempt is listed once the job runner has made it: usually within a second, later when it is busy.
      for (const ms of [1000, 3000, 10_000]) setTimeout(props.context.reload, ms);
    } catch (err) {
      setSaid(`Failed: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <span class="redeliver">
      <button
        type="button"
        class="secondary"
        disabled={busy}
        aria-label={`Redeliver ${text(props.row.event_type)} (attempt ${text(props.row.attempt)}, ${delivery.slice(0, 8)})`}
        onClick={() => void send()}
      >
        Redeliver
      </button>{' '}
      <span role="status">{said ?? ''}</span>
    </span>
  );
}

/**
 * Fires an event of a type this webhook listens to (the admin API's event trigger, docs/admin.md): it carries the
 * resource's present state, or, without a resource id, the client's resource of that type written last, and is
 * delivered to every matching webhook as a real one. Its delivery shows in the list once made.
 */
export function TriggerEvent(props: { context: Context; item: string; body: Row }) {
  const patterns = Array.isArray(props.body.events) ? props.body.events.map((p) => text(p)) : [];
  const [type, setType] = useState(patterns.find((p) => !p.includes('*')) ?? '');
  const [resourceId, setResourceId] = useState('');
  const [said, setSaid] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const send = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setSaid(undefined);
    try {
      const fired = await triggerEvent(props.context.id, type.trim(), resourceId.trim());
      const count = fired.webhooks === 1 ? '1 webhook' : `${fired.webhooks} webhooks`;
      setSaid(`Triggered ${fired.event.type}: queued for ${count}.`);
    } catch (err) {
      setSaid(`Failed: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby="trigger-event">
      <h3 id="trigger-event">Trigger an event</h3>
      <form class="trigger-event" onSubmit={(e) => void send(e)}>
        <label>
          Event type{' '}
          <input
            value={type}
            required
            placeholder="organization.updated"
            onInput={(e) => setType((e.target as HTMLInputElement).value)}
          />
        </label>{' '}
        <label>
          Resource id (optional){' '}
          <input value={resourceId} onInput={(e) => setResourceId((e.target as HTMLInputElement).value)} />
        </label>{' '}
        <button type="submit" class="secondary" disabled={busy}>
          Trigger
        </button>{' '}
        <span role="status">{said ?? ''}</span>
      </form>
    </section>
  );
}
