import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { currentSession, type Session, signOut, whenSignedOut } from './api';
import { Alert } from './components';
import { PAGES } from './pages/index';
import { SignIn } from './pages/sign-in';

const BASE = '/console/';

/** The page of the current address (`/console/<path>`); the first page for `/console/` itself. */
function pageOf(pathname: string) {
  const path = pathname.startsWith(BASE) ? pathname.slice(BASE.length).replace(/\/$/, '') : '';
  return PAGES.find((p) => p.path === path) ?? PAGES[0];
}

function App() {
  const [session, setSession] = useState<Session | undefined | null>(null);
  const [failure, setFailure] = useState<string | undefined>();
  const [path, setPath] = useState(location.pathname);
  useEffect(() => {
    whenSignedOut(() => setSession(undefined));
    currentSession()
      .then(setSession)
      .catch((err: unknown) => setFailure(err instanceof Error ? err.message : String(err)));
    const onPop = () => setPath(location.pathname);
    addEventListener('popstate', onPop);
    return () => removeEventListener('popstate', onPop);
  }, []);

  if (failure) return <Alert>{failure}</Alert>;
  if (session === null) return <p class="muted loading">Loading…</p>;
  if (session === undefined) return <SignIn onSignedIn={setSession} />;

  const page = pageOf(path);
  const go = (to: string) => (event: Event) => {
    event.preventDefault();
    history.pushState(null, '', `${BASE}${to}`);
    setPath(location.pathname);
  };
  const Current = page?.component;
  return (
    <>
      <header class="top">
        <a class="brand" href={BASE}>
          Atrium console
        </a>
        <nav aria-label="Console">
          {PAGES.map((p) => (
            <a
              key={p.path}
              href={`${BASE}${p.path}`}
              aria-current={p === page ? 'page' : undefined}
              onClick={go(p.path)}
            >
              {p.title}
            </a>
          ))}
        </nav>
        <span class="who muted">{session.token.name}</span>
        <button
          type="button"
          class="secondary"
          onClick={() => {
            void signOut().finally(() => setSession(undefined));
          }}
        >
          Sign out
        </button>
      </header>
      <main>{Current && <Current />}</main>
    </>
  );
}

const root = document.getElementById('app');
if (root) render(<App />, root);
