import { useState } from 'preact/hooks';
import { type Session, signIn } from '../api';
import { Alert, useAction } from '../components';

/** Signing in with an operator token (`atrium admin create-token`): the page keeps a session cookie, not the token. */
export function SignIn(props: { onSignedIn: (session: Session) => void }) {
  const [token, setToken] = useState('');
  const { error, busy, run } = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      const session = await signIn(token.trim());
      setToken('');
      props.onSignedIn(session);
    });
  };
  return (
    <main class="sign-in">
      <h1>Atrium console</h1>
      <form onSubmit={submit}>
        <label for="token">Operator token</label>
        <input
          id="token"
          name="token"
          type="password"
          autocomplete="off"
          placeholder="atrium_admin_…"
          value={token}
          onInput={(e) => setToken((e.target as HTMLInputElement).value)}
          required
        />
        <p class="muted">
          Made with <code>atrium admin create-token</code>. The console exchanges it for a session cookie and does not
          keep it.
        </p>
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
      {error && <Alert>{error}</Alert>}
    </main>
  );
}
