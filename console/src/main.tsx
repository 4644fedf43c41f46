import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { currentSession, type Session, signOut, whenSignedOut } from './api';
import { Alert } from './components';
import { navigate } from './navigate';
import { PAGES, route } from './pages/index';
import { SignIn } from './pages/sign-in';
import { forgetPasses } from './tenant-api';

const BASE = '/console/';

/** The page of the current address (`/console/<path>`); the first page for `/console/` itself. */
function pageOf(pathname: string) {
  return route(pathname.startsWith(BASE) ? pathname.slice(BASE.length) : '');
}

function App() {
  const [session, setSession] = useState<Session | undefined | null>(null);
  const [failure, setFailure] = useState<string | undefined>();
  const [path, setPath] = useState(location.pathname);
  const [search, setSearch] = useState(location.search);
  useEffect(() => {
    whenSignedOut(() => {
      forgetPasses();
      setSession(undefined);
    });
    currentSession()
      .then(setSession)
      .catch((err: unknown) => setFailure(err instanceof Error ? err.message : String(err)));
    const onPop = () => {
      setPath(location.pathname);
      setSearch(location.search);
    };
    addEventListener('popstate', onPop);
    return () => removeEventListener('popstate', onPop);
  }, []);

  if (failure) return <Alert>{failure}</Alert>;
  if (session === null) return <p class="muted loading">Loading…</p>;
  if (session === undefined) return <SignIn onSignedIn={setSession} />;

  const { page, params } = pageOf(path);
  const go = (to: string) => (event: Event) => {
    event.preventDefault();
    navigate(`${BASE}${to}`);
  };
  // Links within the console move without reloading the page.
  const onClick = (event: MouseEvent) => {
    const link = (event.target as Element | null)?.closest?.('a');
    const href = link?.getAttribute('href');
    if (!link || !href?.startsWith(BASE) || event.metaKey || event.ctrlKey || event.shiftKey) return;
    go(href.slice(BASE.length))(event);
  };
  const Current = page.component;
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: one listener for every link within the console
    // biome-ignore lint/a11y/useKeyWithClickEvents: links are activated by the keyboard as clicks
    <div onClick={onClick}>
      <header class="top">
        <a class="brand" href={BASE}>
          Atrium console
        </a>
        <nav aria-label="Console">
          {PAGES.filter((p) => p.title).map((p) => (
            <a key={p.path} href={`${BASE}${p.path}`} aria-current={p === page ? 'page' : undefined}>
              {p.title}
            </a>
          ))}
        </nav>
        <span class="who muted">{session.token.name}</span>
        <button
          type="button"
          class="secondary"
          onClick={() => {
            forgetPasses();
            void signOut().finally(() => setSession(undefined));
          }}
        >
          Sign out
        </button>
      </header>
      <main>
        {/* A page of another path starts afresh (no state of the page before); a new query keeps the page. */}
        <Current key={path} params={params} query={new URLSearchParams(search)} />
      </main>
    </div>
  );
}

const root = document.getElementById('app');
if (root) render(<App />, root);
