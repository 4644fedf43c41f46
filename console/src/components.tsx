import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';

/** An error or notice for screen readers and eyes alike. */
export function Alert(props: { kind?: 'error' | 'info'; children: ComponentChildren }) {
  return (
    <p class={`alert alert-${props.kind ?? 'error'}`} role={props.kind === 'info' ? 'status' : 'alert'}>
      {props.children}
    </p>
  );
}

/**
 * A secret shown once, with a copy button: the server keeps only its hash, so the page says so. It is gone when
 * dismissed.
 */
export function SecretOnce(props: { label: string; value: string; onDismiss: () => void }) {
  const [copied, setCopied] = useState(false);
  const field = useRef<HTMLInputElement>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.value);
    } catch {
      // No clipboard (a page served over plain http from another host): select the text for a manual copy.
      field.current?.select();
      document.execCommand('copy');
    }
    setCopied(true);
  };
  return (
    <section class="secret" aria-label={props.label} data-testid="secret">
      <h3>{props.label}</h3>
      <p>Copy it now: it is shown only this once, and Atrium keeps only its hash.</p>
      <div class="secret-row">
        <input ref={field} readOnly value={props.value} aria-label={props.label} spellcheck={false} />
        <button type="button" onClick={copy}>
          Copy
        </button>
      </div>
      <p role="status" class="muted">
        {copied ? 'Copied.' : ''}
      </p>
      <button type="button" class="secondary" onClick={props.onDismiss}>
        Done
      </button>
    </section>
  );
}

/** A confirmation for what cannot be undone, as a modal dialog. */
export function Confirm(props: {
  open: boolean;
  title: string;
  children: ComponentChildren;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (props.open && !d.open) d.showModal();
    if (!props.open && d.open) d.close();
  }, [props.open]);
  return (
    <dialog ref={dialog} aria-labelledby="confirm-title" onCancel={props.onCancel}>
      <h2 id="confirm-title">{props.title}</h2>
      <div>{props.children}</div>
      <div class="actions">
        <button type="button" class="secondary" onClick={props.onCancel}>
          Cancel
        </button>
        <button type="button" class="danger" onClick={props.onConfirm}>
          {props.confirmLabel}
        </button>
      </div>
    </dialog>
  );
}

/** Runs an action, keeping its error for display and telling whether it is running. */
export function useAction() {
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    try {
      await action();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };
  return { error, busy, run };
}
